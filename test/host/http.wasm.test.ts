// The host serving a guest's own answers over HTTP: the downstream request and response, bodies both
// ways, the guest's runtime, and guests that fail, trap or hang. Backends: http.backends.wasm.test.ts.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pattern } from '../../lib/origin.js';
import { startHost, type RunningHost } from '../../lib/host-process.js';
import { hostFixture } from '../../lib/paths.js';
import { buildWasm } from '../../lib/wasm-build.js';
import { within } from '../support/within.js';

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

let misc: RunningHost;

beforeAll(async () => {
  misc = await startHost({ wasm: await buildWasm(hostFixture('misc.js')) });
});

afterAll(async () => {
  await misc?.stop();
});

describe('synthetic responses', () => {
  it('keeps every value of a header the app set more than once', async () => {
    const res = await fetch(`${misc.url}/cookies`);
    expect(res.status).toBe(201);
    expect(res.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/; HttpOnly']);
    expect(res.headers.get('x-multi')).toBe('one, two');
    expect(await res.text()).toBe('cookies\n');
  });

  it('hands the app the method, full URL and headers of the downstream request', async () => {
    const res = await fetch(`${misc.url}/request-headers?x=1`, { method: 'DELETE', headers: { 'x-probe': 'abc' } });
    const seen = (await res.json()) as { method: string; url: string; headers: Record<string, string> };
    expect(seen.method).toBe('DELETE');
    expect(new URL(seen.url).pathname + new URL(seen.url).search).toBe('/request-headers?x=1');
    expect(seen.headers['x-probe']).toBe('abc');
  });
});

describe('runtime environment of the guest', () => {
  interface Runtime {
    now: number;
    random: number;
    bytes: string;
    uuid: string;
    hostname: string;
    pop: string;
  }
  const runtime = async (): Promise<Runtime> => (await fetch(`${misc.url}/runtime`)).json() as Promise<Runtime>;

  it('sees the real wall clock, not the time the module was built', async () => {
    const before = Date.now();
    const { now } = await runtime();
    const after = Date.now();
    expect(now).toBeGreaterThanOrEqual(before - 1);
    expect(now).toBeLessThanOrEqual(after + 1);
  });

  it('gets fresh randomness in every request although each starts from the same snapshot', async () => {
    const seen = await Promise.all(Array.from({ length: 5 }, runtime));
    for (const field of ['random', 'bytes', 'uuid'] as const) {
      expect(new Set(seen.map((r) => r[field])).size).toBe(seen.length);
    }
    expect(seen.every((r) => r.bytes !== '0'.repeat(32))).toBe(true);
  });

  it('gets the environment Viceroy sets', async () => {
    expect(await runtime()).toMatchObject({ hostname: 'localhost', pop: 'XXX' });
  });

  it('starts every request in a fresh instance: no state leaks from one request to the next', async () => {
    const counts: string[] = [];
    for (let i = 0; i < 20; i++) counts.push(await (await fetch(`${misc.url}/handled`)).text());
    expect(counts).toEqual(Array.from({ length: 20 }, () => '1'));
  });

  it('runs guest timers (setTimeout) to completion', async () => {
    const res = await fetch(`${misc.url}/sleep?ms=100`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { slept: number }).slept).toBeGreaterThanOrEqual(100);
  });
});

describe('bodies', () => {
  const oneMegabyte = pattern(1024 * 1024);

  it('delivers a 1 MB request body to the app intact', async () => {
    const res = await fetch(`${misc.url}/upload`, { method: 'POST', body: oneMegabyte });
    expect(await res.json()).toEqual({ length: oneMegabyte.length, sha256: sha256(oneMegabyte) });
  });

  it('delivers a 1 MB response body from the app intact', async () => {
    const res = await fetch(`${misc.url}/download?bytes=${oneMegabyte.length}`);
    expect(res.status).toBe(200);
    const body = new Uint8Array(await res.arrayBuffer());
    expect(body.length).toBe(oneMegabyte.length);
    expect(sha256(body)).toBe(sha256(oneMegabyte));
  });

  it('accepts a chunked (streamed) request body', async () => {
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('part one, '));
        controller.enqueue(encoder.encode('part two'));
        controller.close();
      },
    });
    const res = await fetch(`${misc.url}/upload`, { method: 'POST', body, duplex: 'half' } as RequestInit);
    const expected = encoder.encode('part one, part two');
    expect(await res.json()).toEqual({ length: expected.length, sha256: sha256(expected) });
  });
});

describe('failing apps', () => {
  it('answers 5xx when the app throws, and the next request works', async () => {
    const res = await fetch(`${misc.url}/throw`);
    expect(res.status).toBeGreaterThanOrEqual(500);
    await res.text();
    const next = await fetch(`${misc.url}/`);
    expect(next.status).toBe(200);
    expect(await next.text()).toBe('ok\n');
  });

  it('answers 5xx when the Wasm traps, and the next request works', async () => {
    const res = await fetch(`${misc.url}/trap`);
    expect(res.status).toBeGreaterThanOrEqual(500);
    await res.text();
    expect(misc.alive()).toBe(true);
    const next = await fetch(`${misc.url}/`);
    expect(next.status).toBe(200);
    expect(await next.text()).toBe('ok\n');
  });
});

describe('a guest that traps after its response has begun', () => {
  // Without the cut-off the host would send the terminating 0-chunk and the client would take a
  // truncated page for a complete one.
  it('cuts the response off so the client sees an incomplete body, and the host keeps serving', async () => {
    const res = await fetch(`${misc.url}/trap-mid-body`);
    expect(res.status).toBe(200);
    await expect(within(res.text(), 10_000, 'the cut-off body neither ended nor failed')).rejects.toThrow(
      /terminated|aborted|closed|socket/i,
    );
    const next = await fetch(`${misc.url}/`);
    expect(next.status).toBe(200);
  });
});

describe('a guest that never answers', () => {
  it('gets a 5xx once the request timeout passes, and the host keeps serving', async () => {
    const host = await startHost({ wasm: await buildWasm(hostFixture('misc.js')), args: ['--request-timeout', '1'] });
    try {
      const res = await fetch(`${host.url}/spin`);
      expect(res.status).toBeGreaterThanOrEqual(500);
      await res.text();
      const next = await fetch(`${host.url}/`);
      expect(next.status).toBe(200);
      expect(await next.text()).toBe('ok\n');
    } finally {
      await host.stop();
    }
  });
});

describe('concurrency', () => {
  it('answers 100 concurrent requests, each with its own response', async () => {
    const ids = Array.from({ length: 100 }, (_, i) => `req-${i}`);
    const answers = await Promise.all(
      ids.map(async (id) => {
        const res = await fetch(`${misc.url}/request-headers?id=${id}`, { headers: { 'x-id': id } });
        const seen = (await res.json()) as { url: string; headers: Record<string, string> };
        return { status: res.status, id: seen.headers['x-id'], query: new URL(seen.url).searchParams.get('id') };
      }),
    );
    expect(answers).toEqual(ids.map((id) => ({ status: 200, id, query: id })));
  });
});
