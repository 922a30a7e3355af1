// What the origin and the operator see of the room on the Wasm: cookies in and out, the revoke
// command, a dead origin, keys, bad settings, the decision log and live tuning, and the origin's time
// and status as the decision line measures them.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dueAt } from '../../src/core/decision/draw.js';
import { claimsOf, nowSeconds, tokenOf, windowBoundary } from '../../lib/mint.js';
import type { EchoedRequest } from '../../lib/echo-origin.js';
import { freePort } from '../../lib/host-process.js';
import { mintToken, startRoom, TEST_KID, waitFor, type Room } from '../../lib/room-host.js';
import { A, BASE_SETTINGS } from './base-settings.js';
import { expectEdgePage, visit, type Visited } from './visit.js';

let room: Room;
beforeAll(async () => {
  room = await startRoom({ settings: BASE_SETTINGS });
});
afterAll(async () => {
  await room?.stop();
});

const allowCookie = async (): Promise<string> =>
  `waiting_room_default=${await mintToken(room, { dec: 'allow', exp: windowBoundary(A, 2) })}`;

/** What the echo origin says it received. */
const echoed = (visited: Visited): EchoedRequest => (JSON.parse(visited.body) as { echo: EchoedRequest }).echo;

describe('the origin side', () => {
  it('strips the room cookie before the origin and keeps the others byte for byte', async () => {
    await room.setConfig(BASE_SETTINGS);
    const visited = await visit(room, {
      path: '/account?x=1',
      cookie: `session=abc; ${await allowCookie()}; theme="dark"`,
    });
    expect(visited.fromOrigin).toBe(true);
    const received = echoed(visited);
    expect(received.path).toBe('/account?x=1');
    expect(received.headers.cookie).toBe('session=abc; theme="dark"');
  });

  it('drops the Cookie header when the room cookie was the only one', async () => {
    await room.setConfig(BASE_SETTINGS);
    const visited = await visit(room, { cookie: await allowCookie() });
    expect(echoed(visited).headers.cookie).toBeUndefined();
  });

  it('strips the room cookie even when the room is disabled', async () => {
    await room.setConfig({ ...BASE_SETTINGS, enabled: 'false' });
    const visited = await visit(room, { cookie: 'a=1; waiting_room_default=whatever; b=2' });
    expect(echoed(visited).headers.cookie).toBe('a=1; b=2');
  });

  it('forwards method, body and headers of an admitted request', async () => {
    await room.setConfig(BASE_SETTINGS);
    const visited = await visit(room, {
      path: '/api/cart',
      method: 'POST',
      body: '{"item":42}',
      cookie: await allowCookie(),
      headers: { 'content-type': 'application/json', 'x-custom': 'kept' },
    });
    const received = echoed(visited);
    expect(received.method).toBe('POST');
    expect(received.body).toBe('{"item":42}');
    expect(received.headers['x-custom']).toBe('kept');
  });

  it('appends its Set-Cookie to the origin own', async () => {
    await room.setConfig({ ...BASE_SETTINGS, allow_percentage: '100' });
    const visited = await visit(room, { headers: { 'x-echo-set-cookie': 'session=xyz; Path=/; HttpOnly' } });
    expect(visited.fromOrigin).toBe(true);
    const cookies = visited.response.headers.getSetCookie();
    expect(cookies).toContain('session=xyz; Path=/; HttpOnly');
    expect(visited.roomCookies).toHaveLength(1);
    expect(claimsOf(tokenOf(visited.roomCookies[0]!)).dec).toBe('allow');
    expect(visited.response.headers.get('cache-control')).toBe('no-store, private');
  });

  it('leaves the origin answer alone when it sets no room cookie', async () => {
    await room.setConfig(BASE_SETTINGS);
    const visited = await visit(room, { cookie: await allowCookie(), headers: { 'x-echo-set-cookie': 'session=1' } });
    expect(visited.response.headers.getSetCookie()).toEqual(['session=1']);
  });

  it('revoke: removes the command header and clears the cookie', async () => {
    await room.setConfig(BASE_SETTINGS);
    const visited = await visit(room, {
      cookie: await allowCookie(),
      headers: { 'x-echo-command': 'revoke', 'x-echo-set-cookie': 'session=gone; Max-Age=0' },
    });
    expect(visited.fromOrigin).toBe(true);
    expect(visited.response.headers.get('waiting-room-command')).toBeNull();
    expect(visited.roomCookies).toHaveLength(1);
    expect(tokenOf(visited.roomCookies[0]!)).toBe('');
    expect(visited.roomCookies[0]).toMatch(/Max-Age=0/i);
    expect(visited.response.headers.getSetCookie()).toContain('session=gone; Max-Age=0');
    expect(visited.log.reason).toBe('revoked');
  });

  it('revoke wins over a token the room was about to issue', async () => {
    await room.setConfig({ ...BASE_SETTINGS, allow_percentage: '100' });
    const visited = await visit(room, { headers: { 'x-echo-command': 'revoke' } });
    expect(visited.roomCookies).toHaveLength(1);
    expect(tokenOf(visited.roomCookies[0]!)).toBe('');
  });

  it('a dead origin gets a 502 page, and the host keeps serving', async () => {
    await room.setConfig(BASE_SETTINGS);
    const visited = await visit(room, { cookie: await allowCookie(), headers: { 'x-echo-die': '1' } });
    expect(visited.response.status).toBe(502);
    expect(visited.response.headers.get('content-type')).toMatch(/text\/html/);
    expect(visited.response.headers.get('cache-control')).toMatch(/no-store/);
    expect(visited.log.originError).toBe(true);
    // The connection closed with no answer: neither refused nor slow.
    expect(visited.log.originStatus).toBe('failed');
    const after = await visit(room, { cookie: await allowCookie() });
    expect(after.fromOrigin).toBe(true);
  });
});

