// Backend connections kept alive between requests (host/src/upstream.ts), against a raw TCP server
// that says what it would do with an idle connection but never closes one itself.
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { BackendConfig } from '../../host/src/config.js';
import type { BackendRequest, WaitResult } from '../../host/src/protocol.js';
import { sendUpstream, type RemoteStream } from '../../host/src/upstream.js';

interface Backend {
  server: Server;
  port: number;
  /** Server-side sockets, in the order the host opened them. */
  connections: Socket[];
}

/** Answers each request on a connection in turn; `delayMs[i]` holds back the i-th answer of the whole server. */
function startBackend(keepAliveHeader: string, delayMs: number[] = []): Promise<Backend> {
  const connections: Socket[] = [];
  let answered = 0;
  const server = createServer((socket) => {
    connections.push(socket);
    socket.on('error', () => undefined);
    let pending = '';
    socket.on('data', (chunk) => {
      pending += chunk.toString('latin1');
      while (pending.includes('\r\n\r\n')) {
        pending = pending.slice(pending.indexOf('\r\n\r\n') + 4);
        const delay = delayMs[answered++] ?? 0;
        setTimeout(() => {
          socket.write(`HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\nKeep-Alive: ${keepAliveHeader}\r\n\r\nok`);
        }, delay);
      }
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port, connections }));
  });
}

const backendAt = (port: number): BackendConfig => ({
  name: 'origin',
  url: `http://127.0.0.1:${port}`,
  protocol: 'http:',
  hostname: '127.0.0.1',
  port,
  pathPrefix: '/',
  useSni: true,
  connectTimeoutMs: 1000,
  firstByteTimeoutMs: 15000,
  betweenBytesTimeoutMs: 10000,
});

const GET: BackendRequest = { method: 'GET', url: 'http://127.0.0.1/', headers: [], autoDecompress: false } as BackendRequest;

/** One request through the host's pooled agent, its body read to the end (which frees the connection). */
async function fetchOnce(backend: BackendConfig): Promise<{ result: WaitResult; body: string }> {
  let stream: RemoteStream | null = null;
  const up = sendUpstream(backend, GET, null, false, (s) => {
    stream = s;
    return 1;
  });
  const result = await up.result;
  let body = '';
  if (stream) for (let c = await (stream as RemoteStream).read(1 << 16); c; c = await (stream as RemoteStream).read(1 << 16)) body += c.toString();
  return { result, body };
}

/** Fails with `what` rather than hanging until the test timeout when `promise` never settles. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(what)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

let running: Backend | null = null;
afterEach(async () => {
  for (const s of running?.connections ?? []) s.destroy();
  await new Promise((r) => running?.server.close(r) ?? r(undefined));
  running = null;
});

describe('pooled backend connections', () => {
  it('are closed by the host before the backend drops them, when the backend announces its keep-alive timeout', async () => {
    // Node's agent ignores `Keep-Alive: timeout=N` unless it has an idle timeout of its own; it would then
    // reuse this connection after the server's 2 s and, with a real server, hit its close ("socket hang up").
    running = await startBackend('timeout=2');
    const first = await fetchOnce(backendAt(running.port));
    expect(first.result.ok).toBe(true);
    expect(first.body).toBe('ok');
    const [socket] = running.connections;
    await within(new Promise((resolve) => socket!.once('end', resolve)), 10_000, 'the host kept the idle connection past the announced keep-alive');
    // The next request opens a new connection rather than writing to the closed one.
    const second = await fetchOnce(backendAt(running.port));
    expect(second.body).toBe('ok');
    expect(running.connections).toHaveLength(2);
  });

  it('do not cut off a request in flight on a reused connection that waits longer than the idle limit', async () => {
    // The reused socket carries the 1 s idle limit (timeout=2 less Node's 1 s margin); the second answer takes 1.5 s.
    running = await startBackend('timeout=2', [0, 1500]);
    const backend = backendAt(running.port);
    expect((await fetchOnce(backend)).body).toBe('ok');
    const slow = await fetchOnce(backend);
    expect(slow.result.ok).toBe(true);
    expect(slow.body).toBe('ok');
    expect(running.connections).toHaveLength(1);
  });
});
