// A room's public status on the built Wasm (docs/status.md): its answer at each state, its headers, and
// what it costs, read from the host's usage line: at most two Config Store lookups a request. The
// answers and the lookups are printed at the end, for the record.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../lib/host-process.js';
import { nowSeconds } from '../../lib/mint.js';
import {
  LOG_ENDPOINT,
  roomManifest,
  startRoom,
  storeFiles,
  TEST_KID,
  waitFor,
  type Room,
} from '../../lib/room-host.js';
import { ensureRoomWasm } from '../../lib/room-wasm.js';
import { statusBasisWrites } from '../../lib/status-basis.js';
import { storeFromSettings } from '../../src/core/settings/index.js';

let room: Room;
beforeAll(async () => {
  room = await startRoom({ settings: { allow_percentage: '100' }, hostArgs: ['-vv'] });
});
afterAll(async () => {
  await room?.stop();
});

const iso = (sec: number): string => new Date(sec * 1000).toISOString();
const ROUTING = JSON.stringify({
  rooms: [
    { id: 'shop', routes: ['/'] },
    { id: 'sale', routes: ['/sale'] },
  ],
  default_room: 'shop',
  // A rule that would send every request to the origin: the status is answered before any rule.
  rules: [{ id: 'everything', if: { path: { prefix: '/' } }, then: 'bypass' }],
});

/** The store with `settings` service-wide and `store`'s values, each room's status basis written as tune writes it. */
async function configure(
  settings: Record<string, string>,
  store: Record<string, string> = {},
): Promise<Record<string, string>> {
  const full = { ...storeFromSettings({ log_endpoint: LOG_ENDPOINT, active_key: TEST_KID, ...settings }), ...store };
  const written = { ...store, ...statusBasisWrites(full, nowSeconds()) };
  await room.setConfig(settings, written);
  return written;
}

interface Measured {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
  lookups: number;
  cpuMs: number;
}

const usageLines = () => room.logs().filter((line) => line.startsWith('usage: '));

/** One status request, with the host's count of its Config Store lookups and its CPU time. */
async function status(
  query: string,
  init: RequestInit = {},
  path = `/__waiting_room/status${query}`,
): Promise<Measured> {
  const before = usageLines().length;
  const res = await fetch(`${room.url}${path}`, init);
  const text = await res.text();
  const line = await waitFor(() => usageLines()[before]);
  const m = /config_lookups=(\d+) backend_requests=(\d+) cpu_ms=([\d.]+)/.exec(line)!;
  if (path.startsWith('/__waiting_room/')) expect(Number(m[2]), 'a status request reaches no backend').toBe(0);
  return {
    status: res.status,
    headers: res.headers,
    body:
      text === '' || !res.headers.get('content-type')?.includes('json')
        ? {}
        : (JSON.parse(text) as Record<string, unknown>),
    lookups: Number(m[1]),
    cpuMs: Number(m[3]),
  };
}

const record: Array<[string, Measured]> = [];
afterAll(() => {
  console.log(
    `the room status on the built Wasm (lookups: Config Store lookups the host counted; CPU: the host's figure):\n${record
      .map(
        ([what, m]) =>
          `  ${what}: HTTP ${m.status}, ${m.lookups} lookups, ${m.cpuMs} ms CPU\n    ${JSON.stringify(m.body)}`,
      )
      .join('\n')}`,
  );
});

async function measured(what: string, query: string): Promise<Measured> {
  const m = await status(query);
  record.push([what, m]);
  expect(m.lookups, what).toBeLessThanOrEqual(2);
  return m;
}