describe("the origin's time and status in the decision line", () => {
  // Beside the room above: one whose origin is a closed port, one whose origin backend waits 300 ms for headers.
  let dead: Room;
  let impatient: Room;
  beforeAll(async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    [dead, impatient] = await Promise.all([
      startRoom({ settings: BASE_SETTINGS, origin: { url: closed, requests: [], close: async () => {} } }),
      startRoom({ settings: BASE_SETTINGS, backend: { first_byte_timeout_ms: 300 } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([dead?.stop(), impatient?.stop()]);
  });

  it("an admitted request's line carries the origin's time to headers and its status", async () => {
    await room.setConfig(BASE_SETTINGS);
    const visited = await visit(room, { cookie: await allowCookie(), headers: { 'x-echo-delay-ms': '150' } });
    expect(visited.fromOrigin).toBe(true);
    expect(visited.log).toMatchObject({ outcome: 'origin', status: 200, originStatus: 200 });
    expect(visited.log.originMs).toBeGreaterThanOrEqual(150);
    expect(visited.log.originMs).toBeLessThan(5_000);
  });

  it('a closed port: refused, and the 502', async () => {
    const cookie = `waiting_room_default=${await mintToken(dead, { dec: 'allow', exp: windowBoundary(A, 2) })}`;
    const visited = await visit(dead, { cookie });
    expect(visited.response.status).toBe(502);
    expect(visited.log).toMatchObject({ status: 502, originError: true, originStatus: 'refused' });
    expect(visited.log.originMs).toBeGreaterThanOrEqual(0);
  });

  it("an origin slower than the backend's first_byte_timeout_ms: timeout, after about that long", async () => {
    const cookie = `waiting_room_default=${await mintToken(impatient, { dec: 'allow', exp: windowBoundary(A, 2) })}`;
    const visited = await visit(impatient, { cookie, headers: { 'x-echo-delay-ms': '3000' } });
    expect(visited.response.status).toBe(502);
    expect(visited.log).toMatchObject({ status: 502, originError: true, originStatus: 'timeout' });
    expect(visited.log.originMs).toBeGreaterThanOrEqual(300);
    expect(visited.log.originMs).toBeLessThan(3_000);
  });
});

/** A request written by hand, for what fetch() would tidy up (repeated header lines, a method in lower case). */
function rawRequest(port: number, lines: string[], body = ''): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const split = data.indexOf('\r\n\r\n');
      const head = data.slice(0, split);
      resolve({ status: Number(head.split(' ')[1]), head, body: data.slice(split + 4) });
    });
    socket.write([...lines, `Host: 127.0.0.1:${port}`, 'Connection: close', '', body].join('\r\n'));
  });
}

