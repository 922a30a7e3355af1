// The local store files: a store that cannot be used is refused with the file and the entry named, and
// a write replaces the whole file at once, so the running host never reads half a store.
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyWrites, readStore, readStoreIfExists, StoreFileError, writeStoreAtomic } from '../../lib/json-store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'wr-json-store-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readStore', () => {
  it('reads one object of string values', async () => {
    const file = path.join(dir, 'config.json');
    await writeFile(file, '{"allow_percentage": "20", "active_key": "k1"}');
    expect(await readStore(file)).toEqual({ allow_percentage: '20', active_key: 'k1' });
  });

  it.each([
    ['not JSON', '{"a": ', /is not valid JSON/],
    ['an array', '["a"]', /must hold one JSON object of string values/],
    [
      'a number where a string belongs',
      '{"allow_percentage": 20}',
      /entry "allow_percentage" must be a string, not 20/,
    ],
  ])('refuses %s, naming the file', async (_what, text, message) => {
    const file = path.join(dir, 'bad.json');
    await writeFile(file, text);
    const error = await readStore(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreFileError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain(file);
  });

  it('gives the way back to the demo settings when local/config.json is broken', async () => {
    await mkdir(path.join(dir, 'local'), { recursive: true });
    const file = path.join(dir, 'local', 'config.json');
    await writeFile(file, '{"settings": ');
    await expect(readStore(file)).rejects.toThrow(
      /is not valid JSON: .*; fix it, or go back to the demo settings: rm local\/config\.json && npm run tune/,
    );
  });

  it('says which file it cannot read', async () => {
    await expect(readStore(path.join(dir, 'missing.json'))).rejects.toThrow(/cannot read .*missing\.json/);
  });
});

describe('readStoreIfExists', () => {
  it('is null for a file that does not exist, and still refuses a broken one', async () => {
    expect(await readStoreIfExists(path.join(dir, 'missing.json'))).toBeNull();
    await writeFile(path.join(dir, 'broken.json'), 'nope');
    await expect(readStoreIfExists(path.join(dir, 'broken.json'))).rejects.toThrow(StoreFileError);
  });
});

describe('writeStoreAtomic', () => {
  it('replaces the file with the new store, with the mode asked for, and leaves no temporary file', async () => {
    const file = path.join(dir, 'keys.json');
    await writeFile(file, '{"old": "1"}');
    await writeStoreAtomic(file, { k1: 'c2VjcmV0' }, 0o600);
    expect(await readStore(file)).toEqual({ k1: 'c2VjcmV0' });
    expect((await readFile(file, 'utf8')).endsWith('\n')).toBe(true);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['keys.json']);
  });

  it('writes a new file, readable by everyone by default', async () => {
    const file = path.join(dir, 'config.json');
    await writeStoreAtomic(file, { a: 'b' });
    expect((await stat(file)).mode & 0o777).toBe(0o644);
  });

  it('leaves the old file and no temporary file when it cannot write', async () => {
    await expect(writeStoreAtomic(path.join(dir, 'no-such-dir', 'x.json'), { a: 'b' })).rejects.toThrow();
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('applyWrites', () => {
  it("sets each key, removes a key written '', and leaves the store it was given as it was", () => {
    const current = { a: '1', b: '2' };
    expect(applyWrites(current, { b: '', c: '3' })).toEqual({ a: '1', c: '3' });
    expect(current).toEqual({ a: '1', b: '2' });
  });
});
