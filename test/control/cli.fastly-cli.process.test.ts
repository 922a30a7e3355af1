// `npm run control -- --service` without FASTLY_API_TOKEN, end to end against the local stand-in of
// Fastly's API: an operator whose Fastly CLI holds a stored token (`fastly auth add`, as after `fastly
// auth login`) and who exported none. Then the controller reads and writes through the REAL CLI as
// async child processes: a read is one `config-store-entry list`, a write one `config-store-entry
// update --upsert` (one API call) per key, and it says so when it starts.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedService, type SeededService } from '../../fastly-api/seed.js';
import { startFastlyApi, type FastlyApi } from '../../fastly-api/server.js';
import { fastlyBin } from '../../lib/fastly-cli.js';
import { fastlyEnv, STANDIN_TOKEN } from '../../lib/fastly-env.js';
import { controlProcess, type ControlProcess, TWO_ROOMS } from './control-process.js';
import { crowdSecond, TWO_ROOM_CROWD } from './crowd.js';

const ROOMS = TWO_ROOM_CROWD;

let api: FastlyApi;
let svc: SeededService;
let dir: string;
let control: ControlProcess;
let feed: ReturnType<typeof setInterval>;
const seq = { n: 0 };
/** When the controller was started: the calls before are the operator's `fastly auth add`. */
let started = 0;

/** Runs the real CLI to its end without blocking the stand-in's event loop. */
function fastly(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(fastlyBin, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

beforeAll(async () => {
  api = await startFastlyApi();
  svc = seedService(api, { config: TWO_ROOMS });
  dir = mkdtempSync(join(tmpdir(), 'wr-control-cli-e2e-'));
  const { FASTLY_API_TOKEN: _token, ...env } = fastlyEnv({ url: api.url, home: dir });
  // The CLI checks the token with the API (who it is) before storing it as the default.
  const added = await fastly(['auth', 'add', `--api-token=${STANDIN_TOKEN}`, 'operator'], env);
  expect(added.code, added.out).toBe(0);
  started = Date.now();
  control = await controlProcess(['--source', 'log-tail:SVC', '--service', 'SVC'], env, dir);
  feed = setInterval(() => api.logs.push('SVC', crowdSecond(ROOMS, Date.now(), seq)), 1000);
});
afterAll(async () => {
  clearInterval(feed);
  await control?.stop();
  await api?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run control -- --service without FASTLY_API_TOKEN, through the Fastly CLI', () => {
  it('says it writes a call per key, then reads with one CLI call and writes each room through one of its own, the heartbeat only on its own clock', async () => {
    expect(control.err).toContain(
      'FASTLY_API_TOKEN is not set: reading and writing through the Fastly CLI, one API call per key written',
    );
    const puts = () =>
      api.calls.filter((c) => c.method === 'PUT').map((c) => `${c.path.replace(svc.configStoreId, 'ID')} ${c.status}`);
    const roomPuts = () => puts().filter((p) => !p.includes('/item/controller '));
    await expect.poll(() => roomPuts().length, { timeout: 30_000, interval: 200 }).toBeGreaterThanOrEqual(2);
    expect(roomPuts().slice(0, 2).sort()).toEqual([
      '/resources/stores/config/ID/item/room.checkout.live 200',
      '/resources/stores/config/ID/item/room.shop.live 200',
    ]);
    // The heartbeat claims the store at once, then goes every lease/3 (200 s): never a call beside each write.
    expect(puts()[0]).toBe('/resources/stores/config/ID/item/controller 200');
    expect(puts().filter((p) => p.includes('/item/controller '))).toHaveLength(1);
    const store = api.store(svc.configStoreId);
    for (const room of ['shop', 'checkout'])
      expect(JSON.parse(store[`room.${room}.live`]!).allow_schedule).toMatch(/^\d+=\d/);
    // Nothing but the CLI's calls: the links (2), the list (1), a PUT a key; never the bulk PATCH.
    expect(api.calls.filter((c) => c.method === 'PATCH')).toEqual([]);
    // The store's calls, in order; the log-tail start (one call) is journalled when its first line comes.
    const storeJournal = async () => (await control.journal()).filter((l) => l.kind !== 'log-tail');
    await expect
      .poll(async () => (await storeJournal()).length, { timeout: 5000, interval: 100 })
      .toBeGreaterThanOrEqual(5);
    expect((await control.journal()).filter((l) => l.kind === 'log-tail').map((l) => [l.ok, l.calls])).toEqual([
      [true, 1],
    ]);
    const journal = await storeJournal();
    expect(journal.slice(0, 5).map((l) => [l.kind, l.ok, l.calls, l.keys.join()])).toEqual([
      ['read', true, 2, ''],
      ['read', true, 1, ''],
      ['heartbeat', true, 1, 'controller'],
      ['write', true, 1, journal[3]!.keys[0]],
      ['write', true, 1, journal[4]!.keys[0]],
    ]);
    expect([journal[3]!.keys[0], journal[4]!.keys[0]].sort()).toEqual(['room.checkout.live', 'room.shop.live']);
    const snap = await control.snapshot();
    expect(snap.api!.usedLastHour).toMatchObject({ reads: 3, heartbeats: 1, logTails: 1 });
    expect(snap.api!.usedLastHour.writes % 2).toBe(0);
    expect(snap.api!.usedLastHour.writes).toBeGreaterThanOrEqual(2);
    // Every call the API counted (the CLI's included, the token check of `auth add` aside), the journal counted too.
    const counted = () => api.calls.filter((c) => c.limited && c.at >= started).length;
    await control.stop();
    expect((await control.journal()).reduce((n, l) => n + l.calls, 0)).toBe(counted());
  });
});