describe('requests as they come', () => {
  it('finds and strips the room cookie when the browser sends two Cookie lines', async () => {
    await room.setConfig(BASE_SETTINGS);
    const port = Number(new URL(room.url).port);
    const seen = room.origin.requests.length;
    const answer = await rawRequest(port, [
      'GET /two-lines HTTP/1.1',
      'Cookie: session=abc',
      `Cookie: ${await allowCookie()}`,
      'Cookie: theme=dark',
    ]);
    expect(answer.status).toBe(200);
    expect(answer.head).toMatch(/^x-echo: 1$/im);
    const received = room.origin.requests.slice(seen).find((r) => r.path === '/two-lines');
    const cookie = String(received?.headers.cookie);
    expect(cookie).not.toContain('waiting_room');
    expect(cookie).toContain('session=abc');
    expect(cookie).toContain('theme=dark');
  });

  // js-compute reads the six fetch-spec methods in any case as upper case, as Fastly hands them over.
  it.each([
    ['get', '', 'GET'],
    ['post', 'item=42', 'POST'],
  ])('forwards an admitted %s as js-compute reads it, body and all', async (method, body, received) => {
    await room.setConfig(BASE_SETTINGS);
    const port = Number(new URL(room.url).port);
    const seen = room.origin.requests.length;
    const answer = await rawRequest(
      port,
      [`${method} /lower-case HTTP/1.1`, `Cookie: ${await allowCookie()}`, `Content-Length: ${body.length}`],
      body,
    );
    expect(answer.status).toBe(200);
    expect(answer.head).toMatch(/^x-echo: 1$/im);
    expect(room.origin.requests.slice(seen).map((r) => [r.method, r.path, r.body])).toEqual([
      [received, '/lower-case', body],
    ]);
  });

  it('forwards a chunked upload of an admitted visitor whole', async () => {
    await room.setConfig(BASE_SETTINGS);
    const parts = Array.from({ length: 50 }, (_, i) => `part-${i};`.repeat(200));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
        controller.close();
      },
    });
    const seen = room.origin.requests.length;
    const res = await fetch(`${room.url}/upload`, {
      method: 'POST',
      body,
      headers: { cookie: await allowCookie() },
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const received = room.origin.requests.slice(seen).find((r) => r.path === '/upload');
    expect(received?.body).toBe(parts.join(''));
  });

  it('passes a large origin page through intact', async () => {
    await room.setConfig(BASE_SETTINGS);
    const size = 3 * 1024 * 1024 + 7;
    const res = await fetch(`${room.url}/big`, {
      headers: { cookie: await allowCookie(), 'x-echo-bytes': String(size) },
    });
    const body = Buffer.from(await res.arrayBuffer());
    expect(res.status).toBe(200);
    expect(body.length).toBe(size);
    expect(body.every((b) => b === 0x78)).toBe(true);
  });

  it('holds a POST from a visitor without a token at the edge: the origin never sees it', async () => {
    await room.setConfig(BASE_SETTINGS);
    const seen = room.origin.requests.length;
    const visited = await visit(room, { path: '/checkout', method: 'POST', body: 'card=4111' });
    expect(visited.log.outcome).toBe('startwaiting');
    expectEdgePage(visited);
    expect(room.origin.requests.slice(seen).filter((r) => r.path === '/checkout')).toEqual([]);
  });

  it('answers HEAD on the waiting page with headers and no body', async () => {
    await room.setConfig(BASE_SETTINGS);
    const visited = await visit(room, { method: 'HEAD' });
    expect(visited.log.outcome).toBe('startwaiting');
    expectEdgePage(visited);
    expect(visited.roomCookies).toHaveLength(1);
    expect(visited.body).toBe('');
  });

  it('a bypass rule keeps the query string and queues paths outside its prefix', async () => {
    const routing = {
      rooms: [{ id: 'default', routes: ['/'] }],
      rules: [{ id: 'health', if: { path: { prefix: '/api/health' } }, then: 'bypass' }],
    };
    await room.setConfig(BASE_SETTINGS, { routing: JSON.stringify(routing) });
    const bypassed = await visit(room, { path: '/api/health?probe=1' });
    expect(bypassed.fromOrigin).toBe(true);
    expect(echoed(bypassed).path).toBe('/api/health?probe=1');
    const queued = await visit(room, { path: '/api/cart' });
    expect(queued.fromOrigin).toBe(false);
  });
});

describe('keys', () => {
  afterAll(async () => {
    await room.setKeys({ [TEST_KID]: room.key.base64 });
  });

  it('a missing active key: new visitors wait with a 503 and no cookie; tokens of the old key still work', async () => {
    await room.setConfig({ ...BASE_SETTINGS, active_key: 'nokey' });
    const visited = await visit(room);
    expect(visited.log.reason).toBe('no_signing_key');
    expect(visited.response.status).toBe(503);
    expectEdgePage(visited);
    expect(visited.roomCookies).toEqual([]);
    expect(room.errors().join('\n')).toMatch(/nokey/);
    const admitted = await visit(room, { cookie: await allowCookie() });
    expect(admitted.fromOrigin).toBe(true);
  });

  it('a weak active key is refused by name and never signs', async () => {
    await room.setKeys({ [TEST_KID]: room.key.base64, weak: Buffer.alloc(16, 1).toString('base64') });
    await room.setConfig({ ...BASE_SETTINGS, active_key: 'weak' });
    const visited = await visit(room);
    expect(room.errors().join('\n')).toMatch(/"weak" is weak/);
    expect(visited.response.status).toBe(503);
    expect(visited.roomCookies).toEqual([]);
    // A token signed with the weak key is not accepted either.
    const forged = await mintToken(room, {
      dec: 'allow',
      exp: windowBoundary(A, 2),
      kid: 'weak',
      key: new Uint8Array(16).fill(1),
    });
    const refused = await visit(room, { cookie: `waiting_room_default=${forged}` });
    expect(refused.fromOrigin).toBe(false);
  });

  it('rotation: a new active key signs, the old one still verifies until removed', async () => {
    const next = Buffer.alloc(48, 3).toString('base64');
    await room.setKeys({ [TEST_KID]: room.key.base64, next });
    await room.setConfig({ ...BASE_SETTINGS, active_key: 'next' });
    const visited = await visit(room);
    const header = JSON.parse(Buffer.from(tokenOf(visited.roomCookies[0]!).split('.')[0]!, 'base64url').toString()) as {
      kid: string;
    };
    expect(header.kid).toBe('next');
    const old = await allowCookie();
    expect((await visit(room, { cookie: old })).fromOrigin).toBe(true);
    await room.setKeys({ next });
    const removed = await visit(room, { cookie: old });
    expect(removed.log.reason).toBe('token_unknown_kid');
  });
});

