// `[local_server.config_stores]` (or `dictionaries`): string maps, within Fastly's limits.
import { ConfigError, isTable, type Reader } from './reader.js';

export function stringMap(key: string, value: unknown): Record<string, string> {
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
      throw new ConfigError(
        `${key}.${k}`,
        `key is ${keyChars} characters; Fastly allows at most ${CONFIG_KEY_MAX_CHARS}`,
      );
    }
    if (valueChars > CONFIG_VALUE_MAX_CHARS) {
      throw new ConfigError(
        `${key}.${k}`,
        `value is ${valueChars} characters; Fastly allows at most ${CONFIG_VALUE_MAX_CHARS}`,
      );
    }
  }
  return store;
}

export function readConfigStores(
  raw: unknown,
  rootKey: string,
  reader: Reader,
): Record<string, Record<string, string>> {
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
