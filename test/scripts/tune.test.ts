import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main as tune } from '../../scripts/tune.js';
import { repoRoot } from '../../lib/paths.js';
import { captured, readJson, scratch, type Scratch } from './helpers.js';

const demo = { enabled: 'true', allow_percentage: '50', wait_period_duration: '10', active_key: 'key1', bypass_paths: '/health' };

let s: Scratch;
beforeEach(() => {
  s = scratch(demo);
});
afterEach(() => s.cleanup());

describe('npm run tune (local)', () => {
  it('changes the named settings, keeps the others, and prints old -> new', async () => {
    const r = await captured(() => tune(['allow_percentage=25', 'wait_period_duration=5']));
    expect(r.result).toBe(0);
    expect(readJson(s.config)).toEqual({ ...demo, allow_percentage: '25', wait_period_duration: '5' });
    expect(r.out).toContain('allow_percentage: "50" -> "25"');
    expect(r.out).toContain('wait_period_duration: "10" -> "5"');
  });

  it('adds a setting that was not there and removes one given an empty value', async () => {
    const r = await captured(() => tune(['waiting_status=503', 'bypass_paths=']));
    expect(r.result).toBe(0);
    const after = readJson(s.config);
    expect(after.waiting_status).toBe('503');
    expect(after).not.toHaveProperty('bypass_paths');
    expect(r.out).toContain('waiting_status: (unset) -> "503"');
  });

  it.each([
    ['allow_percentage=abc', 'allow_percentage'],
    ['allow_percentage=150', 'allow_percentage'],
    ['wait_period_duration=0', 'wait_period_duration'],
    ['cookie_lifetime=1.5', 'cookie_lifetime'],
    ['identity=cookie:x', 'identity'],
    ['waiting_status=404', 'waiting_status'],
    ['enabled=yes', 'enabled'],
  ])('refuses %s, names the key and writes nothing', async (arg, key) => {
    const before = readFileSync(s.config, 'utf8');
    const r = await captured(() => tune(['allow_percentage=30', arg]));
    expect(r.result).toBe(1);
    expect(r.err).toContain(`"${key}"`);
    expect(readFileSync(s.config, 'utf8')).toBe(before);
  });

  it('refuses an unknown setting by name', async () => {
    const before = readFileSync(s.config, 'utf8');
    const r = await captured(() => tune(['allow_percentag=30']));
    expect(r.error?.message).toMatch(/unknown setting "allow_percentag"/);
    expect(readFileSync(s.config, 'utf8')).toBe(before);
  });

  it('suggests the setting a typo was meant to be, instead of listing them all', async () => {
    for (const [typo, meant] of [
      ['allw_percentage', 'allow_percentage'],
      ['allow_percetnage', 'allow_percentage'],
      ['percentage', 'allow_percentage'],
      ['new_user_per_minute', 'new_users_per_minute'],
    ]) {
      const r = await captured(() => tune([`${typo}=5`]));
      expect(r.error?.message).toContain(`unknown setting "${typo}": did you mean ${meant}?`);
      expect(r.error?.message).not.toContain('jwt_jwks');
    }
  });

  it('lists every setting when nothing is close to the unknown one', async () => {
    const r = await captured(() => tune(['colour=blue']));
    expect(r.error?.message).toMatch(/unknown setting "colour"; the settings are: enabled, allow_percentage, /);
  });

  it('says a refused value was refused, that nothing was written and what the room accepts, without what the room would do with it', async () => {
    const r = await captured(() => tune(['allow_percentage=150']));
    expect(r.result).toBe(1);
    expect(r.err).toContain('refused: setting "allow_percentage" = "150": it must be between 0 and 100');
    expect(r.err).toContain(`nothing was written to ${s.config}; allow_percentage stays "50"`);
    expect(r.err).not.toMatch(/admitting everyone/);
  });

  it('tells an operator whose value was split at a space to quote it', async () => {
    const r = await captured(() => tune(['message=hello', 'world']));
    expect(r.error?.message).toBe('"world" is not key=value: a value with spaces must be quoted, as in message="hello world"');
    const two = await captured(() => tune(['message=sold', 'out', 'today', 'allow_percentage=5']));
    expect(two.error?.message).toContain('as in message="sold out today"');
  });

  it('replaces the file by rename, leaving no temporary file behind', async () => {
    const inodeBefore = statSync(s.config).ino;
    await captured(() => tune(['allow_percentage=10']));
    // A new inode: the host's reader sees the old file or the new one, never a truncated one.
    expect(statSync(s.config).ino).not.toBe(inodeBefore);
    expect(readdirSync(s.dir)).toEqual(['config.json']);
  });

  it('warns about a bad setting it was not asked to change, and still applies the change', async () => {
    s.cleanup();
    s = scratch({ ...demo, cookie_samesite: 'sometimes' });
    const r = await captured(() => tune(['allow_percentage=70']));
    expect(r.result).toBe(0);
    expect(r.err).toMatch(/warning: setting "cookie_samesite"/);
    expect(readJson(s.config).allow_percentage).toBe('70');
  });

  it('lists the settings and their defaults when given nothing to change', async () => {
    const r = await captured(() => tune([]));
    expect(r.out).toMatch(/allow_percentage = "50"/);
    expect(r.out).toMatch(/waiting_status = \(unset\)\s+\(default 200\)/);
  });

  it('exits non-zero from the command line, naming the key', () => {
    const run = spawnSync(join(repoRoot, 'node_modules', '.bin', 'tsx'), ['scripts/tune.ts', 'allow_percentage=x'], {
      cwd: repoRoot,
      env: { ...process.env, WR_CONFIG_FILE: s.config },
      encoding: 'utf8',
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('"allow_percentage"');
  });
});

describe('npm run tune -- --service (dry run)', () => {
  it('prints the Fastly CLI commands for each setting', async () => {
    const r = await captured(() => tune(['--service', 'SVC1', '--store-id', 'STORE1', '--dry-run', 'allow_percentage=20', 'bypass_paths=/static,/api/health']));
    expect(r.result).toBe(0);
    expect(r.out.split('\n')).toEqual([
      'fastly config-store-entry update --upsert --store-id STORE1 --key allow_percentage --value 20',
      'fastly config-store-entry update --upsert --store-id STORE1 --key bypass_paths --value /static,/api/health',
    ]);
  });

  it('finds the store through the service resource links when no store id is given', async () => {
    const r = await captured(() => tune(['--service', 'SVC1', '--dry-run', 'enabled=false']));
    expect(r.out).toContain('fastly resource-link list --service-id SVC1 --version active --json');
  });

  it('quotes values a shell would split', async () => {
    const r = await captured(() => tune(['--service', 'SVC1', '--store-id', 'S', '--dry-run', 'jwt_issuer=https://id.example/ my realm']));
    expect(r.out).toContain("--value 'https://id.example/ my realm'");
  });

  it('refuses a bad value before printing any command', async () => {
    const r = await captured(() => tune(['--service', 'SVC1', '--store-id', 'S', '--dry-run', 'allow_percentage=-5']));
    expect(r.result).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toContain('"allow_percentage"');
  });
});
