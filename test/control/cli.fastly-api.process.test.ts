// `npm run control -- --source log-tail:SVC --service SVC` as a process, end to end against the local
// stand-in of Fastly's API (fastly-api/), with FASTLY_API_TOKEN: the store's id found through the REAL
// Fastly CLI's `service resource-link list`, the decision lines through the real `fastly log-tail`, reads and
// every room's writes over the API itself. A steady crowd above the target in two rooms; then the
// API's faults one after another: a 5xx on a write, the rate limit spent (429), JSON of the wrong
// shape on a read. What an operator would notice: what the store holds, the calls the API counted,
// the journal, the dashboard's API figures and what the controller says on stderr; and over the whole
// run, start and faults included, every call the API counted is one the controller counted.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedService, type SeededService } from '../../fastly-api/seed.js';
import { startFastlyApi, type ApiCall, type FastlyApi } from '../../fastly-api/server.js';
import { fastlyEnv, STANDIN_TOKEN } from '../../lib/fastly-env.js';
import { crowdSecond, TWO_ROOM_CROWD } from './crowd.js';
import { controlProcess, type ControlProcess, TWO_ROOMS } from './control-process.js';

/** The stand-in's rate-limit window, ms: short, so a 429's reset comes within the test. */
const WINDOW_MS = 5000;
/** Calls an hour for the controller: more than the default 300, so writes come seconds apart. */
const BUDGET = 900;
const ROOMS = TWO_ROOM_CROWD;

let api: FastlyApi;
let svc: SeededService;
let dir: string;
let control: ControlProcess;
let feed: ReturnType<typeof setInterval>;
const seq = { n: 0 };

/** The counted calls (not the log stream's polls, not the account endpoint), as `METHOD path status`. */
const apiCalls = (from = 0): string[] =>
  api.calls
    .slice(from)
    .filter((c) => c.limited || c.status === 429)
    .map((c) => `${c.method} ${c.path.replace(svc.configStoreId, 'ID')} ${c.status}`);
const patches = (): ApiCall[] => api.calls.filter((c) => c.method === 'PATCH');

