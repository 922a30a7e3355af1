// The dashboard: one self-contained page (no CDN, no external fetch) and the JSON it polls, served
// on 127.0.0.1 only: it shows an operator's traffic and settings.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { DashboardSnapshot } from '../types.js';

const page = readFileSync(new URL('./page.html', import.meta.url), 'utf8');
/** The origin's charts and the autopilot's line (docs/control/auto.md), a script of the page's own. */
const originScript = readFileSync(new URL('./origin.js', import.meta.url), 'utf8');

/** `onRead`: POST /api/read asks the controller to read the settings at its next tick. */
export function startDashboard(
  port: number,
  snapshot: () => DashboardSnapshot,
  onRead?: () => void,
): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    // JSON only, so a page elsewhere cannot post it from a plain form (a cross-origin JSON post needs a preflight, which is never answered).
    if (path === '/api/read' && onRead !== undefined && req.method === 'POST') {
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
        res
          .writeHead(415, { 'content-type': 'text/plain' })
          .end('POST /api/read takes content-type: application/json\n');
        return;
      }
      onRead();
      res
        .writeHead(202, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end('{"read":"at the next tick"}');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/api/snapshot') {
      res
        .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify(snapshot()));
      return;
    }
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page);
      return;
    }
    if (path === '/origin.js') {
      res
        .writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' })
        .end(originScript);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const actual = typeof address === 'object' && address !== null ? address.port : port;
      resolve({ server, url: `http://127.0.0.1:${actual}/` });
    });
  });
}
