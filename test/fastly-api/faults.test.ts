// The stand-in's faults: `--fault` text read into a fault (or refused, saying what is wrong), and what
// a faulted call answers over HTTP: Fastly's error body for its status, a 429 with the headers of a
// spent token, JSON of the wrong shape, text that is not JSON, for a number of calls or every one.
import { afterEach, describe, expect, it } from 'vitest';
import { NOT_JSON, parseFault, WRONG_JSON } from '../../fastly-api/faults.js';
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
const call = (path: string, method = 'GET') =>
  fetch(`${api!.url}${path}`, { method, headers: { 'Fastly-Key': 'tok' } });
const ITEMS = '/resources/stores/config/SVC-config/items';

describe('--fault text', () => {
  it('reads a method, a path pattern, an answer and a count', () => {
    expect(parseFault('PATCH /resources/stores/config/*/items 400 3')).toEqual({
      method: 'PATCH',
      path: /^\/resources\/stores\/config\/[^/]*\/items$/,
      status: 400,
      times: 3,
    });
    expect(parseFault('* /service/** 503 always')).toEqual({ path: /^\/service\/.*$/, status: 503 });
    expect(parseFault('get /resources/stores/config/SVC-config/items wrong-json')).toEqual({
      method: 'GET',
      path: ITEMS,
      body: WRONG_JSON,
    });
    expect(parseFault('GET /resources/stores/config not-json 1')).toEqual({
      method: 'GET',
      path: '/resources/stores/config',
      body: NOT_JSON,
      times: 1,
    });
    expect(parseFault('POST /x late:2.5')).toEqual({ method: 'POST', path: '/x', delayMs: 2500 });
    const glob = parseFault('* /resources/stores/config/*/item/* 404').path as RegExp;
    expect([
      glob.test('/resources/stores/config/S/item/room.shop.live'),
      glob.test('/resources/stores/config/S/items'),
    ]).toEqual([true, false]);
  });

  it('refuses what it cannot read, saying which part and what it must be', () => {
    expect(() => parseFault('PATCH 400')).toThrow(
      '"PATCH 400" must be METHOD PATH ANSWER [COUNT], e.g. "PATCH /resources/stores/config/*/items 400 3"',
    );
    expect(() => parseFault('FETCH /x 400')).toThrow(
      'the method must be GET, HEAD, POST, PUT, PATCH, DELETE or *, not "FETCH"',
    );
    expect(() => parseFault('GET x 400')).toThrow('its path must start with /, not "x"');
    expect(() => parseFault('GET /x 200')).toThrow(
      'the answer must be a status of 400 to 599, wrong-json, not-json or late:SECONDS, not "200"',
    );
    expect(() => parseFault('GET /x 400 0')).toThrow('the count must be a whole number above 0 or always, not "0"');
  });
});

describe('a faulted call', () => {
  it("answers 400 and 404 with Fastly's error body for the status, only as many times as asked, and changes nothing", async () => {
    await start({
      faults: [
        parseFault('PATCH /resources/stores/config/*/items 400 1'),
        parseFault('GET /resources/stores/config/*/item/* 404'),
      ],
    });
    const refused = await fetch(`${api!.url}${ITEMS}`, {
      method: 'PATCH',
      headers: { 'Fastly-Key': 'tok', 'Content-Type': 'application/json' },
      body: JSON.stringify({ items: [{ op: 'upsert', item_key: 'a', item_value: 'b' }] }),
    });
    expect([refused.status, await refused.json()]).toEqual([
      400,
      { msg: 'Bad request', detail: 'a fault asked of the stand-in' },
    ]);
    expect(api!.store('SVC-config')).toEqual({ settings: '{"enabled":"true"}' });
    const gone = await call('/resources/stores/config/SVC-config/item/settings');
    expect([gone.status, await gone.json()]).toEqual([
      404,
      { msg: 'Record not found', detail: 'a fault asked of the stand-in' },
    ]);
    expect((await call('/resources/stores/config/SVC-config/item/settings')).status).toBe(404); // always
    const second = await fetch(`${api!.url}${ITEMS}`, {
      method: 'PATCH',
      headers: { 'Fastly-Key': 'tok', 'Content-Type': 'application/json' },
      body: JSON.stringify({ items: [{ op: 'upsert', item_key: 'a', item_value: 'b' }] }),
    });
    expect(second.status).toBe(200); // the 400 was for one call
    expect(api!.calls.map((c) => c.status)).toEqual([400, 404, 404, 200]);
  });

  it('answers a 429 as a spent token gets it: no calls left, the reset and when to try again', async () => {
    const now = Date.UTC(2026, 11, 5, 10, 15);
    await start({ clock: () => now, faults: [parseFault('* /resources/** 429 always')] });
    const r = await call(ITEMS);
    const reset = String(Date.UTC(2026, 11, 5, 11) / 1000);
    expect(r.status).toBe(429);
    expect([
      r.headers.get('Fastly-RateLimit-Remaining'),
      r.headers.get('Fastly-RateLimit-Reset'),
      r.headers.get('Retry-After'),
    ]).toEqual(['0', reset, '2700']);
    expect(await r.json()).toEqual({
      msg: 'Too many requests',
      detail: `a fault asked of the stand-in: the limit resets in 2700 s (Fastly-RateLimit-Reset ${reset})`,
    });
  });

  it('answers JSON of the wrong shape, or text that is not JSON, with 200', async () => {
    await start({ faults: [parseFault(`GET ${ITEMS} wrong-json 1`), parseFault(`GET ${ITEMS} not-json 1`)] });
    const wrong = await call(ITEMS);
    expect([wrong.status, await wrong.json()]).toEqual([200, { fault: 'an answer of the wrong shape' }]);
    const html = await call(ITEMS);
    expect([html.status, html.headers.get('content-type'), await html.text()]).toEqual([200, 'text/html', NOT_JSON]);
    expect(await (await call(ITEMS)).json()).toEqual([expect.objectContaining({ item_key: 'settings' })]);
  });
});
