// tune --service and keys --fastly-service against a stand-in for the Fastly CLI that records its
// arguments and answers like the real one: what an operator's service would receive, offline.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { captured, readJson, scratch } from './helpers.js';

let dir: string;
let calls: string;
let items: string;
let main: { tune: (argv: string[]) => Promise<number>; keys: (argv: string[]) => Promise<number> };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wr-fake-fastly-'));
  calls = join(dir, 'calls.jsonl');
  items = join(dir, 'items.json');
  const fake = join(dir, 'fastly');
  // Records argv and stdin; answers service resource-link list and config-store-entry describe as JSON.
  writeFileSync(
    fake,
    `#!/usr/bin/env node
const fs = require('fs');
const args = process.argv.slice(2);
const stdin = args.includes('--stdin') ? fs.readFileSync(0, 'utf8') : null;
fs.appendFileSync(${JSON.stringify(calls)}, JSON.stringify({ args, stdin }) + '\\n');
if (args[0] === 'service' && args[1] === 'resource-link' && args[2] === 'list') {
  process.stdout.write(JSON.stringify([
    { id: 'l1', name: 'waiting_room_config', resource_id: 'CFG-ID', resource_type: 'config' },
    { id: 'l2', name: 'waiting_room_keys', resource_id: 'SEC-ID', resource_type: 'secret-store' },
  ]));
} else if (args[0] === 'config-store-entry' && args[1] === 'list') {
  process.stdout.write(fs.readFileSync(${JSON.stringify(items)}, 'utf8'));
} else if (args[0] === 'config-store-entry' && args[1] === 'describe') {
  process.stdout.write(JSON.stringify({ store_id: 'CFG-ID', item_key: 'active_key', item_value: 'key2' }));
} else if (args[0] === 'secret-store-entry' && args[1] === 'delete' && args.includes('missing')) {
  process.stderr.write('ERROR: not found'); process.exit(1);
}
`,
  );
  chmodSync(fake, 0o755);
  vi.stubEnv('WR_FASTLY_BIN', fake);
  vi.resetModules(); // lib/fastly-cli.ts reads WR_FASTLY_BIN when first imported
  main = {
    tune: (await import('../../scripts/tune.js')).main,
    keys: (await import('../../scripts/keys.js')).main,
  };
});
afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});
/** The service's Config Store, as the stand-in lists it. */
const store = (values: Record<string, string>) =>
  writeFileSync(
    items,
    JSON.stringify(
      Object.entries(values).map(([item_key, item_value]) => ({ store_id: 'CFG-ID', item_key, item_value })),
    ),
  );
const routing = JSON.stringify({
  rooms: [
    { id: 'shop', routes: ['/'] },
    { id: 'checkout', routes: ['/checkout'] },
  ],
  default_room: 'shop',
});
beforeEach(() => {
  writeFileSync(calls, '');
  store({ routing, settings: JSON.stringify({ enabled: 'true', allow_percentage: '100', active_key: 'key1' }) });
});

const recorded = () =>
  readFileSync(calls, 'utf8')
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { args: string[]; stdin: string | null });

