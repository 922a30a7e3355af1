// `[local_server.backends]`: where each backend is, its TLS settings and timeouts.
import { ConfigError, isTable, type Reader } from './reader.js';

export interface BackendConfig {
  name: string;
  url: string;
  protocol: 'http:' | 'https:';
  hostname: string;
  port: number;
  pathPrefix: string;
  overrideHost?: string;
  certHost?: string;
  /** PEM certificates trusted for this backend instead of the system roots. */
  caCertificates?: string[];
  useSni: boolean;
  connectTimeoutMs: number;
  firstByteTimeoutMs: number;
  betweenBytesTimeoutMs: number;
}

const DEFAULT_CONNECT_MS = 1_000;
const DEFAULT_FIRST_BYTE_MS = 15_000;
const DEFAULT_BETWEEN_BYTES_MS = 10_000;

function timeout(key: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new ConfigError(key, 'expected a non-negative integer of milliseconds');
  }
  return value;
}

const BACKEND_KEYS = new Set([
  'url',
  'override_host',
  'cert_host',
  'use_sni',
  'grpc',
  'health',
  'ca_certificate',
  'client_certificate',
  'connect_timeout_ms',
  'first_byte_timeout_ms',
  'between_bytes_timeout_ms',
]);

function caCertificates(key: string, value: unknown, reader: Reader): string[] {
  if (typeof value === 'string') {
    if (!value.includes('-----BEGIN CERTIFICATE-----')) throw new ConfigError(key, 'expected PEM certificate text');
    return [value];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => caCertificates(`${key}[${i}]`, v, reader));
  if (isTable(value)) {
    if (value.file !== undefined) {
      return caCertificates(`${key}.file`, reader.text(`${key}.file`, value.file), reader);
    }
    if (value.value !== undefined) return caCertificates(`${key}.value`, value.value, reader);
  }
  throw new ConfigError(key, 'expected PEM text, { file }, { value } or an array of them');
}

export function readBackends(raw: unknown, reader: Reader): Record<string, BackendConfig> {
  const out: Record<string, BackendConfig> = {};
  if (raw === undefined) return out;
  if (!isTable(raw)) throw new ConfigError('local_server.backends', 'expected a table');
  for (const [name, def] of Object.entries(raw)) {
    const key = `local_server.backends.${name}`;
    if (!isTable(def)) throw new ConfigError(key, 'expected a table with a url');
    for (const k of Object.keys(def)) {
      if (!BACKEND_KEYS.has(k)) throw new ConfigError(`${key}.${k}`, 'unrecognized key');
    }
    if (typeof def.url !== 'string') throw new ConfigError(`${key}.url`, 'expected a URL string');
    let url: URL;
    try {
      url = new URL(def.url);
    } catch {
      throw new ConfigError(`${key}.url`, `not a valid URL: ${JSON.stringify(def.url)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new ConfigError(`${key}.url`, `scheme must be http or https, got ${url.protocol}`);
    }
    let overrideHost: string | undefined;
    if (def.override_host !== undefined) {
      if (typeof def.override_host !== 'string' || def.override_host.trim() === '') {
        throw new ConfigError(`${key}.override_host`, 'expected a non-empty string');
      }
      overrideHost = def.override_host;
    }
    let certHost: string | undefined;
    if (def.cert_host !== undefined) {
      if (typeof def.cert_host !== 'string' || def.cert_host.trim() === '') {
        throw new ConfigError(`${key}.cert_host`, 'expected a non-empty string');
      }
      certHost = def.cert_host;
    }
    if (def.use_sni !== undefined && typeof def.use_sni !== 'boolean') {
      throw new ConfigError(`${key}.use_sni`, 'expected true or false');
    }
    const backend: BackendConfig = {
      name,
      useSni: def.use_sni !== false,
      url: url.href,
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80,
      pathPrefix: url.pathname,
      connectTimeoutMs: timeout(`${key}.connect_timeout_ms`, def.connect_timeout_ms, DEFAULT_CONNECT_MS),
      firstByteTimeoutMs: timeout(`${key}.first_byte_timeout_ms`, def.first_byte_timeout_ms, DEFAULT_FIRST_BYTE_MS),
      betweenBytesTimeoutMs: timeout(
        `${key}.between_bytes_timeout_ms`,
        def.between_bytes_timeout_ms,
        DEFAULT_BETWEEN_BYTES_MS,
      ),
    };
    if (overrideHost !== undefined) backend.overrideHost = overrideHost;
    if (certHost !== undefined) backend.certHost = certHost;
    if (def.ca_certificate !== undefined) {
      backend.caCertificates = caCertificates(`${key}.ca_certificate`, def.ca_certificate, reader);
    }
    out[name] = backend;
  }
  return out;
}
