// Reads `[local_server]` from fastly.toml the way Viceroy does, into plain data that can be
// posted to worker threads. Every error names the key it came from so a typo is found at once.
import { readDeviceDetection } from './device-detection.js';
import { readFileSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, resolve } from 'node:path';
import { parse as parseToml } from 'smol-toml';

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

export interface KvSeedEntry {
  value: Uint8Array;
  metadata?: string;
}

export interface AclEntry {
  /** Address bytes (4 or 16) of the network. */
  network: number[];
  bits: number;
  prefix: string;
  action: string;
}

export interface GeoConfig {
  useDefaultLoopback: boolean;
  addresses: Record<string, Record<string, unknown>>;
}

/** What every worker needs to answer store reads without a round trip to the main thread. */
export interface StoreSnapshot {
  backends: Record<string, BackendConfig>;
  configStores: Record<string, Record<string, string>>;
  secretStores: Record<string, Record<string, string>>;
  geolocation: GeoConfig;
  acls: Record<string, AclEntry[]>;
  /** `[local_server.device_detection]`: user agent -> the device data a lookup answers. */
  deviceDetection: Record<string, Record<string, unknown>>;
}

export interface LocalServer {
  snapshot: StoreSnapshot;
  kvStores: Record<string, Record<string, KvSeedEntry>>;
  /** Files whose change should trigger a reload (the manifest and every store file). */
  files: string[];
  /** Each file's version (see fileVersion) as it was just before it was read for this load. */
  versions: Map<string, string>;
}

/**
 * What tells one state of a file from the next: mtime, size and inode, "missing" when it is not
 * there. Taken before the file is read, so a change made while (or just after) it is read still
 * differs. The inode tells apart two same-size versions written by rename (as editors and the test
 * harness do) within one tick of the file system's clock, which mtime alone cannot; a same-size
 * rewrite in place within one tick stays invisible.
 */
export function fileVersion(stats: { mtimeMs: number; size: number; ino: number } | undefined): string {
  return stats === undefined || (stats.mtimeMs === 0 && stats.size === 0) ? 'missing' : `${stats.mtimeMs}:${stats.size}:${stats.ino}`;
}

export function currentVersion(file: string): string {
  try {
    return fileVersion(statSync(file));
  } catch {
    return 'missing';
  }
}

export class ConfigError extends Error {
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(`${key}: ${message}`);
    this.name = 'ConfigError';
  }
}

type Table = Record<string, unknown>;

export const isTable = (v: unknown): v is Table => typeof v === 'object' && v !== null && !Array.isArray(v);

// Fastly's production defaults; Viceroy only knows the last two, connect is our extension.
const DEFAULT_CONNECT_MS = 1_000;
const DEFAULT_FIRST_BYTE_MS = 15_000;
const DEFAULT_BETWEEN_BYTES_MS = 10_000;

export class Reader {
  readonly files: string[] = [];
  readonly versions = new Map<string, string>();
  constructor(private readonly baseDir: string) {}

  path(key: string, value: unknown): string {
    if (typeof value !== 'string' || value.trim() === '') throw new ConfigError(key, 'expected a non-empty file path');
    const full = resolve(this.baseDir, value);
    this.files.push(full);
    if (!this.versions.has(full)) this.versions.set(full, currentVersion(full));
    return full;
  }

  bytes(key: string, value: unknown): Uint8Array {
    const file = this.path(key, value);
    try {
      return new Uint8Array(readFileSync(file));
    } catch (err) {
      throw new ConfigError(key, `cannot read ${file}: ${(err as Error).message}`);
    }
  }

  text(key: string, value: unknown): string {
    return Buffer.from(this.bytes(key, value)).toString('utf8');
  }

  json(key: string, value: unknown): unknown {
    const text = this.text(key, value);
    try {
      return JSON.parse(text);
    } catch (err) {
      throw new ConfigError(key, `${this.files.at(-1)} is not valid JSON: ${(err as Error).message}`);
    }
  }
}

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

function readBackends(raw: unknown, reader: Reader): Record<string, BackendConfig> {
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

function stringMap(key: string, value: unknown): Record<string, string> {
  if (!isTable(value)) throw new ConfigError(key, 'expected an object of string values');
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw new ConfigError(`${key}.${k}`, 'expected a string value');
    out[k] = v;
  }
  return out;
}

// Fastly's limits for config store items; Viceroy refuses larger ones too, so a store that works
// here can also be uploaded.
const CONFIG_KEY_MAX_CHARS = 256;
const CONFIG_VALUE_MAX_CHARS = 8000;

