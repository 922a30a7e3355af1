// [local_server.config_stores]: string maps inline or from JSON, within Fastly's 8,000 characters.
import { describe, expect, it } from 'vitest';
import { readConfigStores } from '../../../host/src/manifest/config-stores.js';
import { readerWith, refusedKey } from './support.js';

const KEY = 'local_server.config_stores';

describe('[local_server.config_stores]', () => {
  it('reads inline contents and a JSON file', () => {
    const stores = readConfigStores(
      { settings: { format: 'inline-toml', contents: { a: '1' } }, pages: { format: 'json', file: 'pages.json' } },
      KEY,
      readerWith({ 'pages.json': '{"deny":"PGh0bWw+"}' }),
    );
    expect(stores).toEqual({ settings: { a: '1' }, pages: { deny: 'PGh0bWw+' } });
  });

  it.each([
    ['an unknown format', { s: { format: 'yaml', contents: {} } }, `${KEY}.s.format`],
    ['inline-toml without contents', { s: { format: 'inline-toml' } }, `${KEY}.s.contents`],
    [
      'a value over 8,000 characters',
      { s: { format: 'inline-toml', contents: { big: 'x'.repeat(8001) } } },
      `${KEY}.s.contents.big`,
    ],
    ['a missing file', { s: { format: 'json', file: 'absent.json' } }, `${KEY}.s.file`],
  ])('refuses %s, naming the key', (_what, raw, key) => {
    expect(refusedKey(() => readConfigStores(raw, KEY, readerWith()))).toBe(key);
  });
});
