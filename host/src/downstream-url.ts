// What the guest is told a downstream request's URL is, or the 4xx the host answers instead, as
// Fastly does before any service code runs.
import type http from 'node:http';
import { unmapIp } from './ip.js';

/** Fastly refuses request targets longer than this with 414 (its limit for the URL is 8 KB). */
export const MAX_TARGET_BYTES = 8192;

// A Host header: a name or an IPv4 address (a fully qualified name may end in one dot, which the
// guest is handed as sent, as Viceroy does), or an [IPv6] literal, and an optional port. Anything
// else (a slash, a space, an @) would change what the guest reads as its URL.
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The URL the guest is handed for a downstream request, or the status the host answers instead:
 * 414 for an over-long target, 400 for `*` (OPTIONS *), a target that is neither a path nor an
 * absolute URL, or a Host header that is not a host. An absolute-form target (`GET http://h/p`)
 * stands for itself, its host taking the place of the Host header, as HTTP/1.1 says.
 *
 * A host is also one the URL standard can read, the parser js-compute reads the URL with: a port
 * past 65535 (`a:99999`) or a last label that is a number but no IPv4 address (`shop.999`) passes
 * Viceroy (its URI type checks only that a port is digits), and every `new URL(request.url)` in the
 * guest then throws. RFC 9112 says a server answers a Host with an invalid value with 400.
 */
export function downstreamUrl(req: Pick<http.IncomingMessage, 'url' | 'headers' | 'socket'>): string | number {
  const target = req.url ?? '/';
  if (Buffer.byteLength(target) > MAX_TARGET_BYTES) return 414;
  if (/^https?:\/\//i.test(target)) {
    try {
      const absolute = new URL(target);
      if (!HOST.test(absolute.host)) return 400;
      return `http://${absolute.host}${absolute.pathname}${absolute.search}`;
    } catch {
      return 400;
    }
  }
  if (!target.startsWith('/')) return 400;
  const local = unmapIp(req.socket.localAddress ?? '127.0.0.1');
  const host = req.headers.host ?? `${local.includes(':') ? `[${local}]` : local}:${req.socket.localPort}`;
  if (!HOST.test(host)) return 400;
  const url = `http://${host}${target}`;
  return URL.canParse(url) ? url : 400;
}
