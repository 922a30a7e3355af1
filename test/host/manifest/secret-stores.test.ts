// [local_server.secret_stores]: secrets inline, from files or from the environment.
import { describe, expect, it } from 'vitest';
import { readSecretStores } from '../../../host/src/manifest/secret-stores.js';
import { readerWith, refusedKey } from './support.js';

describe('[local_server.secret_stores]', () => {
  it('reads data, a file and an environment variable', () => {
    process.env.WR_MANIFEST_TEST_SECRET = 'from env';
    const stores = readSecretStores(
      {
        keys: [
          { key: 'a', data: 'inline' },
          { key: 'b', file: 'b.txt' },
          { key: 'c', env: 'WR_MANIFEST_TEST_SECRET' },
        ],
      },
      readerWith({ 'b.txt': 'from file' }),
    );
    expect(stores).toEqual({ keys: { a: 'inline', b: 'from file', c: 'from env' } });
  });

  it.each([
    ['an item with no source', { keys: [{ key: 'a' }] }, 'local_server.secret_stores.keys[0]'],
    ['an item with two sources', { keys: [{ key: 'a', data: 'x', env: 'Y' }] }, 'local_server.secret_stores.keys[0]'],
    [
      'an unset environment variable',
      { keys: [{ key: 'a', env: 'WR_MANIFEST_TEST_UNSET' }] },
      'local_server.secret_stores.keys[0].env',
    ],
  ])('refuses %s, naming the key', (_what, raw, key) => {
    expect(refusedKey(() => readSecretStores(raw, readerWith()))).toBe(key);
  });

  // Fastly's Secret Store holds at most 64 KiB a secret: a larger one is refused at load, as the API refuses it.
  it('refuses a secret past 64 KiB, naming the store, the key, the size and the limit, and takes one at it', () => {
    const big = 'x'.repeat(1024 * 1024);
    let message = '';
    try {
      readSecretStores(
        {
          keys: [
            { key: 'a', data: 'ok' },
            { key: 'huge', file: 'huge.txt' },
          ],
        },
        readerWith({ 'huge.txt': big }),
      );
    } catch (error) {
      message = String(error);
    }
    expect(message).toContain('local_server.secret_stores.keys[1]');
    expect(message).toMatch(
      /secret "huge" of store "keys" is 1,048,576 bytes; Fastly's Secret Store holds at most 65,536 bytes \(64 KiB\) a secret/,
    );
    // Bytes, not characters: 32,769 two-byte characters are past it.
    expect(refusedKey(() => readSecretStores({ s: [{ key: 'k', data: 'é'.repeat(32_769) }] }, readerWith()))).toBe(
      'local_server.secret_stores.s[0]',
    );
    expect(readSecretStores({ s: [{ key: 'k', data: 'x'.repeat(65_536) }] }, readerWith()).s!.k).toHaveLength(65_536);
  });
});
