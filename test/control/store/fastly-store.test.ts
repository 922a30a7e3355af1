// The controller's Fastly store: reads over the API (a call a page), every room's keys in one bulk
// API call, against a local stand-in for api.fastly.com; without a token, the CLI as an async child
// process, key by key. Every call reported; 429, 5xx, a timeout and JSON of the wrong shape each
// refused with a message that says what happened.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiError, outcomeUnknown, type StoreCall } from '../../../control/store/api-budget.js';
import { fastlyStore } from '../../../control/store/fastly-store.js';
import type { AsyncFastlyRunner } from '../../../lib/fastly-cli.js';
import { seedService, type SeededService } from '../../../fastly-api/seed.js';
import { startFastlyApi, type FastlyApi } from '../../../fastly-api/server.js';

interface Seen {
  method: string;
  url: string;
  key: string | undefined;
  body: unknown;
}
const seen: Seen[] = [];
interface Answer {
  status: number;
  body: string;
  headers?: Record<string, string>;
  /** Never answer (a timeout). */
  hang?: boolean;
}
let answer: Answer = { status: 200, body: '{"status":"ok"}' };
/** Answers given in turn before `answer` (pages of a read). */
let queue: Answer[] = [];
const server = createServer((req: IncomingMessage, res) => {
  let text = '';
  req.on('data', (c: Buffer) => (text += c.toString()));
  req.on('end', () => {
    seen.push({
      method: req.method!,
      url: req.url!,
      key: req.headers['fastly-key'] as string | undefined,
      body: JSON.parse(text || 'null'),
    });
    const a = queue.shift() ?? answer;
    if (a.hang) return;
    res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers }).end(a.body);
  });
});
let endpoint = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

function fakeRunner(out = '[]'): AsyncFastlyRunner & { calls: string[][] } {
  const calls: string[][] = [];
  return { dryRun: false, calls, run: async (args: readonly string[]) => (calls.push([...args]), out) };
}

/** A store on the stand-in with its reports collected. */
function apiStore(o: { token?: string | null; runner?: AsyncFastlyRunner; timeoutMs?: number } = {}) {
  const calls: StoreCall[] = [];
  const store = fastlyStore({
    serviceId: 'SVC',
    storeId: 'STORE1',
    dryRun: false,
    token: o.token === undefined ? 'tok' : o.token,
    endpoint,
    runner: o.runner ?? fakeRunner(),
    timeoutMs: o.timeoutMs,
    report: (c) => calls.push(c),
    log: () => {},
  });
  return { store, calls };
}

const failure = (p: Promise<unknown>): Promise<ApiError> =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: ApiError) => e,
  );

const writes = {
  'room.shop.allow_percentage': '40',
  'room.checkout.live': '{"allow_schedule":"1800000000=12"}',
  'room.blog.live': '',
};

