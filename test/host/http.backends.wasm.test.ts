// The host carrying a guest's backend requests: what [local_server] says of a backend, bodies to and
// from it, streaming, timeouts and failures, and the fidelity a waiting room passing visitors through
// relies on. The guest's own answers: http.wasm.test.ts.
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pattern, startOrigin, type Origin } from '../../lib/origin.js';
import { freePort, startHost, type RunningHost } from '../../lib/host-process.js';
import { hostFixture } from '../../lib/paths.js';
import { buildWasm } from '../../lib/wasm-build.js';
import { within } from '../support/within.js';

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

let origin: Origin;
let misc: RunningHost;
let proxy: RunningHost;
// Chunk 1 of the streamed body is held back until the test has seen chunk 0 arrive downstream.
let releaseChunk1: () => void = () => {};

beforeAll(async () => {
  const [miscWasm, proxyWasm] = await Promise.all([
    buildWasm(hostFixture('misc.js')),
    buildWasm(hostFixture('proxy.js')),
  ]);
  origin = await startOrigin({
    gate: (index) => (index === 1 ? new Promise<void>((resolve) => (releaseChunk1 = resolve)) : Promise.resolve()),
  });
  const deadPort = await freePort(); // closed again at once: connecting to it is refused
  const local_server = {
    backends: {
      origin: { url: origin.url },
      dead: { url: `http://127.0.0.1:${deadPort}` },
      renamed: { url: origin.url, override_host: 'origin.example' },
      prefixed: { url: `${origin.url}/base` },
      impatient: { url: origin.url, first_byte_timeout_ms: 200 },
      nxdomain: { url: 'http://wr-no-such-host.invalid' },
    },
  };
  [misc, proxy] = await Promise.all([
    startHost({ wasm: miscWasm, manifest: { local_server } }),
    startHost({ wasm: proxyWasm, manifest: { local_server } }),
  ]);
});

afterAll(async () => {
  await Promise.all([misc?.stop(), proxy?.stop(), origin?.stop()]);
});

describe('backend details', () => {
  it('tells the app what [local_server] says of a backend, and that an unknown one does not exist', async () => {
    const read = async (name: string) => (await fetch(`${misc.url}/backend-info?name=${name}`)).json();
    const port = Number(new URL(origin.url).port);
    expect(await read('impatient')).toMatchObject({
      exists: true,
      isDynamic: false,
      port,
      hostOverride: null,
      // As under Viceroy, which reports no connection timing: the getters answer "unsupported",
      // which js-compute reads as null (the host still applies first_byte_timeout_ms itself).
      connectTimeout: null,
      firstByteTimeout: null,
      betweenBytesTimeout: null,
      isSSL: false,
      health: 'unknown',
    });
    expect(await read('renamed')).toMatchObject({ exists: true, hostOverride: 'origin.example', port });
    expect(await read('nowhere')).toEqual({ exists: false });
  });
});

describe('bodies to and from a backend', () => {
  const oneMegabyte = pattern(1024 * 1024);

  it('streams a 1 MB request body through the app to a backend', async () => {
    const res = await fetch(`${misc.url}/upload-to-origin`, { method: 'POST', body: oneMegabyte });
    expect(res.status).toBe(200);
    const received = (await res.json()) as { method: string; bodyLength: number; bodySha256: string };
    expect(received.method).toBe('POST');
    expect(received.bodyLength).toBe(oneMegabyte.length);
    expect(received.bodySha256).toBe(sha256(oneMegabyte));
  });

  it('proxies a 1 MB backend body back downstream intact', async () => {
    const res = await fetch(`${proxy.url}/bytes?n=${oneMegabyte.length}`);
    expect(res.status).toBe(200);
    expect(sha256(new Uint8Array(await res.arrayBuffer()))).toBe(sha256(oneMegabyte));
  });
});

