// The origin behind the room on the local host: it answers with what it received, and the request
// steers its answer (a command, a cookie, a size, a dropped connection).
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What the origin received, as it tells it back in its JSON body. */
export interface EchoedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface EchoOrigin {
  url: string;
  /** Every request the origin has received, oldest first. */
  requests: EchoedRequest[];
  close(): Promise<void>;
}

/**
 * An origin that answers with what it received. The request steers its answer, so one origin serves
 * every test: `x-echo-command: V` answers with `waiting-room-command: V`, `x-echo-set-cookie: C`
 * answers with its own `Set-Cookie: C`, `x-echo-bytes: N` answers N bytes instead of the echo (a page
 * of a realistic size), `x-echo-die: 1` drops the connection without answering (a dead origin as
 * the room sees it), and `x-echo-delay-ms: N` holds the answer's headers back N ms (a slow origin). An
 * HTML-accepting client (a browser) gets a small HTML page.
 */
export async function startEchoOrigin(): Promise<EchoOrigin> {
  const requests: EchoedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    const answer = (): void => {
      const echoed: EchoedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(echoed);
      if (req.headers['x-echo-die']) {
        req.socket.destroy();
        return;
      }
      const headers: http.OutgoingHttpHeaders = { 'x-echo': '1' };
      const command = req.headers['x-echo-command'];
      if (typeof command === 'string') headers['waiting-room-command'] = command;
      const cookie = req.headers['x-echo-set-cookie'];
      if (typeof cookie === 'string') headers['set-cookie'] = [cookie];
      const size = Number(req.headers['x-echo-bytes']);
      if (Number.isSafeInteger(size) && size > 0) {
        headers['content-type'] = 'application/octet-stream';
        res.writeHead(200, headers);
        res.end(Buffer.alloc(size, 'x'));
        return;
      }
      const json = JSON.stringify({ echo: echoed });
      if ((req.headers.accept ?? '').includes('text/html')) {
        headers['content-type'] = 'text/html; charset=utf-8';
        res.writeHead(200, headers);
        res.end(
          `<!doctype html><title>Origin</title><h1 id="origin">The origin page</h1><pre>${escapeHtml(json)}</pre>`,
        );
      } else {
        headers['content-type'] = 'application/json';
        res.writeHead(200, headers);
        res.end(json);
      }
    };
    req.on('end', () => {
      // Only a request that asks waits: a timer for every answer would slow the benchmarks' origin.
      const delay = Number(req.headers['x-echo-delay-ms']);
      if (delay > 0) setTimeout(answer, delay);
      else answer();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}
