// Request methods as the client spelled them. Viceroy (hyper) hands the guest any token method
// unchanged (`get`, `purge`, `FOO`); Node's parser refuses every method it does not know, so the host
// replays such requests into its server with the method carried past the parser
// (host/src/raw-method*.ts). Raw sockets throughout: no HTTP client sends these.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLocalServer } from '../../host/src/config.js';
import { compileGuest } from '../../host/src/compile-guest.js';
import { DEFAULT_MAX_MEMORY } from '../../host/src/memory-rewrite.js';
import { METHOD_HEADER } from '../../host/src/raw-method-line.js';
import { ComputeHost } from '../../host/src/server.js';
import { startHost, type RunningHost } from '../../lib/host-process.js';
import { hostFixture, repoRoot } from '../../lib/paths.js';
import { buildWasm } from '../../lib/wasm-build.js';

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What the fixture's /method route saw. */
interface Seen {
  method: string;
  body: string;
  headers: string[];
}

/**
 * One client connection: writes bytes as given and reads the answers off it one at a time
 * (Content-Length, chunked, or until close), so a test can tell several answers on one socket apart.
 */
class Connection {
  private readonly socket: Socket;
  private buffered = Buffer.alloc(0);
  private wake: () => void = () => {};
  closed = false;
  readonly ready: Promise<void>;

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.ready = new Promise((resolve, reject) => {
      this.socket.once('connect', () => resolve());
      this.socket.once('error', reject);
    });
    this.socket.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      this.wake();
    });
    this.socket.on('error', () => {});
    this.socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
  }

  /** Written, never ended: a client that half-closes is a client gone, and the host drops its request. */
  async write(data: string | Buffer): Promise<void> {
    await this.ready;
    await new Promise<void>((resolve, reject) => this.socket.write(data, (err) => (err ? reject(err) : resolve())));
  }

  private async waitFor<T>(take: () => T | undefined, what: string): Promise<T> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const got = take();
      if (got !== undefined) return got;
      if (this.closed)
        throw new Error(
          `connection closed while waiting for ${what}; got ${JSON.stringify(this.buffered.toString('latin1'))}`,
        );
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, 100);
      });
    }
  }

  /** The next answer on the connection. */
  async answer(): Promise<Answer> {
    const headEnd = await this.waitFor(() => {
      const i = this.buffered.indexOf('\r\n\r\n');
      return i < 0 ? undefined : i;
    }, 'a response head');
    const [statusLine, ...lines] = this.buffered.subarray(0, headEnd).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    this.buffered = this.buffered.subarray(headEnd + 4);
    let body: Buffer;
    if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      body = await this.waitFor(
        () => (this.buffered.length >= length ? this.buffered.subarray(0, length) : undefined),
        'the body',
      );
      this.buffered = this.buffered.subarray(length);
    } else if (headers['transfer-encoding'] === 'chunked') {
      body = await this.waitFor(() => {
        const parts: Buffer[] = [];
        let at = 0;
        for (;;) {
          const eol = this.buffered.indexOf('\r\n', at);
          if (eol < 0) return undefined;
          const size = parseInt(this.buffered.subarray(at, eol).toString('latin1'), 16);
          if (this.buffered.length < eol + 2 + size + 2) return undefined;
          if (size === 0) {
            this.buffered = this.buffered.subarray(eol + 4);
            return Buffer.concat(parts);
          }
          parts.push(this.buffered.subarray(eol + 2, eol + 2 + size));
          at = eol + 2 + size + 2;
        }
      }, 'a chunked body');
    } else {
      // No framing: the body runs to the end of the connection (the host's bare 400 has none).
      await this.waitFor(() => (this.closed ? true : undefined), 'the end of the connection');
      body = this.buffered;
      this.buffered = Buffer.alloc(0);
    }
    return { status, headers, body: body.toString('utf8') };
  }

  /** Resolves once the host has closed the connection. */
  async closedByHost(): Promise<void> {
    await this.waitFor(() => (this.closed ? true : undefined), 'the host to close the connection');
  }

  destroy(): void {
    this.socket.destroy();
  }
}

