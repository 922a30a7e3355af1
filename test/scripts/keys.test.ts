import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main as keys } from '../../scripts/keys.js';
import { captured, readJson, scratch, type Scratch } from './helpers.js';

let s: Scratch;
beforeEach(() => {
  s = scratch({ settings: JSON.stringify({ allow_percentage: '50', active_key: 'key1', cookie_lifetime: '600' }) });
});
afterEach(() => s.cleanup());

const bytes = (b64: string) => Buffer.from(b64, 'base64').length;

describe('npm run keys -- generate', () => {
  it('creates the key the settings name, 64 random bytes, readable by its owner only', async () => {
    const r = await captured(() => keys(['generate']));
    expect(r.result).toBe(0);
    const file = readJson(s.keys);
    expect(Object.keys(file)).toEqual(['key1']);
    expect(bytes(file.key1!)).toBe(64);
    expect(statSync(s.keys).mode & 0o777).toBe(0o600);
  });

  it('never overwrites an existing file', async () => {
    await captured(() => keys(['generate']));
    const first = readFileSync(s.keys, 'utf8');
    const r = await captured(() => keys(['generate']));
    expect(r.result).toBe(0);
    expect(r.out).toMatch(/left as it is/);
    expect(readFileSync(s.keys, 'utf8')).toBe(first);
  });

  it('names the first key after active_key when the settings use another id', async () => {
    s.cleanup();
    s = scratch({ settings: JSON.stringify({ active_key: 'prod-2026' }) });
    await captured(() => keys(['generate']));
    expect(Object.keys(readJson(s.keys))).toEqual(['prod-2026']);
  });

  it('gives two clones different keys', async () => {
    await captured(() => keys(['generate']));
    const a = readJson(s.keys).key1;
    s.cleanup();
    s = scratch({ settings: JSON.stringify({ active_key: 'key1' }) });
    await captured(() => keys(['generate']));
    expect(readJson(s.keys).key1).not.toBe(a);
  });
});

describe('npm run keys -- add / rotate / remove', () => {
  beforeEach(async () => {
    await captured(() => keys(['generate']));
  });

  it('add: a new key that verifies but does not sign', async () => {
    const r = await captured(() => keys(['add', 'key2']));
    expect(r.result).toBe(0);
    const file = readJson(s.keys);
    expect(Object.keys(file)).toEqual(['key1', 'key2']);
    expect(bytes(file.key2!)).toBeGreaterThanOrEqual(32);
    expect(file.key2).not.toBe(file.key1);
    expect(JSON.parse(readJson(s.config).settings!).active_key).toBe('key1');
  });

  it('add: refuses an id that exists, leaving its key alone', async () => {
    const before = readJson(s.keys).key1;
    const r = await captured(() => keys(['add', 'key1']));
    expect(r.error?.message).toMatch(/"key1" already exists/);
    expect(readJson(s.keys).key1).toBe(before);
  });

  it('add: refuses an id the Secret Store would not accept', async () => {
    const r = await captured(() => keys(['add', 'my key']));
    expect(r.error?.message).toMatch(/"my key"/);
    expect(Object.keys(readJson(s.keys))).toEqual(['key1']);
  });

  it('rotate: adds the key, makes it active_key, keeps the old key and the other settings', async () => {
    const r = await captured(() => keys(['rotate', 'key2']));
    expect(r.result).toBe(0);
    expect(Object.keys(readJson(s.keys))).toEqual(['key1', 'key2']);
    expect(readJson(s.config)).toEqual({
      settings: JSON.stringify({ allow_percentage: '50', active_key: 'key2', cookie_lifetime: '600' }),
    });
    expect(r.out).toContain('npm run keys -- remove key1');
  });

  it('remove: refuses the active key', async () => {
    const r = await captured(() => keys(['remove', 'key1']));
    expect(r.error?.message).toMatch(/"key1" is the active_key/);
    expect(Object.keys(readJson(s.keys))).toEqual(['key1']);
  });

  it('remove: refuses a key that stopped signing less than cookie_lifetime ago, saying when it is safe; --force removes it', async () => {
    await captured(() => keys(['rotate', 'key2']));
    const r = await captured(() => keys(['remove', 'key1']));
    // The cookies key1 signed a moment ago live for cookie_lifetime (600 s) more.
    expect(r.error?.message).toMatch(
      /"key1" stopped signing at \d\d:\d\d:\d\d UTC, .*cookie_lifetime 600 s.* until \d\d:\d\d:\d\d UTC/,
    );
    expect(r.error?.message).toMatch(/--force/);
    expect(Object.keys(readJson(s.keys))).toEqual(['key1', 'key2']);
    const forced = await captured(() => keys(['remove', 'key1', '--force']));
    expect(forced.result).toBe(0);
    expect(Object.keys(readJson(s.keys))).toEqual(['key2']);
  });

  it('remove: drops an old key once cookie_lifetime has passed since the rotation', async () => {
    await captured(() => keys(['rotate', 'key2']));
    // The rotation, as recorded beside the key file, eleven minutes ago.
    const record = join(dirname(s.keys), 'keys.rotations.json');
    const rotations = JSON.parse(readFileSync(record, 'utf8')) as { retired: Record<string, string> };
    rotations.retired.key1 = new Date(Date.now() - 660_000).toISOString();
    writeFileSync(record, JSON.stringify(rotations));
    const r = await captured(() => keys(['remove', 'key1']));
    expect(r.result).toBe(0);
    expect(Object.keys(readJson(s.keys))).toEqual(['key2']);
  });

  it('remove: says so when the key is not there', async () => {
    const r = await captured(() => keys(['remove', 'key9']));
    expect(r.error?.message).toMatch(/no key "key9"/);
  });

  it('list: shows ids and the signing one, never a key', async () => {
    await captured(() => keys(['add', 'key2']));
    const r = await captured(() => keys(['list']));
    expect(r.out.split('\n')).toEqual(['* key1', '  key2']);
    expect(r.out).not.toContain(readJson(s.keys).key1!);
  });

  it('list: reports a key the room cannot decode, though Buffer would read 64 bytes from it', async () => {
    const good = readJson(s.keys).key1!;
    const junk = `${good.slice(0, 40)}*${good.slice(40)}`;
    expect(bytes(junk)).toBe(64); // Buffer skips the '*'; the room refuses the whole value
    writeFileSync(s.keys, JSON.stringify({ key1: good, key2: junk }));
    const r = await captured(() => keys(['list']));
    expect(r.out.split('\n')).toEqual(['* key1', '  key2  NOT BASE64 (the room ignores it)']);
  });

  it('list: reports a key too short to sign', async () => {
    writeFileSync(
      s.keys,
      JSON.stringify({ key1: readJson(s.keys).key1!, key2: Buffer.alloc(31, 7).toString('base64') }),
    );
    const r = await captured(() => keys(['list']));
    expect(r.out.split('\n')).toEqual(['* key1', '  key2  WEAK (31 bytes; the room ignores it)']);
  });
});