function withinConfigLimits(key: string, store: Record<string, string>): Record<string, string> {
  for (const [k, v] of Object.entries(store)) {
    const keyChars = [...k].length;
    const valueChars = [...v].length;
    if (keyChars > CONFIG_KEY_MAX_CHARS) {
      throw new ConfigError(`${key}.${k}`, `key is ${keyChars} characters; Fastly allows at most ${CONFIG_KEY_MAX_CHARS}`);
    }
    if (valueChars > CONFIG_VALUE_MAX_CHARS) {
      throw new ConfigError(`${key}.${k}`, `value is ${valueChars} characters; Fastly allows at most ${CONFIG_VALUE_MAX_CHARS}`);
    }
  }
  return store;
}

function readConfigStores(raw: unknown, rootKey: string, reader: Reader): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  if (raw === undefined) return out;
  if (!isTable(raw)) throw new ConfigError(rootKey, 'expected a table');
  for (const [name, def] of Object.entries(raw)) {
    const key = `${rootKey}.${name}`;
    if (!isTable(def)) throw new ConfigError(key, 'expected a table with format and contents or file');
    for (const k of Object.keys(def)) {
      if (!['format', 'contents', 'file', 'description'].includes(k)) {
        throw new ConfigError(`${key}.${k}`, 'unrecognized key');
      }
    }
    if (def.format === 'inline-toml') {
      if (def.contents === undefined) throw new ConfigError(`${key}.contents`, 'missing (format is inline-toml)');
      out[name] = withinConfigLimits(`${key}.contents`, stringMap(`${key}.contents`, def.contents));
    } else if (def.format === 'json') {
      if (def.file === undefined) throw new ConfigError(`${key}.file`, 'missing (format is json)');
      out[name] = withinConfigLimits(`${key}.file`, stringMap(`${key}.file`, reader.json(`${key}.file`, def.file)));
    } else {
      throw new ConfigError(`${key}.format`, `expected "inline-toml" or "json", got ${JSON.stringify(def.format)}`);
    }
  }
  return out;
}

/** Both secret and KV stores accept either an inline array of items or `{ file, format = "json" }`. */
function storeItems(key: string, def: unknown, reader: Reader, fromJson: (json: Table) => Table[]): Table[] {
  if (Array.isArray(def)) {
    return def.map((item, i) => {
      if (!isTable(item)) throw new ConfigError(`${key}[${i}]`, 'expected a table with key and data or file');
      return item;
    });
  }
  if (!isTable(def)) throw new ConfigError(key, 'expected an array of entries or a table with file and format');
  if (def.file === undefined || def.format === undefined) {
    throw new ConfigError(key, 'a file-backed store needs both file and format = "json"');
  }
  if (def.format !== 'json') throw new ConfigError(`${key}.format`, `only "json" is supported, got ${JSON.stringify(def.format)}`);
  const json = reader.json(`${key}.file`, def.file);
  if (!isTable(json)) throw new ConfigError(`${key}.file`, 'JSON file must hold an object');
  return fromJson(json);
}

function readSecretStores(raw: unknown, reader: Reader): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  if (raw === undefined) return out;
  if (!isTable(raw)) throw new ConfigError('local_server.secret_stores', 'expected a table');
  for (const [name, def] of Object.entries(raw)) {
    const key = `local_server.secret_stores.${name}`;
    const items = storeItems(key, def, reader, (json) =>
      Object.entries(json).map(([k, v]) => {
        if (typeof v !== 'string') throw new ConfigError(`${key}.file.${k}`, 'expected a string value');
        return { key: k, data: v };
      }),
    );
    const store: Record<string, string> = {};
    items.forEach((item, i) => {
      const ik = `${key}[${i}]`;
      if (typeof item.key !== 'string') throw new ConfigError(`${ik}.key`, 'expected a string');
      const sources = ['file', 'data', 'env'].filter((s) => item[s] !== undefined);
      if (sources.length !== 1) throw new ConfigError(ik, 'needs exactly one of data, file or env');
      if (item.data !== undefined) {
        if (typeof item.data !== 'string') throw new ConfigError(`${ik}.data`, 'expected a string');
        store[item.key] = item.data;
      } else if (item.file !== undefined) {
        store[item.key] = reader.text(`${ik}.file`, item.file);
      } else {
        if (typeof item.env !== 'string') throw new ConfigError(`${ik}.env`, 'expected an environment variable name');
        const v = process.env[item.env];
        if (v === undefined) throw new ConfigError(`${ik}.env`, `environment variable ${item.env} is not set`);
        store[item.key] = v;
      }
    });
    out[name] = store;
  }
  return out;
}

