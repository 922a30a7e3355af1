// [local_server.kv_stores]: each KV store's seed entries.
import { describe, expect, it } from 'vitest';
import { readKvStores } from '../../../host/src/manifest/kv-stores.js';
import { readerWith, refusedKey } from './support.js';

describe('[local_server.kv_stores]', () => {
  it('seeds entries inline, from a file, and from a JSON file', () => {
    const stores = readKvStores(
      {
        kv: [
          { key: 'a', data: 'inline' },
          { key: 'b', file: 'b.txt' },
        ],
        kv_json: { file: 'kv.json', format: 'json' },
      },
      readerWith({ 'b.txt': 'from file', 'kv.json': '{"c":"json value"}' }),
    );
    expect(Object.keys(stores).sort()).toEqual(['kv', 'kv_json']);
    expect(Object.keys(stores.kv!).sort()).toEqual(['a', 'b']);
    expect(Object.keys(stores.kv_json!)).toEqual(['c']);
  });

  it('refuses a store that is neither a list nor a file, naming it', () => {
    expect(refusedKey(() => readKvStores({ kv: 'nope' }, readerWith()))).toMatch(/^local_server\.kv_stores\.kv/);
  });
});
