// local/config.json is the operator's, made from the committed demo settings (local/config.example.json)
// by the first tool that needs it: on a fresh clone `npm run tune` and `npm run keys` work at once, and
// deleting the file goes back to the demo settings.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfigFile, ensureConfigFrom, exampleConfigFile } from '../../lib/local-store.js';
import { repoRoot } from '../../lib/paths.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wr-local-store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('ensureConfigFrom', () => {
  it('makes the store a copy of the example when it is missing', () => {
    const example = join(dir, 'config.example.json');
    writeFileSync(example, '{"allow_percentage": "50"}\n');
    expect(ensureConfigFrom(join(dir, 'config.json'), example)).toBe(true);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe('{"allow_percentage": "50"}\n');
  });

  it("makes a fresh store sign with the key the key file holds after a rotation, not the example's removed one", () => {
    const example = join(dir, 'config.example.json');
    writeFileSync(
      example,
      JSON.stringify({ settings: JSON.stringify({ allow_percentage: '50', active_key: 'key1' }) }),
    );
    const keys = join(dir, 'keys.json');
    writeFileSync(
      keys,
      JSON.stringify({
        key1: Buffer.alloc(64, 1).toString('base64'),
        key2: Buffer.alloc(64, 2).toString('base64'),
        key3: Buffer.alloc(64, 3).toString('base64'),
      }),
    );
    writeFileSync(
      join(dir, 'keys.rotations.json'),
      JSON.stringify({ active: 'key3', retired: { key2: '2026-12-05T09:00:00.000Z' } }),
    );
    const said: string[] = [];
    // key1 is still there, but key3 is the one the last rotation made active.
    expect(ensureConfigFrom(join(dir, 'config.json'), example, { keys, say: (l) => said.push(l) })).toBe(true);
    const settings = JSON.parse(
      (JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { settings: string }).settings,
    ) as Record<string, string>;
    expect(settings).toEqual({ allow_percentage: '50', active_key: 'key3' });
    expect(said.join('\n')).toMatch(/active_key "key1" -> "key3"/);
  });

  it("takes the key file's one signing key when the example names a key it lacks", () => {
    const example = join(dir, 'config.example.json');
    writeFileSync(example, JSON.stringify({ settings: JSON.stringify({ active_key: 'key1' }) }));
    const keys = join(dir, 'keys.json');
    writeFileSync(
      keys,
      JSON.stringify({
        key2: Buffer.alloc(64, 2).toString('base64'),
        'invite.k1': Buffer.alloc(64, 4).toString('base64'),
      }),
    );
    ensureConfigFrom(join(dir, 'config.json'), example, { keys, say: () => {} });
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toContain('\\"active_key\\":\\"key2\\"');
  });

  it('never replaces a store that exists', () => {
    const example = join(dir, 'config.example.json');
    writeFileSync(example, '{"allow_percentage": "50"}\n');
    writeFileSync(join(dir, 'config.json'), '{"allow_percentage": "7"}\n');
    expect(ensureConfigFrom(join(dir, 'config.json'), example)).toBe(false);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe('{"allow_percentage": "7"}\n');
  });

  it('names the missing example and the command that restores it', () => {
    expect(() => ensureConfigFrom(join(dir, 'config.json'), join(dir, 'config.example.json'))).toThrow(
      /git checkout -- .*config\.example\.json/,
    );
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('is pointed at local/ in the repository', () => {
    expect(exampleConfigFile).toBe(join(repoRoot, 'local', 'config.example.json'));
    expect(defaultConfigFile).toBe(join(repoRoot, 'local', 'config.json'));
  });
});

/** The repository as a fresh clone has it (tracked and new files, none ignored), node_modules linked. */
function freshCopy(): string {
  const root = join(dir, 'clone');
  const listed = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  expect(listed.status, listed.stderr).toBe(0);
  for (const file of listed.stdout.split('\0')) {
    if (file === '' || file === 'node_modules' || file.startsWith('node_modules/') || file === 'local/config.json')
      continue;
    if (!existsSync(join(repoRoot, file))) continue; // deleted in the work tree, not yet committed
    mkdirSync(dirname(join(root, file)), { recursive: true });
    cpSync(join(repoRoot, file), join(root, file));
  }
  symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'));
  return root;
}

describe('a fresh clone, without local/config.json', () => {
  it('gets the demo settings from the example on the first npm run tune, and keeps the changes after', () => {
    const root = freshCopy();
    const config = join(root, 'local', 'config.json');
    expect(existsSync(config)).toBe(false);
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => name !== 'WR_CONFIG_FILE' && name !== 'WR_KEYS_FILE'),
    );
    const tsx = join(repoRoot, 'node_modules', '.bin', 'tsx');

    const show = spawnSync(tsx, ['scripts/tune.ts'], { cwd: root, env, encoding: 'utf8' });
    expect(show.status, show.stderr).toBe(0);
    expect(show.stderr).toContain('made local/config.json from local/config.example.json');
    const example = readFileSync(join(root, 'local', 'config.example.json'), 'utf8');
    expect(readFileSync(config, 'utf8')).toBe(example);
    expect(show.stdout).toMatch(/allow_percentage\s.*50/);

    const change = spawnSync(tsx, ['scripts/tune.ts', 'allow_percentage=25'], { cwd: root, env, encoding: 'utf8' });
    expect(change.status, change.stderr).toBe(0);
    expect(change.stderr).not.toContain('made local/config.json');
    // The service-wide value changes, and nothing else does but each room's status basis, which copies it.
    const demo = JSON.parse(example) as Record<string, string>;
    const settings = { ...(JSON.parse(demo.settings!) as Record<string, string>), allow_percentage: '25' };
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({
      ...demo,
      settings: JSON.stringify(settings),
      'room.shop.live': expect.stringContaining('status_basis'),
      'room.checkout.live': expect.stringContaining('status_basis'),
    });
    expect(readFileSync(join(root, 'local', 'config.example.json'), 'utf8')).toBe(example);

    // Back to the demo settings: delete the store, and the next tool makes it again.
    rmSync(config);
    const keys = spawnSync(tsx, ['scripts/keys.ts', 'list'], { cwd: root, env, encoding: 'utf8' });
    expect(keys.stderr).toContain('made local/config.json from local/config.example.json');
    expect(readFileSync(config, 'utf8')).toBe(example);
  });
});
