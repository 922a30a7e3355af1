// The stand-in over HTTP, as any client sees it: the rate limit and its headers, the routes'
// answers, the faults a bad-input test asks for, and the log stream.
import { Agent, get } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { seedService } from '../../fastly-api/seed.js';
import { startFastlyApi, type FastlyApi, type FastlyApiOptions } from '../../fastly-api/server.js';

let api: FastlyApi | null = null;
afterEach(async () => {
  await api?.stop();
  api = null;
});
async function start(options: FastlyApiOptions = {}): Promise<FastlyApi> {
  api = await startFastlyApi(options);
  seedService(api, { config: { settings: '{"enabled":"true"}' } });
  return api;
}
const call = (path: string, init: RequestInit = {}, key = 'tok') =>
  fetch(`${api!.url}${path}`, {
    ...init,
    headers: { 'Fastly-Key': key, ...(init.headers as Record<string, string> | undefined) },
  });

describe('the Fastly API stand-in', () => {
  it('answers the 1,001st call in an hour with a 429, with the rate-limit headers on every answer', async () => {
    let now = Date.UTC(2026, 10, 26, 10, 30);
    await start({ clock: () => now });
    const first = await call('/resources/stores/config/SVC-config/items');
    expect(first.status).toBe(200);
    expect(first.headers.get('Fastly-RateLimit-Remaining')).toBe('999');
    const reset = String(Date.UTC(2026, 10, 26, 11) / 1000);
    expect(first.headers.get('Fastly-RateLimit-Reset')).toBe(reset);
    // calls 2..1000 over one kept-alive connection (fetch takes twice as long a call)
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const statuses = new Set<number>();
    for (let i = 2; i <= 1000; i++) {
      await new Promise<void>((resolve) =>
        get(
          `${api!.url}/resources/stores/config/SVC-config/item/settings`,
          { agent, headers: { 'Fastly-Key': 'tok' } },
          (r) => {
            statuses.add(r.statusCode ?? 0);
            r.resume().on('end', resolve);
          },
        ),
      );
    }
    agent.destroy();
    expect([...statuses]).toEqual([200]);
    const over = await call('/resources/stores/config/SVC-config/item/settings', {
      method: 'PUT',
      body: new URLSearchParams({ item_value: 'x' }),
    });
    expect(over.status).toBe(429);
    expect(over.headers.get('Fastly-RateLimit-Remaining')).toBe('0');
    expect(over.headers.get('Fastly-RateLimit-Reset')).toBe(reset);
    expect(await over.json()).toEqual({
      msg: 'Too many requests',
      detail: `over 1000 calls an hour; the limit resets in 1800 s (Fastly-RateLimit-Reset ${reset})`,
    });
    expect(api!.store('SVC-config').settings).toBe('{"enabled":"true"}');
    expect(api!.calls).toHaveLength(1001);
    expect(api!.calls.at(-1)).toMatchObject({
      method: 'PUT',
      path: '/resources/stores/config/SVC-config/item/settings',
      status: 429,
    });
    expect((await call('/resources/stores/config/SVC-config/items', {}, 'another token')).status).toBe(200);
    now = Date.UTC(2026, 10, 26, 11, 0, 1);
    const next = await call('/resources/stores/config/SVC-config/items');
    expect([next.status, next.headers.get('Fastly-RateLimit-Remaining')]).toEqual([200, '999']);
  });

  it('takes a lower limit, and refuses a call without a token', async () => {
    await start({ callsPerHour: 2 });
    expect((await call('/resources/stores/config', {}, '')).status).toBe(401);
    expect((await call('/resources/stores/config')).status).toBe(200);
    expect((await call('/resources/stores/config')).status).toBe(200);
    expect((await call('/resources/stores/config')).status).toBe(429);
  });

  it('serves the bulk PATCH of Config Store items', async () => {
    await start();
    const body = JSON.stringify({
      items: [
        { op: 'upsert', item_key: 'room.shop.live', item_value: '{}' },
        { op: 'delete', item_key: 'settings' },
      ],
    });
    const r = await call('/resources/stores/config/SVC-config/items', {
      method: 'PATCH',
      body,
      headers: { 'Content-Type': 'application/json' },
    });
    expect([r.status, await r.json()]).toEqual([200, { status: 'ok' }]);
    expect(api!.store('SVC-config')).toEqual({ 'room.shop.live': '{}' });
  });

  it('answers a path it does not serve with 404 and says so', async () => {
    await start();
    const r = await call('/service/SVC/version/1/healthcheck');
    expect([r.status, await r.json()]).toEqual([
      404,
      { msg: 'Record not found', detail: 'the stand-in does not serve GET /service/SVC/version/1/healthcheck' },
    ]);
  });

  it('answers with a 5xx, JSON of the wrong shape or late, where a test asks it to', async () => {
    await start({ faults: [{ path: '/resources/stores/config/SVC-config/items', status: 503, times: 1 }] });
    expect((await call('/resources/stores/config/SVC-config/items')).status).toBe(503);
    expect((await call('/resources/stores/config/SVC-config/items')).status).toBe(200); // once only
    api!.faults.push({ method: 'GET', path: /\/items$/, body: '{"items": "not a list"}' });
    expect(await (await call('/resources/stores/config/SVC-config/items')).json()).toEqual({ items: 'not a list' });
    api!.faults.splice(0, api!.faults.length, { path: '/resources/stores/config', delayMs: 60_000 });
    const late = call('/resources/stores/config', { signal: AbortSignal.timeout(200) });
    await expect(late).rejects.toThrow(/abort|timeout/i);
  });

  it('streams the lines a test pushes to a log-tail poll, once managed logging is on', async () => {
    await start({ logHoldMs: 60_000 });
    expect((await call('/service/SVC/log_stream/managed/instance_output')).status).toBe(404);
    expect((await call('/service/SVC/log_stream/managed/instance_output', { method: 'POST' })).status).toBe(200);
    expect((await call('/service/SVC/log_stream/managed/instance_output', { method: 'POST' })).status).toBe(409);
    const poll = call('/service/SVC/log_stream/managed/instance_output');
    await new Promise((r) => setTimeout(r, 50)); // let the poll arrive; it is held until lines come
    api!.logs.push('SVC', ['{"wr":1}']);
    const r = await poll;
    expect(r.headers.get('Link')).toMatch(
      /^<http:\/\/127\.0\.0\.1:\d+\/service\/SVC\/log_stream\/managed\/instance_output\?from=\d+>; rel="next"$/,
    );
    const batch = JSON.parse((await r.text()).trim()) as {
      batch_id: string;
      logs: { message: string; stream: string }[];
    };
    expect(batch.logs.map((l) => [l.stream, l.message])).toEqual([['stdout', '{"wr":1}']]);
    expect(api!.calls.filter((c) => c.path.endsWith('instance_output')).map((c) => c.limited)).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });
});
