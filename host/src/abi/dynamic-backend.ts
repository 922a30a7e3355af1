// Backends a guest registers at run time (`new Backend`, allowDynamicBackends), read from js-compute's
// DynamicBackendConfig. They live as long as the sandbox, as in Viceroy.
import type { BackendConfig } from '../manifest/backends.js';
import type { Sandbox } from '../guest/sandbox.js';
import { INVAL, OK } from '../guest/status.js';

// Bits of the options mask and offsets in DynamicBackendConfig (fastly.h, wasm32).
const DYN_HOST_OVERRIDE = 1 << 1;
const DYN_CONNECT_TIMEOUT = 1 << 2;
const DYN_FIRST_BYTE_TIMEOUT = 1 << 3;
const DYN_BETWEEN_BYTES_TIMEOUT = 1 << 4;
const DYN_USE_SSL = 1 << 5;
const DYN_CERT_HOSTNAME = 1 << 8;
const DYN_CA_CERT = 1 << 9;
const DYN_SNI_HOSTNAME = 1 << 11;

export function registerDynamicBackend(sb: Sandbox, name: string, target: string, mask: number, cfg: number): number {
  if (name === '' || sb.findBackend(name)) return INVAL;
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(target);
  if (!m) return INVAL;
  const tls = (mask & DYN_USE_SSL) !== 0;
  const hostname = m[1]!.replace(/^\[|\]$/g, '');
  const port = m[2] ? Number(m[2]) : tls ? 443 : 80;
  if (!Number.isInteger(port) || port <= 0 || port > 65535) return INVAL;
  const str = (off: number) => sb.mem.utf8(sb.mem.r32(cfg + off), sb.mem.r32(cfg + off + 4));
  const protocol = tls ? 'https:' : 'http:';
  const backend: BackendConfig = {
    name,
    url: `${protocol}//${target}/`,
    protocol,
    hostname,
    port,
    pathPrefix: '/',
    useSni: true,
    connectTimeoutMs: cfg && mask & DYN_CONNECT_TIMEOUT ? sb.mem.r32(cfg + 8) : 1_000,
    firstByteTimeoutMs: cfg && mask & DYN_FIRST_BYTE_TIMEOUT ? sb.mem.r32(cfg + 12) : 15_000,
    betweenBytesTimeoutMs: cfg && mask & DYN_BETWEEN_BYTES_TIMEOUT ? sb.mem.r32(cfg + 16) : 10_000,
  };
  if (cfg && mask & DYN_HOST_OVERRIDE) backend.overrideHost = str(0);
  if (cfg && mask & DYN_CERT_HOSTNAME) backend.certHost = str(28);
  else if (cfg && mask & DYN_SNI_HOSTNAME) backend.certHost = str(52);
  if (cfg && mask & DYN_CA_CERT) backend.caCertificates = [str(36)];
  sb.dynamicBackends.set(name, backend);
  return OK;
}