beforeAll(async () => {
  api = await startFastlyApi({ rateLimitWindowMs: WINDOW_MS });
  svc = seedService(api, { config: TWO_ROOMS });
  dir = mkdtempSync(join(tmpdir(), 'wr-control-e2e-'));
  control = await controlProcess(
    ['--source', 'log-tail:SVC', '--service', 'SVC', '--api-budget', String(BUDGET)],
    fastlyEnv({ url: api.url, home: dir }),
    dir,
  );
  // A steady crowd, both rooms above their targets: lines the service's `fastly log-tail` prints.
  feed = setInterval(() => api.logs.push('SVC', crowdSecond(ROOMS, Date.now(), seq)), 1000);
});
afterAll(async () => {
  clearInterval(feed);
  await control?.stop();
  await api?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run control -- --service with FASTLY_API_TOKEN, against the API stand-in', () => {
  it("finds the store through the CLI, reads it once, and writes both rooms' live keys in one bulk PATCH, the heartbeat with them", async () => {
    // The store's calls, in order (the log-tail start is journalled when its first line comes, in between).
    const storeJournal = async () => (await control.journal()).filter((l) => l.kind !== 'log-tail');
    // The first call may be the heartbeat on its own (it claims the store at once, before any line came).
    const writeLine = async () => (await storeJournal()).findIndex((l) => l.kind === 'write');
    await expect.poll(writeLine, { timeout: 30_000, interval: 200 }).toBeGreaterThan(0);
    const store = api.store(svc.configStoreId);
    for (const room of ['shop', 'checkout'])
      expect(JSON.parse(store[`room.${room}.live`]!).allow_schedule).toMatch(/^\d+=\d/);
    expect(JSON.parse(store.controller!)).toMatchObject({ lease: 600 });
    // The resource links through the CLI (2 calls), one read, then bulk PATCHes: nothing else but
    // `fastly log-tail` turning the service's log stream on, a call the budget and the journal count too.
    expect(apiCalls().filter((c) => c.includes('/log_stream/'))).toEqual([
      'POST /service/SVC/log_stream/managed/instance_output 200',
    ]);
    expect((await control.journal()).filter((l) => l.kind === 'log-tail').map((l) => [l.ok, l.calls])).toEqual([
      [true, 1],
    ]);
    const journal = await storeJournal();
    const w = await writeLine();
    const calls = apiCalls()
      .filter((c) => !c.includes('/log_stream/'))
      .slice(0, w + 2);
    expect(calls.slice(0, 3)).toEqual([
      'GET /service/SVC/details 200',
      'GET /service/SVC/version/1/resource 200',
      'GET /resources/stores/config/ID/items 200',
    ]);
    expect(new Set(calls.slice(3))).toEqual(new Set(['PATCH /resources/stores/config/ID/items 200']));
    expect(journal.slice(0, w + 1).map((l) => [l.kind, l.ok, l.status, l.calls])).toEqual([
      ['read', true, null, 2],
      ['read', true, 200, 1],
      ...(w === 3 ? [['heartbeat', true, 200, 1]] : []),
      ['write', true, 200, 1],
    ]);
    expect(w).toBeLessThanOrEqual(3);
    expect(journal[w]!.keys.sort()).toEqual(['controller', 'room.checkout.live', 'room.shop.live']);
    expect(Object.keys(journal[w]!.rooms).sort()).toEqual(['checkout', 'shop']);
    // The token's calls left, as the API's headers said: the stand-in's own count at that call.
    const patch = patches()[w - 2]!;
    const inWindow = api.calls.filter(
      (c) => c.limited && Math.floor(c.at / WINDOW_MS) === Math.floor(patch.at / WINDOW_MS) && c.at <= patch.at,
    ).length;
    expect(journal[w]!.remaining).toBe(1000 - inWindow);
    const snap = await control.snapshot();
    expect(snap.api!.usedLastHour).toMatchObject({ reads: 3, heartbeats: w - 2, logTails: 1 });
    expect(snap.api!.usedLastHour.writes).toBeGreaterThanOrEqual(1);
    expect(snap.api!.perHour).toBe(BUDGET);
    expect(snap.holding).toBe(false);
  });

  it('a 5xx on a write: said once, the store keeps its values, the controller reads before it trusts its view, then writes again', async () => {
    const before = api.store(svc.configStoreId);
    const from = api.calls.length;
    api.faults.push({
      method: 'PATCH',
      path: `/resources/stores/config/${svc.configStoreId}/items`,
      status: 503,
      times: 1,
    });
    await expect.poll(() => control.err, { timeout: 30_000, interval: 200 }).toContain('answered 503 to PATCH');
    expect(control.err).toContain('a fault at Fastly, the change may or may not have been made');
    expect(api.store(svc.configStoreId)).toEqual(before);
    // The next call is a read (what did the 503 apply?), then the writes go on.
    await expect
      .poll(
        () =>
          apiCalls(from)
            .filter((c) => c.endsWith(' 200'))
            .slice(0, 2),
        { timeout: 30_000, interval: 200 },
      )
      .toEqual(['GET /resources/stores/config/ID/items 200', 'PATCH /resources/stores/config/ID/items 200']);
    expect(control.err.match(/answered 503/g)).toHaveLength(1);
  });

  it('a 429: backs off until the reset the API names, calls nothing meanwhile, holds, says so once, and resumes', async () => {
    // Spend the window early in it, so its reset comes seconds after the 429.
    await expect.poll(() => Date.now() % WINDOW_MS, { timeout: WINDOW_MS + 1000, interval: 50 }).toBeLessThan(1500);
    while (api.rateLimit.take(STANDIN_TOKEN, 'PUT', Date.now()).ok);
    const from = api.calls.length;
    control.hup(); // read now: the call that meets the 429
    await expect.poll(() => control.err, { timeout: 10_000, interval: 100 }).toContain('the Fastly API answered 429');
    const refused = api.calls.slice(from).find((c) => c.status === 429)!;
    const reset = (Math.floor(refused.at / WINDOW_MS) + 1) * WINDOW_MS;
    expect(control.err).toContain(`until ${new Date(reset).toISOString()} (its Fastly-RateLimit-Reset)`);
    await expect
      .poll(() => control.err, { timeout: 5000, interval: 100 })
      .toContain('holding, writing nothing: the Fastly API rate limit is spent (429)');
    expect((await control.snapshot()).api!.backoffUntilMs).toBe(reset);
    await expect
      .poll(() => control.err, { timeout: 30_000, interval: 200 })
      .toContain('the Fastly API rate limit has reset: calling it again');
    await expect
      .poll(() => control.err, { timeout: 30_000, interval: 200 })
      .toMatch(/429[\s\S]*the view is current again: controlling/);
    // Nothing was called between the 429 and the reset; the next call succeeded.
    const limitedCalls = () => api.calls.slice(from).filter((c) => c.limited || c.status === 429);
    await expect
      .poll(() => limitedCalls().filter((c) => c.at >= reset)[0]?.status, { timeout: 20_000, interval: 200 })
      .toBe(200);
    expect(limitedCalls().filter((c) => c.at > refused.at && c.at < reset)).toEqual([]);
    expect(control.err.match(/the Fastly API answered 429/g)).toHaveLength(1);
  });

  it('JSON of the wrong shape on a read: refused and journalled, the last values kept, nothing crashes', async () => {
    const lines = (await control.journal()).length;
    api.faults.push({
      method: 'GET',
      path: `/resources/stores/config/${svc.configStoreId}/items`,
      body: '{"items": 1}',
      times: 1,
    });
    control.hup();
    await expect
      .poll(async () => (await control.journal()).slice(lines).find((l) => l.kind === 'read' && !l.ok)?.error, {
        timeout: 10_000,
        interval: 200,
      })
      .toMatch(
        /^the Fastly API answered GET \/resources\/stores\/config\/SVC-config\/items\?limit=500 with 200, but .*items/,
      );
    const snap = await control.snapshot();
    expect(snap.holding).toBe(false);
    expect(Object.fromEntries(snap.rooms.map((r) => [r.id, r.model.targets.newUsersPerMinute]))).toEqual({
      shop: 60,
      checkout: 30,
    });
    expect(control.exitCode).toBeNull();
  });

  it('every call the API counted over the run, start and faults included, the budget and the journal counted too', async () => {
    const counted = () => api.calls.filter((c) => c.limited).length;
    const used = async () => Object.values((await control.snapshot()).api!.usedLastHour).reduce((a, b) => a + b, 0);
    // Between two calls (none under way), the dashboard's trailing hour is the stand-in's count.
    await expect.poll(async () => (await used()) - counted(), { timeout: 20_000, interval: 100 }).toBe(0);
    // Stopped (the journal closed, log-tail's start settled): the journal's calls are the stand-in's count.
    await control.stop();
    const journal = await control.journal();
    expect(journal.reduce((n, l) => n + l.calls, 0)).toBe(counted());
    expect(new Set(journal.map((l) => l.kind))).toEqual(new Set(['read', 'write', 'heartbeat', 'log-tail']));
  });
});