function readKvStores(raw: unknown, reader: Reader): Record<string, Record<string, KvSeedEntry>> {
  const out: Record<string, Record<string, KvSeedEntry>> = {};
  if (raw === undefined) return out;
  if (!isTable(raw)) throw new ConfigError('local_server.kv_stores', 'expected a table');
  for (const [name, def] of Object.entries(raw)) {
    const key = `local_server.kv_stores.${name}`;
    const items = storeItems(key, def, reader, (json) =>
      Object.entries(json).map(([k, v]) => {
        if (typeof v === 'string') return { key: k, data: v };
        if (!isTable(v)) throw new ConfigError(`${key}.file.${k}`, 'expected a string or an object with data or file');
        return { key: k, ...v };
      }),
    );
    const store: Record<string, KvSeedEntry> = {};
    items.forEach((item, i) => {
      const ik = `${key}[${i}]`;
      if (typeof item.key !== 'string') throw new ConfigError(`${ik}.key`, 'expected a string');
      const file = item.file ?? item.path;
      if ((file === undefined) === (item.data === undefined)) throw new ConfigError(ik, 'needs exactly one of data or file');
      let value: Uint8Array;
      if (item.data !== undefined) {
        if (typeof item.data !== 'string') throw new ConfigError(`${ik}.data`, 'expected a string');
        value = new TextEncoder().encode(item.data);
      } else {
        value = reader.bytes(`${ik}.file`, file);
      }
      const entry: KvSeedEntry = { value };
      if (item.metadata !== undefined) {
        if (typeof item.metadata !== 'string') throw new ConfigError(`${ik}.metadata`, 'expected a string');
        entry.metadata = item.metadata;
      }
      store[item.key] = entry;
    });
    out[name] = store;
  }
  return out;
}

function geoData(key: string, value: unknown): Record<string, unknown> {
  if (!isTable(value)) throw new ConfigError(key, 'expected a table of geolocation fields');
  return value;
}

function readGeolocation(raw: unknown, reader: Reader): GeoConfig {
  const geo: GeoConfig = { useDefaultLoopback: true, addresses: {} };
  if (raw === undefined) return geo;
  const key = 'local_server.geolocation';
  if (!isTable(raw)) throw new ConfigError(key, 'expected a table');
  if (raw.use_default_loopback !== undefined) {
    if (typeof raw.use_default_loopback !== 'boolean') throw new ConfigError(`${key}.use_default_loopback`, 'expected a boolean');
    geo.useDefaultLoopback = raw.use_default_loopback;
  }
  let entries: Table | undefined;
  if (raw.format === 'inline-toml') {
    if (!isTable(raw.addresses)) throw new ConfigError(`${key}.addresses`, 'expected a table of addresses');
    entries = raw.addresses;
  } else if (raw.format === 'json') {
    const json = reader.json(`${key}.file`, raw.file);
    if (!isTable(json)) throw new ConfigError(`${key}.file`, 'JSON file must hold an object of addresses');
    entries = json;
  } else if (raw.format !== undefined) {
    throw new ConfigError(`${key}.format`, `expected "inline-toml" or "json", got ${JSON.stringify(raw.format)}`);
  }
  for (const [addr, data] of Object.entries(entries ?? {})) {
    if (isIP(addr) === 0) throw new ConfigError(`${key}.addresses.${addr}`, 'not an IP address');
    geo.addresses[normalizeIp(addr)] = geoData(`${key}.addresses.${addr}`, data);
  }
  return geo;
}

/** Canonical text of an address so lookups match however the address was written. */
export function normalizeIp(addr: string): string {
  const bytes = ipToBytes(addr);
  return bytes ? bytesToIp(bytes) : addr;
}

