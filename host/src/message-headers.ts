// Headers as the host passes them between Node and the guest: lower-cased name/value pairs, without
// the hop-by-hop ones that belong to a single connection.
import type { Header } from './protocol.js';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Node's rawHeaders (name, value, name, value, ...) as pairs with lower-cased names. */
export function headerPairs(raw: string[]): Header[] {
  const headers: Header[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) headers.push([raw[i]!.toLowerCase(), raw[i + 1]!]);
  return headers;
}

export function stripHopByHop(headers: Header[]): Header[] {
  const named = new Set(
    headers.filter(([n]) => n === 'connection').flatMap(([, v]) => v.split(',').map((s) => s.trim().toLowerCase())),
  );
  return headers.filter(([n]) => !HOP_BY_HOP.has(n) && !named.has(n));
}