describe('the Fastly store', () => {
  it("writes every room's keys in one bulk call with the user's token", async () => {
    seen.length = 0;
    answer = { status: 200, body: '{"status":"ok"}' };
    const runner = fakeRunner();
    const store = fastlyStore({
      serviceId: 'SVC',
      storeId: 'STORE1',
      dryRun: false,
      token: 'tok',
      endpoint: `${endpoint}/`,
      runner,
      log: () => {},
    });
    await store.write(writes);
    expect(seen).toEqual([
      {
        method: 'PATCH',
        url: '/resources/stores/config/STORE1/items',
        key: 'tok',
        body: {
          items: [
            { op: 'upsert', item_key: 'room.shop.allow_percentage', item_value: '40' },
            { op: 'upsert', item_key: 'room.checkout.live', item_value: '{"allow_schedule":"1800000000=12"}' },
            { op: 'delete', item_key: 'room.blog.live' },
          ],
        },
      },
    ]);
    expect(store.callsFor!(writes)).toBe(1);
    expect(runner.calls).toEqual([]);
  });

  it('says what the API answered, and what to do about a refused token', async () => {
    answer = { status: 403, body: '{"msg":"Forbidden"}' };
    const store = fastlyStore({
      serviceId: 'SVC',
      storeId: 'STORE1',
      dryRun: false,
      token: 'bad',
      endpoint,
      runner: fakeRunner(),
      log: () => {},
    });
    await expect(store.write(writes)).rejects.toThrow(
      /answered 403 to PATCH \/resources\/stores\/config\/STORE1\/items \(\{"msg":"Forbidden"\}\): check FASTLY_API_TOKEN/,
    );
  });

  it('without a token, writes through the CLI one key a call, and counts each call', async () => {
    seen.length = 0;
    const runner = fakeRunner();
    const store = fastlyStore({
      serviceId: 'SVC',
      storeId: 'STORE1',
      dryRun: false,
      token: null,
      endpoint,
      runner,
      log: () => {},
    });
    await store.write(writes);
    expect(seen).toEqual([]);
    expect(runner.calls.map((c) => c.slice(0, 2).concat(c[c.indexOf('--key') + 1]!))).toEqual([
      ['config-store-entry', 'update', 'room.shop.allow_percentage'],
      ['config-store-entry', 'update', 'room.checkout.live'],
      ['config-store-entry', 'delete', 'room.blog.live'],
    ]);
    expect(store.callsFor!(writes)).toBe(3);
  });

  it('without a token, a 429 the CLI reports becomes the back-off, and the heartbeat key is counted as a heartbeat', async () => {
    const { store, calls } = apiStore({ token: null, runner: fakeRunner() });
    await store.write({ controller: '{"id":"ab"}', 'room.shop.live': '{}' });
    expect(calls.map((c) => [c.kind, c.keys.join()])).toEqual([
      ['heartbeat', 'controller'],
      ['write', 'room.shop.live'],
    ]);
    const limited: AsyncFastlyRunner = {
      dryRun: false,
      run: async () => {
        throw new Error('the Fastly CLI failed: Error: error during update: 429 - Too Many Requests');
      },
    };
    const spent = apiStore({ token: null, runner: limited });
    await expect(spent.store.write({ 'room.shop.live': '{}' })).rejects.toMatchObject({
      status: 429,
      outcomeUnknown: false,
    });
    await expect(spent.store.read()).rejects.toMatchObject({ status: 429 });
    expect(spent.calls.map((c) => [c.kind, c.ok, c.status])).toEqual([
      ['write', false, 429],
      ['read', false, 429],
    ]);
  });

  it('with --dry-run, prints the bulk call instead of making it (never the token)', async () => {
    seen.length = 0;
    const logs: string[] = [];
    const store = fastlyStore({
      serviceId: 'SVC',
      storeId: 'STORE1',
      dryRun: true,
      token: 'secret-token',
      endpoint,
      runner: fakeRunner(),
      log: (m) => logs.push(m),
    });
    await store.write({ 'room.shop.allow_percentage': '40' });
    expect(seen).toEqual([]);
    expect(logs.join('\n')).toMatch(
      /would PATCH .*\/resources\/stores\/config\/STORE1\/items .*room\.shop\.allow_percentage/,
    );
    expect(logs.join('\n')).not.toContain('secret-token');
  });

  it('reads over the API with the token, each page one call, and never runs the CLI', async () => {
    seen.length = 0;
    queue = [
      {
        status: 200,
        body: JSON.stringify({
          data: [{ item_key: 'settings', item_value: '{"new_users_per_minute":"600"}' }],
          meta: { next_cursor: 'c2', limit: 1 },
        }),
        headers: { 'fastly-ratelimit-remaining': '900', 'fastly-ratelimit-reset': '1800000000' },
      },
      {
        status: 200,
        body: JSON.stringify({
          data: [{ item_key: 'room.shop.allow_percentage', item_value: '40' }],
          meta: { next_cursor: null, limit: 1 },
        }),
        headers: { 'fastly-ratelimit-remaining': '899' },
      },
    ];
    const runner = fakeRunner();
    const { store, calls } = apiStore({ runner });
    expect(await store.read()).toEqual({
      settings: '{"new_users_per_minute":"600"}',
      'room.shop.allow_percentage': '40',
    });
    expect(seen.map((s) => `${s.method} ${s.url} ${s.key}`)).toEqual([
      'GET /resources/stores/config/STORE1/items?limit=500 tok',
      'GET /resources/stores/config/STORE1/items?limit=500&cursor=c2 tok',
    ]);
    expect(calls.map((c) => [c.kind, c.calls, c.ok, c.remaining])).toEqual([
      ['read', 1, true, 900],
      ['read', 1, true, 899],
    ]);
    expect(calls[0]!.resetMs).toBe(1_800_000_000_000);
    expect(runner.calls).toEqual([]);
    // The plain array the API has also answered with: one call.
    queue = [{ status: 200, body: JSON.stringify([{ item_key: 'settings', item_value: '{}' }]) }];
    expect(await store.read()).toEqual({ settings: '{}' });
  });

  it('a 429 on a read or a write: refused with the rate-limit figures reported for the back-off', async () => {
    const limited = {
      status: 429,
      body: '{"msg":"Rate limit exceeded"}',
      headers: { 'fastly-ratelimit-remaining': '0', 'fastly-ratelimit-reset': '1800000600', 'retry-after': '600' },
    };
    for (const op of ['read', 'write'] as const) {
      queue = [limited];
      const { store, calls } = apiStore();
      const error = await failure(op === 'read' ? store.read() : store.write(writes));
      expect(error.message).toMatch(
        /the Fastly API answered 429 to (GET|PATCH) \/resources\/stores\/config\/STORE1\/items.*: its rate limit is spent; the controller backs off until the reset and holds/,
      );
      expect(outcomeUnknown(error)).toBe(false);
      expect(calls).toEqual([
        expect.objectContaining({
          kind: op,
          ok: false,
          status: 429,
          remaining: 0,
          resetMs: 1_800_000_600_000,
          retryAfterMs: 600_000,
        }),
      ]);
    }
  });

  it('a 5xx: refused, and a write called of unknown outcome (the controller reads to find out)', async () => {
    for (const op of ['read', 'write'] as const) {
      queue = [{ status: 503, body: 'upstream unavailable' }];
      const { store, calls } = apiStore();
      const error = await failure(op === 'read' ? store.read() : store.write(writes));
      expect(error.message).toMatch(
        /answered 503 .*\(upstream unavailable\): a fault at Fastly, the change may or may not have been made/,
      );
      expect(outcomeUnknown(error)).toBe(true);
      expect(calls).toEqual([expect.objectContaining({ kind: op, ok: false, status: 503, calls: 1 })]);
    }
  });

  it('a call that never answers: stopped at the timeout, counted, and of unknown outcome', async () => {
    for (const op of ['read', 'write'] as const) {
      queue = [{ status: 200, body: '', hang: true }];
      const { store, calls } = apiStore({ timeoutMs: 200 });
      const error = await failure(op === 'read' ? store.read() : store.write(writes));
      expect(error.message).toMatch(/the Fastly API did not answer within 0.2 s \((GET|PATCH) \/resources/);
      expect(outcomeUnknown(error)).toBe(true);
      expect(calls).toEqual([expect.objectContaining({ kind: op, ok: false, status: null, calls: 1 })]);
    }
  });

  it('JSON of the wrong shape: refused, naming what was expected, never read as an empty store', async () => {
    queue = [{ status: 200, body: '{"items":[{"item_key":"settings","item_value":"{}"}]}' }];
    const read = apiStore();
    const error = await failure(read.store.read());
    expect(error.message).toMatch(
      /answered GET .* with 200, but expected an array of \{item_key, item_value\} \(or \{"data": \[\.\.\.\]\}\), got \{"items"/,
    );
    expect(read.calls).toEqual([expect.objectContaining({ kind: 'read', ok: false, status: 200 })]);
    queue = [{ status: 200, body: '[{"item_key":"settings"}]' }];
    expect((await failure(read.store.read())).message).toMatch(
      /expected each to have a string item_key and item_value, got \{"item_key":"settings"\}/,
    );
    queue = [{ status: 200, body: '<html>maintenance</html>' }];
    expect((await failure(read.store.read())).message).toMatch(/but not JSON: "<html>maintenance<\/html>"/);
    // A bulk update answered with something else than {"status":"ok"}: what it applied is unknown.
    queue = [{ status: 200, body: '{"status":"partial"}' }];
    const write = apiStore();
    const refused = await failure(write.store.write(writes));
    expect(refused.message).toMatch(
      /expected \{"status":"ok"\}, got \{"status":"partial"\}: what it applied is unknown/,
    );
    expect(outcomeUnknown(refused)).toBe(true);
  });

  it('without a token, reads through the CLI as a child process, one call, reported', async () => {
    const runner = fakeRunner(JSON.stringify([{ item_key: 'settings', item_value: '{}' }]));
    const { store, calls } = apiStore({ token: null, runner });
    expect(await store.read()).toEqual({ settings: '{}' });
    expect(runner.calls).toEqual([['config-store-entry', 'list', '--store-id', 'STORE1', '--json']]);
    expect(calls).toEqual([expect.objectContaining({ kind: 'read', calls: 1, ok: true })]);
    // The CLI printing something else than the items' array is refused as well.
    const odd = apiStore({ token: null, runner: fakeRunner('{"data":null}') });
    expect((await failure(odd.store.read())).message).toMatch(/expected an array of \{item_key, item_value\}/);
  });

  it("finds the store's id through the CLI's resource links once, without blocking", async () => {
    const runner = fakeRunner(JSON.stringify([{ name: 'waiting_room_config', resource_id: 'CFG9' }]));
    const calls: StoreCall[] = [];
    queue = [
      { status: 200, body: '[]' },
      { status: 200, body: '[]' },
    ];
    seen.length = 0;
    const store = fastlyStore({
      serviceId: 'SVC',
      dryRun: false,
      token: 'tok',
      endpoint,
      runner,
      report: (c) => calls.push(c),
      log: () => {},
    });
    await store.read();
    await store.read();
    expect(runner.calls).toEqual([
      ['service', 'resource-link', 'list', '--service-id', 'SVC', '--version', 'active', '--json'],
    ]);
    expect(seen.map((s) => s.url)).toEqual([
      '/resources/stores/config/CFG9/items?limit=500',
      '/resources/stores/config/CFG9/items?limit=500',
    ]);
    // The lookup is two API calls (the active version, its links), counted as a read before the store's own.
    expect(calls.map((c) => [c.kind, c.calls, c.ok])).toEqual([
      ['read', 2, true],
      ['read', 1, true],
      ['read', 1, true],
    ]);
  });

  it('reports a store id lookup the API refused with a 429 as one, so the budget backs off, and looks again at the next read', async () => {
    let refuse = true;
    const runner: AsyncFastlyRunner = {
      dryRun: false,
      run: async (args) => {
        if (args[1] !== 'resource-link') return '[]';
        if (refuse)
          throw new Error(
            'fastly service resource-link list failed (exit 1): ERROR: the Fastly API returned 429 Too Many Requests: Too many requests',
          );
        return JSON.stringify([{ name: 'waiting_room_config', resource_id: 'CFG9' }]);
      },
    };
    const calls: StoreCall[] = [];
    const store = fastlyStore({
      serviceId: 'SVC',
      dryRun: false,
      token: null,
      endpoint,
      runner,
      report: (c) => calls.push(c),
      log: () => {},
    });
    expect((await failure(store.read())).status).toBe(429);
    expect(calls).toEqual([
      expect.objectContaining({
        kind: 'read',
        calls: 2,
        ok: false,
        status: 429,
        error: expect.stringContaining('429 Too Many Requests'),
      }),
    ]);
    refuse = false;
    await store.read();
    expect(calls.slice(1).map((c) => [c.kind, c.calls, c.ok])).toEqual([
      ['read', 2, true],
      ['read', 1, true],
    ]);
  });
});

describe('deletes against the API stand-in, which refuses a delete of a key it does not have (404, the whole batch)', () => {
  // The model clears a setting with '' (draw-plan: a room that opens drops its allow_schedule); when
  // that empties room.ID.live, the key is removed. If the store has no such key (the operator deleted
  // it, or it was never written), a delete would fail the bulk call, and every room's write with it.
  let api: FastlyApi;
  let ids: SeededService;
  beforeAll(async () => {
    api = await startFastlyApi();
    ids = seedService(api, { config: { 'room.shop.live': '{"allow_schedule":"1=50"}' } });
  });
  afterAll(() => api.stop());

  it('sends only deletes of keys the store has, as last read, so the other writes go through', async () => {
    const calls: StoreCall[] = [];
    const store = fastlyStore({
      serviceId: 'SVC',
      storeId: ids.configStoreId,
      dryRun: false,
      token: 'tok',
      endpoint: api.url,
      report: (c) => calls.push(c),
      log: () => {},
    });
    await store.read();
    await store.write({
      'room.shop.allow_percentage': '100',
      'room.shop.live': '',
      'room.checkout.allow_percentage': '100',
      'room.checkout.live': '',
    });
    expect(api.store(ids.configStoreId)).toEqual({
      'room.shop.allow_percentage': '100',
      'room.checkout.allow_percentage': '100',
    });
    expect(calls.at(-1)).toMatchObject({
      kind: 'write',
      ok: true,
      keys: ['room.shop.allow_percentage', 'room.shop.live', 'room.checkout.allow_percentage'],
    });
    // What it wrote counts as held: a later delete of a key it made goes out, and one it removed does not.
    await store.write({ 'room.checkout.allow_percentage': '', 'room.shop.live': '' });
    expect(api.store(ids.configStoreId)).toEqual({ 'room.shop.allow_percentage': '100' });
    expect(api.calls.filter((c) => c.method === 'PATCH').map((c) => c.status)).toEqual([200, 200]);
  });

  it('without a token, runs no `config-store-entry delete` of a key the store lacks', async () => {
    const runner = fakeRunner(
      JSON.stringify([{ item_key: 'room.shop.live', item_value: '{"allow_schedule":"1=50"}' }]),
    );
    const { store } = apiStore({ token: null, runner });
    await store.read();
    await store.write({ 'room.shop.live': '', 'room.checkout.live': '' });
    expect(runner.calls.slice(1)).toEqual([
      ['config-store-entry', 'delete', '--store-id', 'STORE1', '--key', 'room.shop.live'],
    ]);
  });
});
