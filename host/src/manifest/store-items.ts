// The item lists secret and KV stores share: inline entries or a JSON file of them.
import { ConfigError, isTable, type Reader, type Table } from './reader.js';

export function storeItems(key: string, def: unknown, reader: Reader, fromJson: (json: Table) => Table[]): Table[] {
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
  if (def.format !== 'json')
    throw new ConfigError(`${key}.format`, `only "json" is supported, got ${JSON.stringify(def.format)}`);
  const json = reader.json(`${key}.file`, def.file);
  if (!isTable(json)) throw new ConfigError(`${key}.file`, 'JSON file must hold an object');
  return fromJson(json);
}
