// fastly.toml and the committed local settings must agree with the code: the same store names in
// [local_server] and [setup], files in the format Viceroy reads, and demo settings the room accepts.
// The stores the tools write are the operator's and git does not track them; the demo settings are
// committed as local/config.example.json, from which the tools make local/config.json (lib/local-store.ts).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { parseConfig, settingsTable } from '../../src/core/config.js';
import { CONFIG_STORE, KEY_STORE, ORIGIN_BACKEND, PAGE_STORE } from '../../src/fastly/names.js';
import { DEMO_ORIGIN_PORT } from '../../scripts/demo-origin.js';
import { repoRoot } from '../../lib/paths.js';

type Table = Record<string, unknown>;
const manifest = parse(readFileSync(join(repoRoot, 'fastly.toml'), 'utf8')) as Table;
const local = manifest.local_server as Table;
const setup = manifest.setup as Table;
const section = (t: Table, name: string) => (t[name] ?? {}) as Record<string, Table>;

describe('fastly.toml', () => {
  it('builds a JavaScript package with npm run build', () => {
    expect(manifest.manifest_version).toBe(3);
    expect(manifest.language).toBe('javascript');
    expect((manifest.scripts as Table).build).toBe('npm run build');
  });

  it('points the origin backend at the demo shop', () => {
    expect(section(local, 'backends')[ORIGIN_BACKEND]?.url).toBe(`http://127.0.0.1:${DEMO_ORIGIN_PORT}`);
  });

  it('serves every store the code opens from a JSON file under local/', () => {
    const stores = { ...section(local, 'config_stores'), ...section(local, 'secret_stores') };
    expect(Object.keys(stores).sort()).toEqual([CONFIG_STORE, KEY_STORE, PAGE_STORE].sort());
    for (const store of Object.values(stores)) {
      // Viceroy needs both keys for a file-backed secret store, and "json" for a config store file.
      expect(store.format).toBe('json');
      expect(store.file).toMatch(/^local\/[a-z]+\.json$/);
    }
  });

  it('describes every store and the backend under [setup] so publish can create them', () => {
    const described = [
      ...Object.entries(section(setup, 'backends')),
      ...Object.entries(section(setup, 'config_stores')),
      ...Object.entries(section(setup, 'secret_stores')),
    ];
    expect(described.map(([name]) => name).sort()).toEqual([CONFIG_STORE, KEY_STORE, ORIGIN_BACKEND, PAGE_STORE].sort());
    for (const [, entry] of described) expect(String(entry.description ?? '')).not.toBe('');
  });

  it('seeds only settings the room knows, with values it accepts', () => {
    const items = (section(setup, 'config_stores')[CONFIG_STORE]?.items ?? {}) as Record<string, { value: string }>;
    const known = new Set(settingsTable.map((s) => s.key));
    for (const key of Object.keys(items)) expect(known, key).toContain(key);
    const { problems } = parseConfig((k) => items[k]?.value ?? null);
    expect(problems).toEqual([]);
  });
});

describe('local/: what git holds', () => {
  const git = (...args: string[]) => spawnSync('git', args, { cwd: repoRoot, encoding: 'utf8' });

  it('tracks the demo settings and none of the stores the tools write', () => {
    const tracked = git('ls-files', '--', 'local');
    expect(tracked.status, tracked.stderr).toBe(0);
    expect(tracked.stdout.split('\n').filter(Boolean)).toEqual(['local/config.example.json']);
  });

  it('ignores the stores, so a tuned setting or a key never shows as a change to commit', () => {
    const ignored = git('check-ignore', '--no-index', 'local/config.json', 'local/keys.json', 'local/pages.json');
    expect(ignored.stdout.split('\n').filter(Boolean)).toEqual(['local/config.json', 'local/keys.json', 'local/pages.json']);
  });
});

describe('local/config.example.json (the demo settings)', () => {
  const config = JSON.parse(readFileSync(join(repoRoot, 'local', 'config.example.json'), 'utf8')) as Record<string, unknown>;

  it('holds only known settings, all strings', () => {
    const known = new Set(settingsTable.map((s) => s.key));
    for (const [key, value] of Object.entries(config)) {
      expect(known, key).toContain(key);
      expect(typeof value, key).toBe('string');
    }
  });

  it('parses without a problem and makes a quick demo', () => {
    const { config: parsed, problems } = parseConfig((k) => (typeof config[k] === 'string' ? (config[k] as string) : null));
    expect(problems).toEqual([]);
    expect(parsed.allowPercentage).toBe(50);
    expect(parsed.waitPeriodSeconds).toBeLessThanOrEqual(10);
  });
});
