// Why the origin gave no answer, from what the runtime threw. js-compute rejects the fetch with a
// DOMException named `NetworkError` whose message is the host's send error detail (js-compute 3.46.0,
// FastlySendError::message; the local host reports the same details): `Connection refused`, `HTTP
// response timeout` (the backend's first-byte timeout), `Connection timeout` (its connect timeout),
// `DNS error (rcode=..)`, `Connection terminated`, ... Anything else the origin call throws is `failed`.
import type { OriginFailure } from '../log/index.js';

/** Waited too long: for a connection, or for the answer's headers (first_byte_timeout). */
const TIMEOUT = new Set(['Connection timeout', 'HTTP response timeout']);

/** No connection was made: nothing listens, the backend is marked down, or its name or address leads nowhere. */
const REFUSED = new Set([
  'Connection refused',
  'Connection limit reached',
  'Destination not found',
  'Destination unavailable',
  'Destination IP unroutable',
  'DNS timeout',
]);

export function originFailure(error: unknown): OriginFailure {
  if (typeof error !== 'object' || error === null) return 'failed';
  const { name, message } = error as { name?: unknown; message?: unknown };
  if (name !== 'NetworkError' || typeof message !== 'string') return 'failed';
  if (TIMEOUT.has(message)) return 'timeout';
  if (REFUSED.has(message) || message.startsWith('DNS error')) return 'refused';
  return 'failed';
}
