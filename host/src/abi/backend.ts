// fastly_backend: questions about a named backend, answered as Viceroy answers them locally.
import type { BackendConfig } from '../manifest/backends.js';
import type { Sandbox } from '../guest/sandbox.js';
import { NONE, OK, UNSUPPORTED } from '../guest/status.js';
import type { AbiModule } from './types.js';

const named = (sb: Sandbox, p: number, l: number): BackendConfig => sb.backendNamed(sb.mem.utf8(p, l));

/** A getter that writes one u32 about a named backend (an unknown name is the guest's error). */
function u32(get: (backend: BackendConfig, name: string, sb: Sandbox) => number) {
  return (sb: Sandbox, p: number, l: number, out: number): number => {
    const name = sb.mem.utf8(p, l);
    sb.mem.w32(out, get(sb.backendNamed(name), name, sb));
    return OK;
  };
}

/** Viceroy answers "unsupported" for the timeouts once the name is known (it reports no connection timing). */
function timeoutUnsupported(sb: Sandbox, p: number, l: number): number {
  named(sb, p, l);
  return UNSUPPORTED;
}

/** A setting the host does not model: "none" once the name is known. */
function none(sb: Sandbox, p: number, l: number): number {
  named(sb, p, l);
  return NONE;
}

export const backend: AbiModule = {
  exists: (sb, p: number, l: number, out: number) => {
    sb.mem.w32(out, sb.findBackend(sb.mem.utf8(p, l)) ? 1 : 0);
    return OK;
  },
  // Viceroy reports no health checks: every backend reads as "unknown" (0).
  is_healthy: u32(() => 0),
  is_dynamic: u32((_, name, sb) => (sb.dynamicBackends.has(name) ? 1 : 0)),
  get_host: (sb, p: number, l: number, buf: number, max: number, nw: number) =>
    sb.mem.writeOut(Buffer.from(named(sb, p, l).hostname), buf, max, nw),
  get_override_host: (sb, p: number, l: number, buf: number, max: number, nw: number) => {
    const host = named(sb, p, l).overrideHost;
    if (host === undefined) return NONE;
    return sb.mem.writeOut(Buffer.from(host), buf, max, nw);
  },
  get_port: (sb, p: number, l: number, out: number) => {
    sb.mem.w16(out, named(sb, p, l).port);
    return OK;
  },
  get_connect_timeout_ms: timeoutUnsupported,
  get_first_byte_timeout_ms: timeoutUnsupported,
  get_between_bytes_timeout_ms: timeoutUnsupported,
  is_ssl: u32((b) => (b.protocol === 'https:' ? 1 : 0)),
  get_ssl_min_version: none,
  get_ssl_max_version: none,
  // Keepalive is not configurable locally: every setting reads as 0 (off / unset).
  get_http_keepalive_time: u32(() => 0),
  get_tcp_keepalive_enable: u32(() => 0),
  get_tcp_keepalive_interval: u32(() => 0),
  get_tcp_keepalive_probes: u32(() => 0),
  get_tcp_keepalive_time: u32(() => 0),
};