export function ipToBytes(addr: string): number[] | undefined {
  const kind = isIP(addr);
  if (kind === 4) return addr.split('.').map(Number);
  if (kind !== 6) return undefined;
  let text = addr;
  let tail: number[] = [];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4?.[1]) {
    tail = v4[1].split('.').map(Number);
    text = text.slice(0, -v4[1].length) + '0:0';
  }
  const [head = '', rest] = text.split('::');
  const parse = (s: string) => (s === '' ? [] : s.split(':').map((h) => parseInt(h, 16)));
  const hi = parse(head);
  const lo = rest === undefined ? [] : parse(rest);
  const words = [...hi, ...new Array(8 - hi.length - lo.length).fill(0), ...lo];
  const bytes = words.flatMap((w) => [(w >> 8) & 0xff, w & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

export function bytesToIp(bytes: ArrayLike<number>): string {
  if (bytes.length === 4) return Array.from(bytes).join('.');
  const words: string[] = [];
  for (let i = 0; i < 16; i += 2) words.push((((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0)).toString(16));
  // Compress the longest run of zero words, as RFC 5952 asks.
  let best = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (words[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === '0') j++;
    if (j - i > bestLen && j - i > 1) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  if (best < 0) return words.join(':');
  return `${words.slice(0, best).join(':')}::${words.slice(best + bestLen).join(':')}`;
}

function readAcls(raw: unknown, reader: Reader): Record<string, AclEntry[]> {
  const out: Record<string, AclEntry[]> = {};
  if (raw === undefined) return out;
  if (!isTable(raw)) throw new ConfigError('local_server.acls', 'expected a table');
  for (const [name, def] of Object.entries(raw)) {
    const key = `local_server.acls.${name}`;
    const file = typeof def === 'string' ? def : isTable(def) ? def.file : undefined;
    const fileKey = typeof def === 'string' ? key : `${key}.file`;
    if (file === undefined) throw new ConfigError(fileKey, 'expected a path to a JSON file');
    const json = reader.json(fileKey, file);
    if (!isTable(json) || !Array.isArray(json.entries)) throw new ConfigError(fileKey, 'JSON must be { "entries": [...] }');
    out[name] = json.entries.map((e: unknown, i: number): AclEntry => {
      const ek = `${fileKey}.entries[${i}]`;
      if (!isTable(e) || typeof e.prefix !== 'string' || typeof e.action !== 'string') {
        throw new ConfigError(ek, 'expected { "prefix": "ip/len", "action": "..." }');
      }
      const [ip = '', len] = e.prefix.split('/');
      const network = ipToBytes(ip);
      if (!network) throw new ConfigError(`${ek}.prefix`, `invalid address ${JSON.stringify(ip)}`);
      const bits = len === undefined ? network.length * 8 : Number(len);
      if (!Number.isInteger(bits) || bits < 0 || bits > network.length * 8) {
        throw new ConfigError(`${ek}.prefix`, `invalid mask ${JSON.stringify(len)}`);
      }
      const action = e.action.toUpperCase();
      return { network, bits, prefix: e.prefix, action };
    });
  }
  return out;
}

/** Parses the manifest; throws ConfigError (naming the key) on anything malformed. */
export function loadLocalServer(manifestPath: string): LocalServer {
  const manifest = resolve(manifestPath);
  const manifestVersion = currentVersion(manifest);
  let text: string;
  try {
    text = readFileSync(manifest, 'utf8');
  } catch (err) {
    throw new ConfigError('fastly.toml', `cannot read ${manifest}: ${(err as Error).message}`);
  }
  let doc: Table;
  try {
    doc = parseToml(text) as Table;
  } catch (err) {
    throw new ConfigError('fastly.toml', `not valid TOML: ${(err as Error).message}`);
  }
  const reader = new Reader(dirname(manifest));
  const ls = doc.local_server ?? {};
  if (!isTable(ls)) throw new ConfigError('local_server', 'expected a table');
  if (ls.dictionaries !== undefined && ls.config_stores !== undefined) {
    throw new ConfigError('local_server.config_stores', 'use either config_stores or dictionaries, not both');
  }
  const storesKey = ls.config_stores !== undefined ? 'local_server.config_stores' : 'local_server.dictionaries';
  const kvRaw = ls.kv_stores ?? ls.object_stores ?? ls.object_store;
  const snapshot: StoreSnapshot = {
    backends: readBackends(ls.backends, reader),
    configStores: readConfigStores(ls.config_stores ?? ls.dictionaries, storesKey, reader),
    secretStores: readSecretStores(ls.secret_stores, reader),
    geolocation: readGeolocation(ls.geolocation, reader),
    acls: readAcls(ls.acls, reader),
    deviceDetection: readDeviceDetection(ls.device_detection, reader),
  };
  const kvStores = readKvStores(kvRaw, reader);
  const versions = new Map([[manifest, manifestVersion], ...reader.versions]);
  return { snapshot, kvStores, files: [manifest, ...new Set(reader.files)], versions };
}
