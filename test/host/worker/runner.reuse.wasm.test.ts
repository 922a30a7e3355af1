// Reused sandboxes (fastly_http_downstream.next_request*): a guest that asks for them serves several
// requests in one instance, each request with its own client, headers and body, within the limits
// the guest set (setReusableSandboxOptions) and the host's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../../lib/host-process.js';
import { hostFixture } from '../../../lib/paths.js';
import { buildWasm } from '../../../lib/wasm-build.js';

let host: RunningHost;

interface Who {
  served: number;
  client: string;
  visitor: string | null;
  cookie: string | null;
  body: string | null;
  setting: string | null;
}

async function who(init: RequestInit & { visitor: string; cookie?: string }): Promise<Who> {
  const headers: Record<string, string> = { 'x-visitor': init.visitor };
  if (init.cookie) headers.cookie = init.cookie;
  const res = await fetch(`${host.url}/who`, { ...init, headers });
  expect(res.status).toBe(200);
  return (await res.json()) as Who;
}

beforeAll(async () => {
  const wasm = await buildWasm(hostFixture('reuse.js'));
  host = await startHost({
    wasm,
    // One worker: every request lands on the same sandbox while it is reusable.
    args: ['--workers', '1', '--max-workers', '1', '--request-timeout', '2'],
    manifest: { local_server: { config_stores: { settings: { format: 'json', file: 'settings.json' } } } },
    files: { 'settings.json': JSON.stringify({ colour: 'blue' }) },
  });
}, 120_000);

afterAll(async () => {
  await host?.stop();
});

/** Requests until one starts a fresh instance, so each test begins from a known count. */
async function freshSandbox(): Promise<void> {
  for (let i = 0; i < 6; i++) if ((await who({ visitor: 'reset' })).served === 5) return;
}

describe('a reused sandbox', () => {
  it('serves two interleaved visitors one after the other, each with their own headers, cookies and body', async () => {
    await freshSandbox();
    const a1 = await who({ visitor: 'alice', cookie: 'waiting_room_default=alice-token' });
    const b1 = await who({ visitor: 'bob', method: 'POST', body: 'bob-body' });
    const a2 = await who({
      visitor: 'alice',
      cookie: 'waiting_room_default=alice-token-2',
      method: 'POST',
      body: 'alice-body',
    });
    const b2 = await who({ visitor: 'bob' });
    // One instance: the count goes on rather than restarting at 1.
    expect([a1.served, b1.served, a2.served, b2.served]).toEqual([1, 2, 3, 4]);
    expect([a1.visitor, b1.visitor, a2.visitor, b2.visitor]).toEqual(['alice', 'bob', 'alice', 'bob']);
    expect([a1.cookie, b1.cookie, a2.cookie, b2.cookie]).toEqual([
      'waiting_room_default=alice-token',
      null,
      'waiting_room_default=alice-token-2',
      null,
    ]);
    expect([a1.body, b1.body, a2.body, b2.body]).toEqual([null, 'bob-body', 'alice-body', null]);
    expect(b2.client).toBe('127.0.0.1');
  });

  it('starts a fresh instance after the guest’s maxRequests', async () => {
    await freshSandbox();
    const counts: number[] = [];
    for (let i = 0; i < 7; i++) counts.push((await who({ visitor: `v${i}` })).served);
    expect(counts).toEqual([1, 2, 3, 4, 5, 1, 2]);
  });

  it('hands the sandbox a store change on its very next request', async () => {
    await freshSandbox();
    expect((await who({ visitor: 'before' })).setting).toBe('blue');
    await host.writeFile('settings.json', JSON.stringify({ colour: 'green' }));
    let seen: Who | null = null;
    for (let i = 0; i < 40 && seen?.setting !== 'green'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen = await who({ visitor: 'after' });
    }
    expect(seen?.setting).toBe('green');
    // The change reached a sandbox that was already running, not only a fresh one.
    expect(seen!.served).toBeGreaterThan(1);
    await host.writeFile('settings.json', JSON.stringify({ colour: 'blue' }));
  });

  it('is given up once the guest’s wait between requests passes', async () => {
    await freshSandbox();
    expect((await who({ visitor: 'first' })).served).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect((await who({ visitor: 'later' })).served).toBe(1);
  });

  it('is not reused after a request that hung: the next visitor gets a fresh instance', async () => {
    await freshSandbox();
    expect((await who({ visitor: 'first' })).served).toBe(1);
    expect((await fetch(`${host.url}/spin`)).status).toBe(504);
    expect((await who({ visitor: 'next' })).served).toBe(1);
  });

  it('answers a request whose handler throws with a 500; the guest runtime decides to keep the sandbox (js-compute does)', async () => {
    await freshSandbox();
    expect((await who({ visitor: 'first' })).served).toBe(1);
    expect((await fetch(`${host.url}/throw`)).status).toBe(500);
    expect((await who({ visitor: 'next' })).served).toBe(3);
  });
});