describe('settings and logs', () => {
  it('a non-numeric allow_percentage fails open and is reported by name', async () => {
    await room.setConfig({ ...BASE_SETTINGS, allow_percentage: 'lots' });
    const visited = await visit(room);
    expect(visited.fromOrigin).toBe(true);
    expect(visited.log.reason).toBe('allow_all');
    expect(room.errors().join('\n')).toMatch(/allow_percentage.*lots/);
  });

  it('a bad number setting falls back to its default and is reported by name', async () => {
    await room.setConfig({ ...BASE_SETTINGS, wait_period_duration: 'soon' });
    const visited = await visit(room);
    expect(visited.log.outcome).toBe('startwaiting');
    // The default window of 30 s: a new token expires 1-2 windows on, and Retry-After points at its due time.
    const token = tokenOf(visited.roomCookies[0]!);
    const exp = claimsOf(token).exp;
    expect(exp % 30).toBe(0);
    expect(exp - nowSeconds()).toBeLessThanOrEqual(60); // d = 60 would give more than 60
    const retryAfter = expectEdgePage(visited);
    expect(retryAfter).toBeGreaterThanOrEqual(dueAt(token, exp, { waitPeriodSeconds: 30 }) - nowSeconds());
    expect(retryAfter).toBeLessThanOrEqual(dueAt(token, exp, { waitPeriodSeconds: 30 }) - nowSeconds() + 1);
    expect(room.errors().join('\n')).toMatch(/wait_period_duration.*soon/);
  });

  it('writes one JSON line per decision, without the client address', async () => {
    await room.setConfig(BASE_SETTINGS);
    const before = room.decisions().length;
    const paths = ['/one', '/two', '/three', '/four'];
    for (const path of paths) await fetch(`${room.url}${path}`).then((r) => r.arrayBuffer());
    await fetch(`${room.url}/five`, { headers: { cookie: await allowCookie() } }).then((r) => r.arrayBuffer());
    const lines = await waitFor(() =>
      room.decisions().length >= before + 5 ? room.decisions().slice(before) : undefined,
    );
    // Give a stray second line per request time to show up before counting.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(
      room
        .decisions()
        .slice(before)
        .map((l) => l.path),
    ).toEqual([...paths, '/five']);
    for (const line of lines) {
      expect(line.unparsable).toBeUndefined();
      expect(typeof line.reason).toBe('string');
      expect(JSON.stringify(line)).not.toContain('127.0.0.1');
    }
    const raw = room.logs().filter((l) => l.includes(' :: '));
    expect(raw.join('\n')).not.toContain('127.0.0.1');
  });

  it('tunes live: the same visitor is denied, admitted, then queued as the file changes', async () => {
    await room.setConfig({ ...BASE_SETTINGS, allow_percentage: '0' });
    expect((await visit(room)).log.outcome).toBe('deny');
    await room.setConfig({ ...BASE_SETTINGS, allow_percentage: '100' });
    const admitted = await visit(room);
    expect(admitted.fromOrigin).toBe(true);
    await room.setConfig({ ...BASE_SETTINGS, allow_percentage: '40' });
    // Without its cookie the visitor is new again and queues.
    expect((await visit(room)).log.outcome).toBe('startwaiting');
  });

  it('serves the waiting page from waiting_room_pages when the store has one', async () => {
    await room.setConfig(BASE_SETTINGS);
    const template = '<!doctype html><title>Custom</title><p id="custom">Hold on, {{retryAfterSeconds}} s</p>';
    await room.setPages({ startwaiting: Buffer.from(template).toString('base64') });
    const visited = await visit(room);
    expect(visited.body).toMatch(/Hold on, \d+ s/);
    await room.setPages({});
  });
});
