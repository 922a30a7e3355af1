// `[local_server.secret_stores]`: secrets inline, from files, or from the environment.
import { ConfigError, isTable, type Reader } from './reader.js';
import { storeItems } from './store-items.js';

/** Fastly's Secret Store holds at most 64 KiB a secret (its API refuses a larger one). */
export const MAX_SECRET_BYTES = 64 * 1024;

export function readSecretStores(raw: unknown, reader: Reader): Record<string, Record<string, string>> {
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
      const bytes = Buffer.byteLength(store[item.key]!);
      if (bytes > MAX_SECRET_BYTES) {
        const n = (x: number) => x.toLocaleString('en-US');
        throw new ConfigError(
          ik,
          `secret ${JSON.stringify(item.key)} of store ${JSON.stringify(name)} is ${n(bytes)} bytes; Fastly's Secret Store holds at most ${n(MAX_SECRET_BYTES)} bytes (64 KiB) a secret`,
        );
      }
    });
    out[name] = store;
  }
  return out;
}
