import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capacityOption, capacityText } from '../../scripts/demo-capacity.js';
import { startDemoOrigin } from '../../scripts/demo-origin.js';

let server: Server;
let base: string;
beforeAll(async () => {
  ({ server, url: base } = await startDemoOrigin({ port: 0 }));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the demo origin (the shop)', () => {
  it('welcomes the visitor and lists the cookies it received, escaped', async () => {
    const res = await fetch(`${base}/`, { headers: { cookie: 'shop_session=abc; theme=<b>dark</b>' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store, private');
    const html = await res.text();
    expect(html).toContain('You are in');
    expect(html).toContain('<code>theme</code>');
    expect(html).toContain('&lt;b&gt;dark&lt;/b&gt;');
    expect(html).not.toContain('<b>dark</b>');
    expect(html).toMatch(/id="room-cookie" class="ok"/);
    expect(html).toContain('href="/products"');
  });

  it('says so when the room cookie reached it', async () => {
    const html = await (
      await fetch(`${base}/products`, { headers: { cookie: 'waiting_room_default=eyJ.x.y' } })
    ).text();
    expect(html).toMatch(/id="room-cookie" class="bad"/);
    expect(html).toContain('eyJ.x.y');
  });

  it('sets its own session cookie once', async () => {
    const first = await fetch(`${base}/`);
    expect(first.headers.get('set-cookie')).toMatch(/^shop_session=[0-9a-f]+; Path=\/; HttpOnly/);
    const again = await fetch(`${base}/`, { headers: { cookie: 'shop_session=abc' } });
    expect(again.headers.get('set-cookie')).toBeNull();
  });

  it('/logout asks the room to revoke the session', async () => {
    const res = await fetch(`${base}/logout`);
    expect(res.status).toBe(200);
    expect(res.headers.get('waiting-room-command')).toBe('revoke');
  });

  it('/health answers ok', async () => {
    const res = await fetch(`${base}/health`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ok\n');
  });

  it('answers 404 for unknown paths and 405 for other methods', async () => {
    expect((await fetch(`${base}/nope`)).status).toBe(404);
    expect((await fetch(`${base}/`, { method: 'POST' })).status).toBe(405);
  });
});

describe('the demo origin: the routes of the demo routing', () => {
  it('has a checkout page that says the checkout room let the visitor through', async () => {
    const res = await fetch(`${base}/checkout`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/id="room">You came through the <strong>checkout<\/strong> room/);
    expect(html).toMatch(/id="room-cookie" class="ok"/);
  });

  it('says the shop room let the visitor through on its other pages, and links to the checkout', async () => {
    const html = await (await fetch(`${base}/products`)).text();
    expect(html).toMatch(/id="room">You came through the <strong>shop<\/strong> room/);
    expect(html).toContain('href="/checkout"');
  });

  it('answers a webhook POST with what it received, and only POST', async () => {
    const res = await fetch(`${base}/webhooks/payment`, {
      method: 'POST',
      body: '{"paid":true}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, path: '/webhooks/payment', bytes: 13 });
    const get = await fetch(`${base}/webhooks/payment`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });
});

describe("the demo origin under the operator's own routing", () => {
  let own: Server;
  let at: string;
  let routing: Record<string, string> = {};
  beforeAll(async () => {
    // The store's routing as npm start reads it at each page: here a path -> room table the test changes.
    ({ server: own, url: at } = await startDemoOrigin({
      port: 0,
      roomOf: async (url) => routing[url.pathname] ?? null,
    }));
  });
  afterAll(() => new Promise<void>((resolve) => own.close(() => resolve())));

  it("names the room the routing sends the path to, without the demo routing's words", async () => {
    routing = { '/': 'drops', '/checkout': 'drops', '/products': 'drops' };
    const html = await (await fetch(`${at}/products`)).text();
    expect(html).toMatch(
      /id="room">You came through the <strong>drops<\/strong> room: the routing sends <code>\/products<\/code> there/,
    );
    expect(html).not.toContain('demo routing');
    const checkout = await (await fetch(`${at}/checkout`)).text();
    expect(checkout).not.toContain('5-second wait window');
  });

  it('says when no room decided the path', async () => {
    routing = { '/': 'shop' };
    expect(await (await fetch(`${at}/checkout`)).text()).toMatch(/id="room">No room decided <code>\/checkout<\/code>/);
  });

  it("keeps the demo's words while the store routes as the demo does", async () => {
    routing = { '/': 'shop', '/checkout': 'checkout', '/products': 'shop' };
    expect(await (await fetch(`${at}/checkout`)).text()).toContain(
      'the demo routing sends <code>/checkout</code> there',
    );
  });
});

describe('the demo origin with a capacity', () => {
  let busyShop: Server;
  let at: string;
  let counts: () => { served: number; refused: number } = () => ({ served: 0, refused: 0 });
  beforeAll(async () => {
    // One request at a time, 400 ms each, 503 after 100 ms in line: timings a busy machine cannot blur.
    let capacity: { counts(): { served: number; refused: number } } | null;
    ({
      server: busyShop,
      url: at,
      capacity,
    } = await startDemoOrigin({
      port: 0,
      capacity: { workers: 1, serviceMs: 400, maxWaitMs: 100 },
    }));
    counts = () => capacity!.counts();
  });
  afterAll(() => new Promise<void>((resolve) => busyShop.close(() => resolve())));

  const get = async (path: string, started: number) => {
    const res = await fetch(`${at}${path}`);
    return {
      status: res.status,
      text: await res.text(),
      ms: Date.now() - started,
      retry: res.headers.get('retry-after'),
    };
  };

  it('serves a page in its time, and answers 503 at once to those that waited past the line it allows', async () => {
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 3 }, () => get('/products', started)));
    const ok = answers.filter((a) => a.status === 200);
    const busy = answers.filter((a) => a.status === 503);
    expect(ok).toHaveLength(1);
    expect(ok[0]!.ms).toBeGreaterThanOrEqual(390);
    expect(ok[0]!.text).toContain('<h1>Products</h1>');
    expect(busy).toHaveLength(2);
    for (const b of busy) {
      expect(b.retry).toBe('5');
      expect(b.text).toContain('The shop is busy');
      expect(b.ms).toBeLessThan(ok[0]!.ms);
    }
    expect(counts()).toMatchObject({ served: 1, refused: 2 });
  });

  it('answers /health outside the line, while a page is being served', async () => {
    const started = Date.now();
    const [page, health] = await Promise.all([get('/', started), get('/health', started)]);
    expect(health.status).toBe(200);
    expect(health.ms).toBeLessThan(page.ms);
  });
});

describe('the demo origin: --capacity on its command line', () => {
  it('reads the capacity and its two companions, and refuses them alone or malformed', () => {
    expect(capacityOption({})).toBeUndefined();
    expect(capacityOption({ capacity: '3' })).toEqual({ workers: 3, serviceMs: 125, maxWaitMs: 2_000 });
    expect(capacityOption({ capacity: '2', 'service-ms': '100', 'max-wait-ms': '500' })).toEqual({
      workers: 2,
      serviceMs: 100,
      maxWaitMs: 500,
    });
    expect(() => capacityOption({ capacity: '0' })).toThrow(/--capacity must be a whole number from 1/);
    expect(() => capacityOption({ capacity: '1.5' })).toThrow(/--capacity/);
    expect(() => capacityOption({ 'service-ms': '100' })).toThrow(/go with --capacity N/);
    expect(capacityText({ workers: 1, serviceMs: 40, maxWaitMs: 2_000 })).toBe(
      '1 request at once, 40 ms each (at most 25 a second), 503 after 2 s in line',
    );
  });
});
