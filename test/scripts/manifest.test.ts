// fastly.toml and the committed local settings must agree with the code: the same store names in
// [local_server] and [setup], files in the format Viceroy reads, and demo settings the room accepts.
// The stores the tools write are the operator's and git does not track them; the demo settings are
// committed as local/config.example.json, from which the tools make local/config.json (lib/local-store.ts).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { routeRequest } from '../../src/core/routing/routing.js';
import { requestFacts, type RequestFacts } from '../../src/core/request/request-facts.js';
import { storeRooms, storeRouting, roomSettings } from '../../lib/room-store.js';
import { CONFIG_STORE, KEY_STORE, ORIGIN_BACKEND, PAGE_STORE } from '../../src/fastly/names.js';
import { DEMO_ORIGIN_PORT } from '../../scripts/demo-origin.js';
import { repoRoot } from '../../lib/paths.js';
import { basisSettings, statusBasisWrites, storedBasis } from '../../lib/status-basis.js';
import { setupItems } from '../support/setup-items.js';

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
    expect(described.map(([name]) => name).sort()).toEqual(
      [CONFIG_STORE, KEY_STORE, ORIGIN_BACKEND, PAGE_STORE].sort(),
    );
    for (const [, entry] of described) expect(String(entry.description ?? '')).not.toBe('');
  });

  it('seeds a routing and settings the edge reads without a problem, admitting everyone', () => {
    const items = (section(setup, 'config_stores')[CONFIG_STORE]?.items ?? {}) as Record<string, { value: string }>;
    const store = Object.fromEntries(Object.entries(items).map(([k, v]) => [k, v.value]));
    expect(storeRouting(store).problems).toEqual([]);
    for (const room of [null, ...storeRooms(store)]) {
      const { config, problems } = roomSettings(store, room);
      expect(problems, String(room)).toEqual([]);
      if (room !== null) expect(config.allowPercentage).toBe(100);
    }
  });

  // Without it a service set up by publish alone answers its status `unknown` until a tune or a controller writes.
  it("seeds room main's status basis exactly as tune writes it from the routing and settings seeded beside it, dated 0", () => {
    const { 'room.main.live': live, ...rest } = setupItems();
    const made = statusBasisWrites(rest, 0)['room.main.live'];
    expect(live, `fastly.toml's room.main.live must be '${made}'`).toBe(made);
    expect(storedBasis(setupItems(), 'main')).toEqual({ at: 0, settings: basisSettings(rest, 'main') });
    // Up to date: neither npm start's nor tune's sweep would rewrite it.
    expect(statusBasisWrites(setupItems(), 1_800_000_000)).toEqual({});
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
    expect(ignored.stdout.split('\n').filter(Boolean)).toEqual([
      'local/config.json',
      'local/keys.json',
      'local/pages.json',
    ]);
  });
});

describe('local/config.example.json (the demo settings)', () => {
  const config = JSON.parse(readFileSync(join(repoRoot, 'local', 'config.example.json'), 'utf8')) as Record<
    string,
    string
  >;
  const facts = (method: string, path: string, headers: Record<string, string> = {}): RequestFacts => {
    const url = new URL(`http://127.0.0.1:7676${path}`);
    return requestFacts(new Request(url, { method, headers }), url, null, '127.0.0.1', null, () => {});
  };

  it('holds the store layout, all strings', () => {
    for (const [key, value] of Object.entries(config)) {
      expect(key).toMatch(/^(routing|settings|room\.[a-z0-9_-]+(\.allow_percentage|\.live)?)$/);
      expect(typeof value, key).toBe('string');
    }
  });

  it('names two rooms and three rules, all read without a problem, and makes a quick demo', () => {
    const { routing, problems } = storeRouting(config);
    expect(problems).toEqual([]);
    expect(routing?.roomIds).toEqual(['shop', 'checkout']);
    expect(routing?.defaultRoom).toBe('shop');
    for (const room of [null, 'shop', 'checkout'])
      expect(roomSettings(config, room).problems, String(room)).toEqual([]);
    expect(roomSettings(config, 'shop').config.allowPercentage).toBe(50);
    expect(roomSettings(config, 'shop').config.waitPeriodSeconds).toBeLessThanOrEqual(10);
    const checkout = roomSettings(config, 'checkout').config;
    expect(checkout.control.newUsersPerMinute).toBe(30);
    expect(checkout.waitPeriodSeconds).toBeLessThan(roomSettings(config, 'shop').config.waitPeriodSeconds);
  });

  it('sends /checkout to the checkout room, a POST to /webhooks and /health past the rooms, the rest to the shop', async () => {
    const routing = storeRouting(config).routing!;
    expect(await routeRequest(routing, facts('GET', '/checkout'))).toMatchObject({ kind: 'room', room: 'checkout' });
    expect(await routeRequest(routing, facts('GET', '/checkout/pay'))).toMatchObject({
      kind: 'room',
      room: 'checkout',
    });
    expect(await routeRequest(routing, facts('POST', '/webhooks/payment'))).toEqual({
      kind: 'bypass',
      rule: 'webhooks',
    });
    expect(await routeRequest(routing, facts('GET', '/health'))).toEqual({ kind: 'bypass', rule: 'health' });
    expect(await routeRequest(routing, facts('GET', '/products'))).toMatchObject({ kind: 'room', room: 'shop' });
  });

  // Any client can send any header: a bypass on `x-staff: 1` let everyone past every room.
  it('bypasses the rooms for staff only on a long secret header value, never on a guessable one', async () => {
    const routing = storeRouting(config).routing!;
    for (const headers of [
      { 'x-staff': '1' },
      { 'x-staff-key': '1' },
      { 'x-staff-key': 'true' },
      { 'x-staff-key': '' },
    ] as Record<string, string>[]) {
      expect(await routeRequest(routing, facts('GET', '/checkout', headers)), JSON.stringify(headers)).toMatchObject({
        kind: 'room',
        room: 'checkout',
      });
    }
    const staff = JSON.parse(config.routing!).rules.find((r: { id: string }) => r.id === 'staff') as {
      if: { header: { name: string; equals: string } };
    };
    expect(staff.if.header.name).toBe('x-staff-key');
    expect(staff.if.header.equals.length).toBeGreaterThanOrEqual(32);
    expect(await routeRequest(routing, facts('GET', '/products', { 'x-staff-key': staff.if.header.equals }))).toEqual({
      kind: 'bypass',
      rule: 'staff',
    });
  });

  it("keeps the README's walkthrough working as written: its staff curl line bypasses, the others do not", async () => {
    const routing = storeRouting(config).routing!;
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const line = readme.split('\n').find((l) => /curl .*# the origin answers: rule staff/.test(l));
    expect(line, 'a walkthrough curl line for the staff rule').toBeDefined();
    const m = /-H '([^:]+): ([^']+)' http:\/\/127\.0\.0\.1:7676(\/\S*)/.exec(line!);
    expect(m, line).not.toBeNull();
    expect(await routeRequest(routing, facts('GET', m![3]!, { [m![1]!]: m![2]! }))).toEqual({
      kind: 'bypass',
      rule: 'staff',
    });
  });

  it('is the routing docs/configuration.md shows as the demo', () => {
    const doc = readFileSync(join(repoRoot, 'docs', 'configuration.md'), 'utf8');
    const block = /\*\*The routing\*\* \(the demo's[^\n]*\n\n```json\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(block).toBeDefined();
    expect(JSON.parse(block!)).toEqual(JSON.parse(config.routing!));
  });
});
