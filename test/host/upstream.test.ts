// Pooled backend connections (host/src/upstream.ts), against a raw TCP or TLS server that announces a
// keep-alive timeout but never closes a connection itself: whatever closes one is the host.
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BackendConfig } from '../../host/src/manifest/backends.js';
import type { BackendRequest, WaitResult } from '../../host/src/protocol.js';
import type { RemoteStream } from '../../host/src/remote-stream.js';
import { BACKEND_IDLE_MS, sendUpstream } from '../../host/src/upstream.js';
import { selfSignedCertificate } from '../../lib/certificate.js';
import { within } from '../support/within.js';

interface Backend {
  server: Server;
  port: number;
  /** Server-side sockets, in the order the host opened them. */
  connections: Socket[];
}

interface BackendOptions {
  /** The `Keep-Alive` header of every answer. */
  keepAlive: string;
  /** `answerDelayMs[i]` holds back the server's i-th answer (counted over all connections). */
  answerDelayMs?: number[];
  tls?: { key: string; cert: string };
}

/** Answers `ok` to each request head it reads, in turn, on every connection. */
function startBackend(options: BackendOptions): Promise<Backend> {
  const connections: Socket[] = [];
  let answered = 0;
  const onConnection = (socket: Socket): void => {
    connections.push(socket);
    socket.on('error', () => undefined);
    let unread = '';
    socket.on('data', (chunk: Buffer) => {
      unread += chunk.toString('latin1');
      for (let end = unread.indexOf('\r\n\r\n'); end >= 0; end = unread.indexOf('\r\n\r\n')) {
        unread = unread.slice(end + 4);
        const answer = `HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\nKeep-Alive: ${options.keepAlive}\r\n\r\nok`;
        setTimeout(() => socket.write(answer), options.answerDelayMs?.[answered++] ?? 0);
      }
    });
  };
  const server = options.tls ? createTlsServer(options.tls, onConnection) : createTcpServer(onConnection);
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, port: (server.address() as { port: number }).port, connections }),
    );
  });
}

function backendConfig(port: number, tls?: { cert: string }): BackendConfig {
  const protocol = tls ? 'https:' : 'http:';
  return {
    name: 'origin',
    url: `${protocol}//127.0.0.1:${port}`,
    protocol,
    hostname: '127.0.0.1',
    port,
    pathPrefix: '/',
    ...(tls && { certHost: 'origin.test', caCertificates: [tls.cert] }),
    useSni: true,
    connectTimeoutMs: 1000,
    firstByteTimeoutMs: 15000,
    betweenBytesTimeoutMs: 10000,
  };
}

const GET: BackendRequest = { method: 'GET', url: 'http://127.0.0.1/', headers: [], autoDecompress: false };

/** One request through the host's pooled agents, its body read to the end (which frees the connection). */
async function fetchOnce(backend: BackendConfig): Promise<{ result: WaitResult; body: string }> {
  const streams: RemoteStream[] = [];
  const upstream = sendUpstream(backend, GET, null, false, (stream) => streams.push(stream));
  const result = await upstream.result;
  let body = '';
  const [stream] = streams;
  if (stream)
    for (let chunk = await stream.read(1 << 16); chunk; chunk = await stream.read(1 << 16)) body += chunk.toString();
  return { result, body };
}

let certificate: { key: string; cert: string };
beforeAll(async () => {
  certificate = await selfSignedCertificate('origin.test');
});

let running: Backend | null = null;
afterEach(async () => {
  for (const socket of running?.connections ?? []) socket.destroy();
  await new Promise((resolve) => (running ? running.server.close(resolve) : resolve(undefined)));
  running = null;
});

describe('pooled backend connections', () => {
  it.each(['http', 'https with its own CA'])(
    '(%s) are closed by the host before the keep-alive timeout the backend announced, and not reused',
    async (kind) => {
      // Node's agent honours `Keep-Alive: timeout=N` (closing at N - 1 s) only when it has an idle timeout
      // of its own; without one it would keep this connection and, with a real server, write the next
      // request into the server's close ("socket hang up").
      const tls = kind === 'http' ? undefined : certificate;
      running = await startBackend({ keepAlive: 'timeout=2', tls });
      const backend = backendConfig(running.port, tls);
      const first = await fetchOnce(backend);
      expect(first.result.ok).toBe(true);
      expect(first.body).toBe('ok');
      const [socket] = running.connections;
      await within(
        new Promise((resolve) => socket!.once('close', resolve)),
        10_000,
        'the host kept the idle connection past the announced keep-alive',
      );
      const second = await fetchOnce(backend);
      expect(second.body).toBe('ok');
      expect(running.connections).toHaveLength(2);
    },
  );

  it('leave a request on a reused connection that waits longer than the announced keep-alive to the first-byte timeout', async () => {
    // timeout=2 gives the reused socket a 1 s idle limit; its second answer comes after 1.5 s.
    running = await startBackend({ keepAlive: 'timeout=2', answerDelayMs: [0, 1500] });
    const backend = backendConfig(running.port);
    expect((await fetchOnce(backend)).body).toBe('ok');
    const slow = await fetchOnce(backend);
    expect(slow.result.ok).toBe(true);
    expect(slow.body).toBe('ok');
    expect(running.connections).toHaveLength(1);
  });

  it("leave a first request that waits longer than the host's own idle limit to the first-byte timeout", async () => {
    // A new connection carries the agent's idle limit from the start, while the request waits for its answer.
    running = await startBackend({ keepAlive: 'timeout=30', answerDelayMs: [BACKEND_IDLE_MS + 500] });
    const slow = await fetchOnce(backendConfig(running.port));
    expect(slow.result.ok).toBe(true);
    expect(slow.body).toBe('ok');
  });
});
