// [local_server.secret_stores]: secrets inline, from files or from the environment.
import { describe, expect, it } from 'vitest';
import { readSecretStores } from '../../../host/src/manifest/secret-stores.js';
import { readerWith, refusedKey } from './support.js';

describe('[local_server.secret_stores]', () => {
  it('reads data, a file and an environment variable', () => {
    process.env.WR_MANIFEST_TEST_SECRET = 'from env';
    const stores = readSecretStores(
      { keys: [{ key: 'a', data: 'inline' }, { key: 'b', file: 'b.txt' }, { key: 'c', env: 'WR_MANIFEST_TEST_SECRET' }] },
      readerWith({ 'b.txt': 'from file' }),
    );
    expect(stores).toEqual({ keys: { a: 'inline', b: 'from file', c: 'from env' } });
  });

  it.each([
    ['an item with no source', { keys: [{ key: 'a' }] }, 'local_server.secret_stores.keys[0]'],
    ['an item with two sources', { keys: [{ key: 'a', data: 'x', env: 'Y' }] }, 'local_server.secret_stores.keys[0]'],
    ['an unset environment variable', { keys: [{ key: 'a', env: 'WR_MANIFEST_TEST_UNSET' }] }, 'local_server.secret_stores.keys[0].env'],
  ])('refuses %s, naming the key', (_what, raw, key) => {
    expect(refusedKey(() => readSecretStores(raw, readerWith()))).toBe(key);
  });
});
