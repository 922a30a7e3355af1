// `[local_server.kv_stores]` (or `object_stores`): seed entries of each KV store.
import { ConfigError, isTable, type Reader } from './reader.js';
import { storeItems } from './store-items.js';

export interface KvSeedEntry {
  value: Uint8Array;
  metadata?: string;
}

export function readKvStores(raw: unknown, reader: Reader): Record<string, Record<string, KvSeedEntry>> {
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
      if ((file === undefined) === (item.data === undefined))
        throw new ConfigError(ik, 'needs exactly one of data or file');
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