describe('the room status at each state, in at most two lookups', () => {
  it('open: nobody waits, the wait is 0', async () => {
    await configure({ allow_percentage: '100' }, { routing: ROUTING });
    const m = await measured('open', '?room=shop');
    expect(m.status).toBe(200);
    expect(m.body).toMatchObject({ room: 'shop', state: 'open', reason: 'allow_all', waitTime50PercentileSeconds: 0 });
    expect(Date.parse(String(m.body.updated))).toBeGreaterThan(Date.now() - 60_000);
    expect(m.lookups).toBe(2);
  });

  it('queueing: the wait a visitor arriving now is told, from the chance and the window', async () => {
    await configure({ allow_percentage: '20', wait_period_duration: '20' }, { routing: ROUTING });
    const m = await measured('queueing', '?room=shop');
    expect(m.body).toMatchObject({ state: 'queueing', reason: 'draw', chancePercentage: 20, waitTimePending: false });
    const p25 = m.body.waitTime25PercentileSeconds as number;
    const p50 = m.body.waitTime50PercentileSeconds as number;
    // At 20% a draw every 20 s: the median visitor wins within the first few draws.
    expect(p25).toBeGreaterThan(0);
    expect(p50).toBeGreaterThanOrEqual(p25);
    expect(m.body.waitTime75PercentileSeconds as number).toBeGreaterThanOrEqual(p50);
    expect(p50).toBeLessThan(300);
  });

  it("closed: the operator's allow_percentage 0, turned by hand, shows at once", async () => {
    const written = await configure({ allow_percentage: '20' }, { routing: ROUTING });
    // Written by hand after the basis: the status reads this value itself.
    await room.setConfig({ allow_percentage: '20' }, { ...written, 'room.shop.allow_percentage': '0' });
    const m = await measured('closed', '?room=shop');
    expect(m.body).toMatchObject({ state: 'closed', reason: 'deny_all', waitTime50PercentileSeconds: null });
  });

  it("countdown: a sale's pre-queue, with the event's times", async () => {
    const start = nowSeconds() + 3600;
    await configure(
      { allow_percentage: '100' },
      {
        routing: ROUTING,
        'room.sale': JSON.stringify({
          event_prequeue_start: iso(start - 7200),
          event_start: iso(start),
          event_end: iso(start + 3600),
        }),
      },
    );
    const m = await measured('countdown', '?room=sale');
    expect(m.body).toMatchObject({
      room: 'sale',
      state: 'countdown',
      reason: 'prequeue',
      eventStart: iso(start).replace('.000Z', 'Z'),
      eventEnd: iso(start + 3600).replace('.000Z', 'Z'),
    });
    expect(m.body.startsInSeconds as number).toBeGreaterThan(3590);
    // The other room is not in the sale.
    expect((await status('?room=shop')).body).toMatchObject({ state: 'open', eventStart: null });
  });

  it("costs less than a new visitor's waiting page in the same room, on the same host", async () => {
    await configure({ allow_percentage: '20', wait_period_duration: '20' });
    const m = await measured('queueing, one room (no routing)', '?room=default');
    expect(m.body).toMatchObject({ room: 'default', state: 'queueing' });
    const page = await status('', { headers: { accept: 'text/html' } }, '/');
    record.push(['for comparison: a new visitor in that room (the waiting page)', page]);
    expect(page.status).toBe(200);
    expect(page.lookups).toBeGreaterThan(m.lookups);
    // The CPU figures of one request are noisy on a shared machine: the median of 15 of each, printed.
    const median = async (path: string, init: RequestInit): Promise<number> => {
      const cpu: number[] = [];
      for (let i = 0; i < 15; i++) cpu.push((await status('', init, path)).cpuMs);
      return cpu.sort((a, b) => a - b)[7]!;
    };
    const statusCpu = await median('/__waiting_room/status?room=default', {});
    const pageCpu = await median('/', { headers: { accept: 'text/html' } });
    console.log(
      `median CPU of 15 requests each: the status ${statusCpu} ms, a new visitor's waiting page ${pageCpu} ms`,
    );
  });

  it('a room the routing does not name: 404, in two lookups', async () => {
    await configure({ allow_percentage: '100' }, { routing: ROUTING });
    const m = await measured('unknown room', '?room=nosuch');
    expect(m.status).toBe(404);
    expect(m.body).toMatchObject({ error: 'unknown_room' });
    expect(m.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('a room nobody has described yet (no controller, no tune since): unknown, not a guess', async () => {
    await room.setConfig({ allow_percentage: '20' }, { routing: ROUTING });
    const m = await measured('no status basis', '?room=shop');
    expect(m.status).toBe(200);
    expect(m.body).toMatchObject({ room: 'shop', state: 'unknown', reason: 'no_status_basis', updated: null });
  });

  it('a malformed query: 400, no lookup', async () => {
    for (const query of ['', '?room=Shop!', '?room=shop&room=sale', '?room=shop&t=1']) {
      const m = await measured(`malformed query "${query}"`, query);
      expect(m.status, query).toBe(400);
      expect(m.body.error).toBe('bad_request');
      expect(m.lookups).toBe(0);
    }
  });
});

describe('the status answer', () => {
  it('is kept a few seconds, fetched from any origin, sets no cookie, and never reaches the origin or the log', async () => {
    await configure({ allow_percentage: '20' }, { routing: ROUTING });
    const seen = room.origin.requests.length;
    const logged = room.decisions().length;
    const m = await status('?room=shop', {
      headers: { cookie: 'waiting_room_shop=junk', origin: 'https://status.example' },
    });
    expect(m.headers.get('cache-control')).toBe('public, max-age=5');
    expect(m.headers.get('access-control-allow-origin')).toBe('*');
    expect(m.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(m.headers.get('set-cookie')).toBeNull();
    const head = await fetch(`${room.url}/__waiting_room/status?room=shop`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const preflight = await fetch(`${room.url}/__waiting_room/status?room=shop`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('GET');
    const post = await fetch(`${room.url}/__waiting_room/status?room=shop`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(room.origin.requests.length).toBe(seen);
    expect(room.decisions().length).toBe(logged);
  });
});

describe('a service whose settings store cannot be opened', () => {
  let host: RunningHost | undefined;
  afterAll(async () => {
    await host?.stop();
  });

  it('answers 503 with the reason, and says it in the log', async () => {
    const manifest = roomManifest('http://127.0.0.1:9') as { local_server: { config_stores: Record<string, unknown> } };
    delete manifest.local_server.config_stores.waiting_room_config;
    const files = { [storeFiles.keys]: JSON.stringify({}), [storeFiles.pages]: JSON.stringify({}) };
    host = await startHost({ wasm: await ensureRoomWasm(), manifest, files });
    const res = await fetch(`${host.url}/__waiting_room/status?room=shop`);
    expect(res.status).toBe(503);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toMatchObject({ error: 'store_unavailable' });
    expect(
      await waitFor(() => host!.errors().find((l) => l.includes('status: store "waiting_room_config"'))),
    ).toBeDefined();
  });
});
