// Requests Fastly refuses before any service code runs get a 4xx from the local host too, and no
// request can make the guest read another path than the one asked for: the host's own function,
// then the real host over a raw socket (no HTTP client would send these).
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downstreamUrl, MAX_TARGET_BYTES } from '../../host/src/downstream-url.js';
import { startHost, type RunningHost } from '../../lib/host-process.js';
import { hostFixture } from '../../lib/paths.js';
import { buildWasm } from '../../lib/wasm-build.js';

const req = (url: string, host?: string) =>
  ({
    url,
    headers: host === undefined ? {} : { host },
    socket: { localAddress: '127.0.0.1', localPort: 7676 },
  }) as Parameters<typeof downstreamUrl>[0];

describe('the URL the guest is handed', () => {
  it('joins the Host header and the path of an ordinary request', () => {
    expect(downstreamUrl(req('/tickets?x=1', 'shop.test:7676'))).toBe('http://shop.test:7676/tickets?x=1');
    expect(downstreamUrl(req('/', '[::1]:7676'))).toBe('http://[::1]:7676/');
    expect(downstreamUrl(req('/'))).toBe('http://127.0.0.1:7676/');
  });

  it('takes an absolute-form target as the whole URL, its host over the Host header', () => {
    expect(downstreamUrl(req('http://other.test/a/b?c=1', 'shop.test'))).toBe('http://other.test/a/b?c=1');
  });

  // A fully qualified name (one trailing dot) is a host like any other: Viceroy builds the URL from
  // the Host header as sent, so the guest reads `shop.example.com.`, which the room takes for
  // `shop.example.com` (docs/routing.md).
  it('keeps a fully qualified Host, its one trailing dot included, in both forms', () => {
    expect(downstreamUrl(req('/tickets?x=1', 'shop.example.com.'))).toBe('http://shop.example.com./tickets?x=1');
    expect(downstreamUrl(req('/', 'shop.example.com.:7676'))).toBe('http://shop.example.com.:7676/');
    expect(downstreamUrl(req('http://shop.example.com./a?b=1', 'shop.example.com.'))).toBe(
      'http://shop.example.com./a?b=1',
    );
  });

  it.each([
    ['a Host with a slash, which would shift the path', '/tickets', 'x/static'],
    ['a Host with two trailing dots', '/', 'shop.example.com..'],
    ['a Host that is a dot', '/', '.'],
    ['a Host with a space', '/', 'a b'],
    ['a Host with credentials', '/', 'user@shop.test'],
    ['OPTIONS *', '*', 'shop.test'],
    ['a target that is neither a path nor a URL', 'tickets', 'shop.test'],
    ['an absolute URL with a bad host', 'http://a b/', 'shop.test'],
    ['a Host whose port is past 65535', '/', 'a:99999'],
    ['an absolute URL whose port is past 65535', 'http://a:99999/', 'shop.test'],
    ['a Host whose last label is a number but no IPv4 address', '/', 'shop.999'],
  ])('answers 400 to %s', (_what, url, host) => {
    expect(downstreamUrl(req(url, host))).toBe(400);
  });

  it('answers 414 to a target past 8 KB, and takes one at the limit', () => {
    expect(downstreamUrl(req(`/${'a'.repeat(MAX_TARGET_BYTES)}`, 'shop.test'))).toBe(414);
    expect(downstreamUrl(req(`/${'a'.repeat(MAX_TARGET_BYTES - 1)}`, 'shop.test'))).toBe(
      `http://shop.test/${'a'.repeat(MAX_TARGET_BYTES - 1)}`,
    );
  });
});

let host: RunningHost;
beforeAll(async () => {
  host = await startHost({ wasm: await buildWasm(hostFixture('misc.js')), manifest: { local_server: {} } });
});
afterAll(async () => {
  await host?.stop();
});

/** Sends `head` as it is and returns the status line and body of the answer. */
function raw(head: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(host.url);
  return new Promise((resolve, reject) => {
    // Written, not ended: a half-closed socket is a client gone, and the host drops its request.
    const socket = connect(Number(port), hostname, () => socket.write(head));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4) });
    });
  });
}

describe('bad requests on the real host', () => {
  it.each([
    ['a Host with a slash', 'GET /request-headers HTTP/1.1\r\nHost: x/static\r\nConnection: close\r\n\r\n', 400],
    ['OPTIONS *', 'OPTIONS * HTTP/1.1\r\nHost: shop.test\r\nConnection: close\r\n\r\n', 400],
    [
      'a 9,000-character path',
      `GET /${'p'.repeat(9000)} HTTP/1.1\r\nHost: shop.test\r\nConnection: close\r\n\r\n`,
      414,
    ],
    ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n', 400],
    ['a Host whose port is past 65535', 'GET / HTTP/1.1\r\nHost: a:99999\r\nConnection: close\r\n\r\n', 400],
  ])('answers %s with a 4xx before the guest', async (_what, head, status) => {
    const answer = await raw(head);
    expect(answer.status).toBe(status);
  });

  it.each([
    ['in the Host header', 'GET /request-headers?x=1 HTTP/1.1\r\nHost: shop.example.com.\r\nConnection: close\r\n\r\n'],
    [
      'in an absolute-form target',
      'GET http://shop.example.com./request-headers?x=1 HTTP/1.1\r\nHost: shop.example.com.\r\nConnection: close\r\n\r\n',
    ],
  ])('hands the guest a host with one trailing dot %s, as Viceroy does', async (_where, head) => {
    const answer = await raw(head);
    expect(answer.status).toBe(200);
    const seen = JSON.parse(answer.body.slice(answer.body.indexOf('{'), answer.body.lastIndexOf('}') + 1)) as {
      url: string;
    };
    expect(seen.url).toBe('http://shop.example.com./request-headers?x=1');
  });

  it('hands the guest the path of an absolute-form request, not one shifted by a stray Host', async () => {
    const answer = await raw(
      'GET http://shop.test/request-headers?x=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(answer.status).toBe(200);
    const seen = JSON.parse(answer.body.slice(answer.body.indexOf('{'), answer.body.lastIndexOf('}') + 1)) as {
      url: string;
    };
    expect(seen.url).toBe('http://shop.test/request-headers?x=1');
  });
});