describe('proxying to a backend', () => {
  it('forwards method, path, headers and body, and returns the backend response', async () => {
    const res = await fetch(`${proxy.url}/some/path?q=1`, {
      method: 'POST',
      headers: { 'x-probe': 'through', 'content-type': 'text/plain' },
      body: 'hello origin',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-origin')).toBe('echo');
    const seen = (await res.json()) as { method: string; path: string; headers: Record<string, string>; body: string };
    expect(seen).toMatchObject({ method: 'POST', path: '/some/path?q=1', body: 'hello origin' });
    expect(seen.headers['x-probe']).toBe('through');
  });

  /**
   * Reads `res` until `first` has arrived (bounded, failing with `heldBack`), then lets the origin
   * write chunk 1 and reads to the end. Returns the text seen before the release and in all.
   */
  async function readAcrossRelease(
    res: Response,
    first: string,
    heldBack: string,
  ): Promise<{ before: string; all: string }> {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    // The origin writes chunk 1 only after this loop has seen chunk 0; a host that buffers the
    // whole body would never deliver chunk 0.
    while (!text.includes(first)) {
      const { value, done } = await within(reader.read(), 10_000, heldBack);
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    const before = text;
    releaseChunk1();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    return { before, all: text };
  }

  it('passes on the first chunk of a streamed backend body before the backend has sent the rest', async () => {
    const res = await fetch(`${proxy.url}/stream?chunks=3`);
    expect(res.status).toBe(200);
    const { before, all } = await readAcrossRelease(res, 'chunk 0\n', 'chunk 0 was held back until the body ended');
    expect(before).toBe('chunk 0\n');
    expect(all).toBe('chunk 0\nchunk 1\nchunk 2\n');
  });

  it('streams a body the guest writes chunk by chunk (transformed backend stream)', async () => {
    const res = await fetch(`${misc.url}/transform-stream`);
    expect(res.status).toBe(200);
    const { before, all } = await readAcrossRelease(res, 'CHUNK 0\n', 'the guest-written chunk 0 was held back');
    expect(before).toBe('CHUNK 0\n');
    expect(all).toBe('CHUNK 0\nCHUNK 1\nCHUNK 2\n');
  });

  it('cuts the client response off when the backend connection drops mid-body', async () => {
    const res = await fetch(`${proxy.url}/broken`);
    expect(res.status).toBe(200);
    await expect(within(res.text(), 10_000, 'the cut-off body neither ended nor failed')).rejects.toThrow(
      /terminated|aborted|closed|socket/i,
    );
  });

  it('lets the app answer 502 itself when the backend is slower than its first-byte timeout', async () => {
    const res = await fetch(`${proxy.url}/slow?ms=3000&backend=impatient`);
    expect(res.status).toBe(502);
    expect(await res.text()).toMatch(/^backend impatient failed: /);
  });

  it('tells the app a backend whose name does not resolve failed on DNS, and keeps serving', async () => {
    const res = await fetch(`${proxy.url}/anything?backend=nxdomain`);
    expect(res.status).toBe(502);
    expect(await res.text()).toMatch(/^backend nxdomain failed: DNS error/);
    expect(proxy.alive()).toBe(true);
  });

  it('lets the app answer 502 itself when the backend refuses the connection, and keeps serving', async () => {
    const res = await fetch(`${proxy.url}/anything?backend=dead`);
    expect(res.status).toBe(502);
    expect(res.headers.get('x-proxy-error')).toBe('1');
    await res.text();
    expect(proxy.alive()).toBe(true);
    const after = await fetch(`${proxy.url}/after-dead`);
    expect(after.status).toBe(200);
    expect(((await after.json()) as { path: string }).path).toBe('/after-dead');
  });
});

describe('proxy fidelity (what the waiting room relies on when it passes a visitor through)', () => {
  it('does not follow a backend redirect: the 302 and its Location reach the client', async () => {
    const res = await fetch(`${proxy.url}/status/302`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/elsewhere');
  });

  it.each([204, 404, 503])('passes backend status %i through', async (code) => {
    const res = await fetch(`${proxy.url}/status/${code}`);
    expect(res.status).toBe(code);
    expect(await res.text()).toBe(code === 204 ? '' : `status ${code}\n`);
  });

  it('passes every Set-Cookie of a backend response through', async () => {
    const res = await fetch(`${proxy.url}/set-cookies`);
    expect(res.headers.getSetCookie()).toEqual(['one=1; Path=/', 'two=2; Path=/; Secure']);
  });

  it('passes a gzip-encoded backend body through without decoding it', async () => {
    // node:http does not decode, so the bytes are exactly what reached the client.
    const raw = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      request(`${proxy.url}/gzip`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      })
        .on('error', reject)
        .end();
    });
    expect(raw.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(raw.body).toString('utf8'))).toMatchObject({ path: '/gzip' });
  });

  it('answers HEAD with the backend headers and no body', async () => {
    const res = await fetch(`${proxy.url}/bytes?n=1000`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it('sends override_host as the Host header to the backend', async () => {
    const res = await fetch(`${proxy.url}/host-check?backend=renamed`);
    const seen = (await res.json()) as { headers: Record<string, string> };
    expect(seen.headers.host).toBe('origin.example');
  });

  it('keeps the path prefix of a backend url', async () => {
    const res = await fetch(`${proxy.url}/page?backend=prefixed`);
    expect(((await res.json()) as { path: string }).path).toBe('/base/page?backend=prefixed');
  });

  it('keeps percent-encoding and repeated query parameters in the path sent upstream', async () => {
    const res = await fetch(`${proxy.url}/a%20b/%C3%A9?x=1&x=2&y=%2F`);
    expect(((await res.json()) as { path: string }).path).toBe('/a%20b/%C3%A9?x=1&x=2&y=%2F');
  });
});

describe('failing clients', () => {
  it('survives a client that hangs up while the app waits on its backend', async () => {
    const abort = new AbortController();
    const pending = fetch(`${proxy.url}/slow?ms=1000`, { signal: abort.signal });
    // Hang up only once the origin has the request, i.e. while the guest is waiting on it.
    const before = origin.received.length;
    await expect
      .poll(() => origin.received.slice(before).some((r) => r.path.startsWith('/slow')), {
        timeout: 5_000,
        interval: 10,
      })
      .toBe(true);
    abort.abort();
    await expect(pending).rejects.toThrow();
    const next = await fetch(`${proxy.url}/after-hangup`);
    expect(next.status).toBe(200);
    expect(((await next.json()) as { path: string }).path).toBe('/after-hangup');
  });
});

describe('a streamed response whose body stalls', () => {
  it('reaches the client with its status and headers before any of the body', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const stalled = await startOrigin({ gate: (index) => (index === 0 ? held : Promise.resolve()) });
    const host = await startHost({
      wasm: await buildWasm(hostFixture('proxy.js')),
      manifest: { local_server: { backends: { origin: { url: stalled.url } } } },
    });
    try {
      // Before the first chunk leaves the origin, fetch already resolves with the response head.
      const res = await within(
        fetch(`${host.url}/stream?chunks=2`),
        5_000,
        'no status or headers until the body moved',
      );
      expect(res.status).toBe(200);
      release();
      expect(await res.text()).toBe('chunk 0\nchunk 1\n');
    } finally {
      release();
      await host.stop();
      await stalled.stop();
    }
  });
});