describe('tune --service', () => {
  it("finds the Config Store through the service links, reads it, and writes the service-wide settings as one value, then each room's status basis", async () => {
    const r = await captured(() => main.tune(['--service', 'SVC', 'allow_percentage=30', 'wait_period_duration=20']));
    expect(r.result).toBe(0);
    const calls = recorded().map((c) => c.args);
    // The settings the rooms' status copies changed: each room's basis follows, a value each (docs/status.md).
    expect(calls.slice(3).map((a) => a[6])).toEqual(['room.shop.live', 'room.checkout.live']);
    expect(calls.slice(3).every((a) => a[8]!.includes('status_basis'))).toBe(true);
    expect(calls.slice(0, 3)).toEqual([
      ['service', 'resource-link', 'list', '--service-id', 'SVC', '--version', 'active', '--json'],
      ['config-store-entry', 'list', '--store-id', 'CFG-ID', '--json'],
      [
        'config-store-entry',
        'update',
        '--upsert',
        '--store-id',
        'CFG-ID',
        '--key',
        'settings',
        '--value',
        JSON.stringify({ enabled: 'true', allow_percentage: '30', active_key: 'key1', wait_period_duration: '20' }),
      ],
    ]);
  });

  it("writes a room's settings in as few calls as there are store values: its allow_percentage and its own", async () => {
    const r = await captured(() =>
      main.tune([
        '--service',
        'SVC',
        '--store-id',
        'CFG-ID',
        '--room',
        'checkout',
        'allow_percentage=30',
        'new_users_per_minute=40',
        'wait_period_duration=15',
      ]),
    );
    expect(r.result).toBe(0);
    const writes = recorded()
      .filter((c) => c.args[1] === 'update')
      .map((c) => c.args.slice(6));
    expect(writes).toEqual([
      ['room.checkout.allow_percentage', '--value', '30'],
      ['room.checkout', '--value', JSON.stringify({ new_users_per_minute: '40', wait_period_duration: '15' })],
      // Its status basis, which copies wait_period_duration and new_users_per_minute (docs/status.md).
      ['room.checkout.live', '--value', expect.stringContaining('status_basis')],
    ]);
  });

  it('deletes a value left empty', async () => {
    store({ routing, settings: '{"allow_percentage":"100"}', 'room.checkout.allow_percentage': '30' });
    const r = await captured(() =>
      main.tune(['--service', 'SVC', '--store-id', 'CFG-ID', '--room', 'checkout', 'allow_percentage=']),
    );
    expect(r.result).toBe(0);
    expect(recorded().at(-1)!.args).toEqual([
      'config-store-entry',
      'delete',
      '--store-id',
      'CFG-ID',
      '--key',
      'room.checkout.allow_percentage',
    ]);
  });

  it('on a dry run reads the store and prints the writes without making them', async () => {
    const r = await captured(() =>
      main.tune(['--service', 'SVC', '--store-id', 'CFG-ID', '--dry-run', '--room', 'checkout', 'allow_percentage=20']),
    );
    expect(r.result).toBe(0);
    expect(r.out).toBe(
      'fastly config-store-entry update --upsert --store-id CFG-ID --key room.checkout.allow_percentage --value 20',
    );
    expect(recorded().map((c) => c.args[1])).toEqual(['list']);
  });

  it('quotes values a shell would split when it prints them', async () => {
    const r = await captured(() =>
      main.tune(['--service', 'SVC', '--store-id', 'S', '--dry-run', 'message=Back at noon']),
    );
    expect(r.out).toContain(
      `--value '{"enabled":"true","allow_percentage":"100","active_key":"key1","message":"Back at noon"}'`,
    );
  });

  it.each([
    [['allow_percentage=-5'], '"allow_percentage"'],
    [['--room', 'basket', 'allow_percentage=5'], 'the routing names no such room; its rooms are shop, checkout'],
    [['--room', 'checkout', 'wait_period_duration=0'], '"wait_period_duration"'],
  ])('refuses %j before writing anything', async (args, said) => {
    const r = await captured(() => main.tune(['--service', 'SVC', '--store-id', 'CFG-ID', ...args]));
    expect(r.result).toBe(1);
    expect(r.err).toContain(said);
    expect(r.err).toContain('nothing was written to service SVC');
    expect(recorded().map((c) => c.args[1])).toEqual(['list']);
  });
});

