// Reads `[local_server]` from fastly.toml the way Viceroy does, into plain data that can be
// posted to worker threads: one module per section under manifest/, assembled here. Every error
// names the key it came from so a typo is found at once.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { readAcls, type AclEntry } from './manifest/acls.js';
import { readBackends, type BackendConfig } from './manifest/backends.js';
import { readConfigStores } from './manifest/config-stores.js';
import { readDeviceDetection } from './manifest/device-detection.js';
import { readGeolocation, type GeoConfig } from './manifest/geolocation.js';
import { readKvStores, type KvSeedEntry } from './manifest/kv-stores.js';
import { ConfigError, currentVersion, isTable, Reader, type Table } from './manifest/reader.js';
import { readSecretStores } from './manifest/secret-stores.js';

export { ConfigError, currentVersion } from './manifest/reader.js';

/**
 * The part of `[local_server]` every worker holds its own copy of, to answer backend, store, geo,
 * ACL and device lookups without a round trip to the main thread: all of it but the KV stores,
 * which requests write and so live on the main thread. Read-only; a reload replaces it whole.
 */
export interface WorkerManifest {
  backends: Record<string, BackendConfig>;
  configStores: Record<string, Record<string, string>>;
  secretStores: Record<string, Record<string, string>>;
  geolocation: GeoConfig;
  acls: Record<string, AclEntry[]>;
  /** `[local_server.device_detection]`: user agent -> the device data a lookup answers. */
  deviceDetection: Record<string, Record<string, unknown>>;
}

export interface LocalServer {
  workerManifest: WorkerManifest;
  kvStores: Record<string, Record<string, KvSeedEntry>>;
  /** Files whose change should trigger a reload (the manifest and every store file). */
  files: string[];
  /** Each file's version (see fileVersion) as it was just before it was read for this load. */
  versions: Map<string, string>;
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
  const workerManifest: WorkerManifest = {
    backends: readBackends(ls.backends, reader),
    configStores: readConfigStores(ls.config_stores ?? ls.dictionaries, storesKey, reader),
    secretStores: readSecretStores(ls.secret_stores, reader),
    geolocation: readGeolocation(ls.geolocation, reader),
    acls: readAcls(ls.acls, reader),
    deviceDetection: readDeviceDetection(ls.device_detection, reader),
  };
  const kvStores = readKvStores(kvRaw, reader);
  const versions = new Map([[manifest, manifestVersion], ...reader.versions]);
  return { workerManifest, kvStores, files: [manifest, ...new Set(reader.files)], versions };
}