describe('npm run keys -- add-invite / remove-invite', () => {
  it('add-invite: adds invite.k1 (or invite.KID), which never signs or verifies room tokens', async () => {
    await captured(() => keys(['generate']));
    const r = await captured(() => keys(['add-invite']));
    expect(r.result).toBe(0);
    expect(r.out).toContain('npm run invite -- --room ROOM --sub IDENTITY');
    await captured(() => keys(['add-invite', 'partner']));
    const file = readJson(s.keys);
    expect(Object.keys(file)).toEqual(['key1', 'invite.k1', 'invite.partner']);
    expect(bytes(file['invite.k1']!)).toBe(64);
    expect(JSON.parse(readJson(s.config).settings!).active_key).toBe('key1');
    const list = await captured(() => keys(['list']));
    expect(list.out.split('\n')).toEqual([
      '* key1',
      '  invite.k1  (an invite key, not a signing key)',
      '  invite.partner  (an invite key, not a signing key)',
    ]);
  });

  it('add-invite: works before any signing key exists, and generate still makes the signing key after it', async () => {
    const r = await captured(() => keys(['add-invite', 'k1']));
    expect(r.result).toBe(0);
    expect(Object.keys(readJson(s.keys))).toEqual(['invite.k1']);
    await captured(() => keys(['generate']));
    expect(Object.keys(readJson(s.keys))).toEqual(['invite.k1', 'key1']);
  });

  it('add-invite: refuses an invite key that exists, leaving it alone', async () => {
    await captured(() => keys(['add-invite']));
    const before = readJson(s.keys)['invite.k1'];
    const r = await captured(() => keys(['add-invite', 'k1']));
    expect(r.error?.message).toMatch(/"invite.k1" already exists/);
    expect(readJson(s.keys)['invite.k1']).toBe(before);
  });

  it('remove-invite: drops the invite key; invites it signed stop working', async () => {
    await captured(() => keys(['generate']));
    await captured(() => keys(['add-invite', 'k1']));
    const r = await captured(() => keys(['remove-invite', 'k1']));
    expect(r.result).toBe(0);
    expect(Object.keys(readJson(s.keys))).toEqual(['key1']);
    expect((await captured(() => keys(['remove-invite', 'k1']))).error?.message).toMatch(/no invite key "invite.k1"/);
  });

  it('add, rotate and remove refuse an invite. id, and say which command handles invite keys', async () => {
    await captured(() => keys(['generate']));
    for (const verb of ['add', 'rotate', 'remove']) {
      const r = await captured(() => keys([verb, 'invite.k1']));
      expect(r.error?.message, verb).toMatch(/npm run keys -- (add|remove)-invite k1/);
    }
    expect(Object.keys(readJson(s.keys))).toEqual(['key1']);
    expect(JSON.parse(readJson(s.config).settings!).active_key).toBe('key1');
  });

  it('add-invite on a service: creates the secret invite.KID from stdin', async () => {
    const r = await captured(() =>
      keys(['add-invite', 'k2', '--fastly-service', 'SVC', '--secret-store-id', 'SEC', '--dry-run']),
    );
    expect(r.result).toBe(0);
    expect(r.out).toMatch(/\| fastly secret-store-entry create --store-id SEC --name invite.k2 --stdin$/);
    const gone = await captured(() =>
      keys(['remove-invite', 'k2', '--fastly-service', 'SVC', '--secret-store-id', 'SEC', '--dry-run']),
    );
    expect(gone.out).toBe('fastly secret-store-entry delete --store-id SEC --name invite.k2');
  });
});

describe('npm run keys without a key file', () => {
  it('add tells the operator to generate first and creates nothing', async () => {
    const r = await captured(() => keys(['add', 'key2']));
    expect(r.error?.message).toMatch(/npm run keys -- generate/);
    expect(existsSync(s.keys)).toBe(false);
  });
});