describe('keys --fastly-service', () => {
  it('rotate reads the store, sends a fresh 64-byte key on stdin, never on the command line, then switches active_key in settings', async () => {
    const r = await captured(() => main.keys(['rotate', 'key3', '--fastly-service', 'SVC']));
    expect(r.result).toBe(0);
    const calls = recorded();
    const create = calls.find((c) => c.args[0] === 'secret-store-entry')!;
    expect(create.args).toEqual(['secret-store-entry', 'create', '--store-id', 'SEC-ID', '--name', 'key3', '--stdin']);
    expect(Buffer.from(create.stdin!, 'base64')).toHaveLength(64);
    expect(r.out).not.toContain(create.stdin!);
    const update = calls.at(-1)!;
    expect(update.args).toEqual([
      'config-store-entry',
      'update',
      '--upsert',
      '--store-id',
      'CFG-ID',
      '--key',
      'settings',
      '--value',
      JSON.stringify({ enabled: 'true', allow_percentage: '100', active_key: 'key3' }),
    ]);
    expect(calls.indexOf(create)).toBeLessThan(calls.indexOf(update));
  });

  it('rotate on a dry run prints the secret and the settings write, and makes neither', async () => {
    const r = await captured(() =>
      main.keys([
        'rotate',
        'key2',
        '--fastly-service',
        'SVC',
        '--secret-store-id',
        'SEC',
        '--config-store-id',
        'CFG-ID',
        '--dry-run',
      ]),
    );
    expect(r.result).toBe(0);
    const lines = r.out.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/\| fastly secret-store-entry create --store-id SEC --name key2 --stdin$/);
    expect(lines[1]).toMatch(
      /^fastly config-store-entry update --upsert --store-id CFG-ID --key settings --value '\{.*"active_key":"key2"\}'$/,
    );
    expect(recorded().map((c) => c.args[1])).toEqual(['list']);
  });

  it('remove refuses a key the service signs with, in any room', async () => {
    store({
      routing,
      settings: JSON.stringify({ active_key: 'key1' }),
      'room.checkout': JSON.stringify({ active_key: 'key2' }),
    });
    const r = await captured(() =>
      main.keys([
        'remove',
        'key2',
        '--fastly-service',
        'SVC',
        '--secret-store-id',
        'SEC-ID',
        '--config-store-id',
        'CFG-ID',
      ]),
    );
    expect(r.error?.message).toMatch(/"key2" is the service's active_key \(room checkout\)/);
    expect(recorded().some((c) => c.args[1] === 'delete')).toBe(false);
  });

  it('remove deletes another key, and reports the CLI error when it fails', async () => {
    store({ settings: JSON.stringify({ active_key: 'key2' }) });
    const ok = await captured(() =>
      main.keys([
        'remove',
        'key1',
        '--fastly-service',
        'SVC',
        '--secret-store-id',
        'SEC-ID',
        '--config-store-id',
        'CFG-ID',
      ]),
    );
    expect(ok.result).toBe(0);
    expect(recorded().at(-1)!.args).toEqual(['secret-store-entry', 'delete', '--store-id', 'SEC-ID', '--name', 'key1']);
    const bad = await captured(() =>
      main.keys([
        'remove',
        'missing',
        '--fastly-service',
        'SVC',
        '--secret-store-id',
        'SEC-ID',
        '--config-store-id',
        'CFG-ID',
      ]),
    );
    expect(bad.error?.message).toMatch(/secret-store-entry delete failed \(exit 1\): ERROR: not found/);
  });

  it('add-invite keeps the invite key in the local key file too, and sends that same key: a backend needs it to sign', async () => {
    const s = scratch({ active_key: 'key1' });
    try {
      const r = await captured(() =>
        main.keys(['add-invite', 'k2', '--fastly-service', 'SVC', '--secret-store-id', 'SEC-ID']),
      );
      expect(r.result).toBe(0);
      const [create] = recorded();
      expect(create!.args).toEqual([
        'secret-store-entry',
        'create',
        '--store-id',
        'SEC-ID',
        '--name',
        'invite.k2',
        '--stdin',
      ]);
      expect(readJson(s.keys)['invite.k2']).toBe(create!.stdin);
      expect(r.out).not.toContain(create!.stdin!);
      // Again: the local key goes up as it is (another service, or a retry), never a new one.
      await captured(() => main.keys(['add-invite', 'k2', '--fastly-service', 'SVC', '--secret-store-id', 'SEC-ID']));
      expect(recorded()[1]!.stdin).toBe(create!.stdin);
    } finally {
      s.cleanup();
    }
  });
});