const seen = (answer: Answer): Seen => {
  expect(answer.status, answer.body).toBe(200);
  return JSON.parse(answer.body) as Seen;
};

/** The carrying header must never reach the guest, under whatever random name this process gave it. */
const noCarrier = (s: Seen): boolean => s.headers.every((name) => !name.startsWith('x-compute-host-method'));

let host: RunningHost;
let port: number;

beforeAll(async () => {
  // Verbose: one log line per request that reaches the guest, so a test can tell it never did.
  host = await startHost({ wasm: await buildWasm(hostFixture('misc.js')), verbose: true });
  port = host.port;
});

afterAll(async () => {
  await host?.stop();
});

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function ask(head: string, body = ''): Promise<Answer> {
  const c = new Connection(port);
  try {
    await c.write(head + body);
    return await c.answer();
  } finally {
    c.destroy();
  }
}

describe('a method Node does not know', () => {
  // js-compute reads the method as the fetch spec says (case-insensitive DELETE, GET, HEAD, OPTIONS,
  // POST and PUT in upper case, anything else as it is), whatever host runs it; the host's log shows
  // what it handed the guest.
  it.each([
    ['get', 'GET in lower case', 'GET'],
    ['purge', 'PURGE in lower case', 'purge'],
    ['FOO', 'a custom method', 'FOO'],
    ['Get', 'mixed case', 'GET'],
    ['head', 'HEAD in lower case, whose answer keeps its body', 'HEAD'],
    ['GETX', 'a custom method that begins like a known one', 'GETX'],
    ['PLAY', 'a method Node knows only from RTSP', 'PLAY'],
    ["x-y_z!#$%&'*+.^`|~9", 'every kind of token character', "x-y_z!#$%&'*+.^`|~9"],
  ])('reaches the guest as sent: %s (%s)', async (method, _what, guestReads) => {
    const target = `/method?as-sent=${encodeURIComponent(method)}`;
    const answer = await ask(`${method} ${target} HTTP/1.1\r\nHost: shop.test\r\n\r\n`);
    const s = seen(answer);
    expect(s.method).toBe(guestReads);
    expect(s.body).toBe('');
    expect(noCarrier(s)).toBe(true);
    await host.waitForLog(new RegExp(`^${escape(method)} ${escape(target)} 200 `));
  });

  it('brings its Content-Length body to the guest, in two writes', async () => {
    const c = new Connection(port);
    try {
      await c.write('FOO /method HTTP/1.1\r\nHost: shop.test\r\nContent-Length: 11\r\n\r\nhello');
      await new Promise((resolve) => setTimeout(resolve, 50));
      await c.write(' world');
      const s = seen(await c.answer());
      expect(s).toMatchObject({ method: 'FOO', body: 'hello world' });
      expect(s.headers).toContain('content-length');
      expect(noCarrier(s)).toBe(true);
    } finally {
      c.destroy();
    }
  });

  it('brings its chunked body to the guest', async () => {
    const answer = await ask(
      'purge /method HTTP/1.1\r\nHost: shop.test\r\nTransfer-Encoding: chunked\r\n\r\n',
      '5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n',
    );
    expect(seen(answer)).toMatchObject({ method: 'purge', body: 'hello world' });
  });

  it('keeps the connection alive: a custom method after a normal request, and requests after it', async () => {
    const c = new Connection(port);
    try {
      const sequence: [string, string][] = [
        ['GET', ''],
        ['FOO', 'first'],
        ['GET', ''],
        ['purge', 'second'],
        ['BAR', 'third'],
        ['POST', 'fourth'],
      ];
      for (const [method, body] of sequence) {
        await c.write(`${method} /method HTTP/1.1\r\nHost: shop.test\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
        const answer = await c.answer();
        expect(answer.headers.connection).toBe('keep-alive');
        expect(seen(answer)).toMatchObject({ method, body });
        expect(c.closed).toBe(false);
      }
    } finally {
      c.destroy();
    }
  });

  it('answers pipelined requests in order when some have custom methods', async () => {
    const c = new Connection(port);
    try {
      const request = (method: string, body: string) =>
        `${method} /method HTTP/1.1\r\nHost: shop.test\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
      // All in one write, so the parser meets each custom method in the middle of what it was given.
      await c.write(request('GET', '') + request('FOO', 'a') + request('bar', 'bc') + request('PUT', 'def'));
      const methods: string[] = [];
      for (let i = 0; i < 4; i++) methods.push(seen(await c.answer()).method);
      expect(methods).toEqual(['GET', 'FOO', 'bar', 'PUT']);
    } finally {
      c.destroy();
    }
  });
});

describe('a request line whose method is not a token', () => {
  it('gets 400 from the host and never reaches the guest, while a token one does', async () => {
    const bad = [
      'G(T /method?bad=1 HTTP/1.1',
      'G"T /method?bad=2 HTTP/1.1',
      'GET\t/method?bad=3 HTTP/1.1',
      'G\u00c9T /method?bad=4 HTTP/1.1',
      'FOO /method?bad=5', // no HTTP version: hyper refuses it too
    ];
    for (const line of bad) {
      const c = new Connection(port);
      try {
        await c.write(Buffer.from(`${line}\r\nHost: shop.test\r\n\r\n`, 'latin1'));
        const answer = await c.answer();
        expect(answer.status, line).toBe(400);
        await c.closedByHost();
      } finally {
        c.destroy();
      }
    }
    // The control: one character from the first, a token now, and it reaches the guest.
    expect(seen(await ask('G-T /method?good=1 HTTP/1.1\r\nHost: shop.test\r\n\r\n')).method).toBe('G-T');
    await host.waitForLog(/^G-T \/method\?good=1 200 /);
    expect(host.logs().filter((line) => line.includes('bad='))).toEqual([]);
  });
});

describe('the header that carries a method past the parser', () => {
  // Its name is random per process, so only a host in this process can be asked with the real one.
  let local: ComputeHost;
  let localPort: number;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'wr-methods-'));
    await writeFile(path.join(dir, 'fastly.toml'), 'manifest_version = 3\n');
    const guest = await compileGuest(
      new Uint8Array(await readFile(await buildWasm(hostFixture('misc.js')))),
      DEFAULT_MAX_MEMORY,
    );
    local = new ComputeHost({
      ...guest,
      workerUrl: pathToFileURL(path.join(repoRoot, 'host', 'dist', 'worker.js')),
      workers: 1,
      maxWorkers: 2,
      requestTimeoutMs: 10_000,
      verbose: false,
      config: loadLocalServer(path.join(dir, 'fastly.toml')),
      log: () => {},
      warn: () => {},
    });
    localPort = (await local.listen('127.0.0.1', 0)).port;
  });

  afterAll(async () => {
    await local?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('cannot be sent by a client to change a method, and never reaches the guest', async () => {
    const c = new Connection(localPort);
    try {
      const asks: [string, string, string][] = [
        // [method sent, header lines, method the guest must read]
        ['GET', `${METHOD_HEADER}: FOO\r\n`, 'GET'],
        ['POST', `${METHOD_HEADER}: DELETE\r\nHost: shop.test\r\n${METHOD_HEADER}: PATCH\r\n`, 'POST'],
        // A replayed request: the host's copy comes first, the client's below it.
        ['FOO', `${METHOD_HEADER}: BAR\r\n`, 'FOO'],
        // The next request on that replayed connection, with the value the host carried there.
        ['GET', `${METHOD_HEADER}: FOO\r\n`, 'GET'],
        ['purge', `${METHOD_HEADER}: get\r\n`, 'purge'],
      ];
      for (const [method, lines, expected] of asks) {
        const head = lines.includes('Host:') ? lines : `${lines}Host: shop.test\r\n`;
        await c.write(`${method} /method HTTP/1.1\r\n${head}Content-Length: 0\r\n\r\n`);
        const s = seen(await c.answer());
        expect(s.method, `${method} with ${JSON.stringify(lines)}`).toBe(expected);
        expect(s.headers).not.toContain(METHOD_HEADER);
        expect(noCarrier(s)).toBe(true);
      }
      expect(c.closed).toBe(false);
    } finally {
      c.destroy();
    }
  });
});
