// The demo origin behind the waiting room on `npm start`: a tiny "shop" on 127.0.0.1:7070 that shows
// what an origin sees. Its pages list the cookies that reached it, so you can watch the rooms'
// `waiting_room_ID` cookies stay at the edge, and say which room the store's routing sends their path
// to (npm start passes it; in the demo's, /checkout goes to the checkout room, the rest to the shop); /webhooks
// answers POSTs, which a rule sends past the rooms; /logout shows how an origin ends a session.
// With a capacity (npm start gives it one: DEMO_CAPACITY) it serves a few requests at once and makes
// the rest wait in line, answering 503 to one that waited too long (scripts/demo-capacity.ts): a shop
// that slows down with load, whose pace the autopilot (target_mode=auto) can find.
//
//   npx tsx scripts/demo-origin.ts [--port 7070] [--host 127.0.0.1] [--capacity N [--service-ms 125] [--max-wait-ms 2000]]
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { COOKIE_PREFIX, isRoomCookie } from '../src/core/request/index.js';
import { isMain, runTool, UsageError } from '../lib/cli.js';
import {
  BUSY,
  capacityOption,
  capacityText,
  MAX_WAIT_MS,
  SERVICE_MS,
  ShopCapacity,
  type CapacityOptions,
} from './demo-capacity.js';

export const DEMO_ORIGIN_PORT = 7070;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The Cookie header as name/value pairs, in the order the origin received them. */
function parseCookies(header: string | undefined): [string, string][] {
  if (!header) return [];
  return header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const eq = part.indexOf('=');
      return eq < 0 ? [part, ''] : [part.slice(0, eq).trim(), part.slice(eq + 1).trim()];
    });
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Demo shop</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
nav a{margin-right:1rem}table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:.25rem .5rem;text-align:left}
code{background:#f2f2f2;padding:0 .2rem}.ok{color:#075e2b}.bad{color:#a30000}
</style></head>
<body>
<nav><a href="/">Shop</a><a href="/products">Products</a><a href="/checkout">Checkout</a><a href="/logout">Leave (log out)</a></nav>
<main>
${body}
</main>
</body></html>
`;
}

function cookieReport(req: IncomingMessage): string {
  const cookies = parseCookies(req.headers.cookie);
  const leaked = cookies.some(([name]) => isRoomCookie(name));
  const rows = cookies
    .map(([n, v]) => `<tr><td><code>${escapeHtml(n)}</code></td><td><code>${escapeHtml(v)}</code></td></tr>`)
    .join('\n');
  return `<h2>Cookies the shop received</h2>
${cookies.length === 0 ? '<p>None.</p>' : `<table><thead><tr><th>name</th><th>value</th></tr></thead><tbody>\n${rows}\n</tbody></table>`}
<p id="room-cookie" class="${leaked ? 'bad' : 'ok'}">${
    leaked
      ? `A <code>${COOKIE_PREFIX}_…</code> cookie reached the origin: the request did not pass through the room.`
      : `No <code>${COOKIE_PREFIX}_…</code> cookie reached the origin: the room keeps its cookies at the edge.`
  }</p>`;
}

/** The room the store's routing sends a path to (null: none), read at each page; absent: the demo routing's. */
export type RoomOf = (url: URL) => Promise<string | null>;

/** Whether the store routes the demo's paths as the demo routing does (its words then hold). */
async function isDemoRouting(url: URL, roomOf: RoomOf): Promise<boolean> {
  const at = (p: string) => roomOf(new URL(p, url)).catch(() => null);
  return (await at('/checkout')) === 'checkout' && (await at('/')) === 'shop';
}

/** The demo routing's (local/config.example.json): /checkout to the checkout room, the rest to the shop room. */
const demoRoomOf: RoomOf = async (url) =>
  url.pathname === '/checkout' || url.pathname.startsWith('/checkout/') ? 'checkout' : 'shop';

/**
 * Which room the visitor passed to reach this page. The origin cannot tell from the request (the
 * room's cookies never reach it), so it says what the routing does with the path: the demo routing's
 * own words for its two rooms, and plain ones for a routing the operator made.
 */
function roomNote(path: string, room: string | null, demo: boolean): string {
  if (room === null)
    return `<p id="room">No room decided <code>${escapeHtml(path)}</code>: the routing sends it straight to the origin (a bypass rule, or no route and no default room; <code>npm run tune</code> shows the routing).</p>`;
  if (!demo || (room !== 'checkout' && room !== 'shop')) {
    return `<p id="room">You came through the <strong>${escapeHtml(room)}</strong> room: the routing sends <code>${escapeHtml(path)}</code> there (<code>npm run tune</code> shows its rooms and their settings).</p>`;
  }
  return room === 'checkout'
    ? `<p id="room">You came through the <strong>checkout</strong> room: the demo routing sends <code>/checkout</code> there. It has its own settings: a 5-second wait window and, with <code>npm start -- --control</code>, a target of 30 new visitors a minute (<code>npm run tune -- --room checkout new_users_per_minute=60</code> changes it).</p>`
    : `<p id="room">You came through the <strong>shop</strong> room: the demo routing sends <code>${escapeHtml(path)}</code> there (its route is <code>/</code>, and it is the default room). <a href="/checkout">The checkout</a> has a room of its own.</p>`;
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    // Each page shows this request's cookies; a cached copy would show someone else's.
    'cache-control': 'no-store, private',
    ...headers,
  });
  res.end(body);
}

/**
 * The shop's own session cookie, set on the first page view: it shows that the origin's cookies pass
 * through the room both ways while the room's own cookie stays at the edge.
 */
function shopCookie(req: IncomingMessage): Record<string, string> {
  if (parseCookies(req.headers.cookie).some(([name]) => name === 'shop_session')) return {};
  return { 'set-cookie': `shop_session=${randomBytes(6).toString('hex')}; Path=/; HttpOnly; SameSite=Lax` };
}

/** The shop's pages that show the visitor's room and cookies: the title, and what the page says first. */
const SHOP_PAGES = new Map<string, { title: string; intro: string }>([
  [
    '/',
    {
      title: 'Welcome',
      intro: `<h1>You are in!</h1>
<p>The waiting room let you through to the shop. Browse around: you will not queue again until your session ends.</p>
<p>Go on to <a href="/products">the products</a>, or <a href="/logout">leave</a> to give your place back.</p>`,
    },
  ],
  [
    '/products',
    {
      title: 'Products',
      intro: `<h1>Products</h1>
<ul><li>A very popular concert ticket</li><li>A limited-edition sneaker</li></ul>
<p><a href="/">Back to the shop</a> or on to <a href="/checkout">the checkout</a></p>`,
    },
  ],
  [
    '/checkout',
    {
      title: 'Checkout',
      intro: `<h1>Checkout</h1>
<p>Your basket: one very popular concert ticket. (This is a demo: nothing is sold.)</p>`,
    },
  ],
]);

/** The room note for `url`'s path; an unknown routing (an unreadable store) gets the demo's words. */
async function noteFor(url: URL, roomOf: RoomOf | undefined): Promise<string> {
  const room = roomOf === undefined ? await demoRoomOf(url) : await roomOf(url).catch(() => demoRoomOf(url));
  return roomNote(url.pathname, room, roomOf === undefined || (await isDemoRouting(url, roomOf)));
}

async function handleDemo(req: IncomingMessage, res: ServerResponse, roomOf: RoomOf | undefined): Promise<void> {
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'origin.invalid'}`);
  const path = url.pathname;
  if (path === '/webhooks' || path.startsWith('/webhooks/')) {
    webhook(req, res, path);
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(res, 405, page('Not allowed', '<h1>Only GET here</h1>'), { allow: 'GET, HEAD' });
    return;
  }
  const shopPage = SHOP_PAGES.get(path);
  if (shopPage !== undefined) {
    const body = `${shopPage.intro}\n${await noteFor(url, roomOf)}\n${cookieReport(req)}`;
    send(res, 200, page(shopPage.title, body), shopCookie(req));
    return;
  }
  switch (path) {
    case '/health':
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      res.end('ok\n');
      return;
    case '/logout':
      // The room removes this header and clears its cookie: the visitor's next request queues again.
      send(
        res,
        200,
        page(
          'Goodbye',
          `<h1>You left the shop</h1>
<p>The shop answered with <code>waiting-room-command: revoke</code>, so the room cleared its cookie.
Your next visit starts in the waiting room again.</p>
<p><a href="/">Come back</a></p>`,
        ),
        { 'waiting-room-command': 'revoke' },
      );
      return;
    default:
      send(
        res,
        404,
        page(
          'Not found',
          `<h1>Not found</h1><p>The shop has no <code>${escapeHtml(path)}</code>. <a href="/">Back to the shop</a></p>`,
        ),
      );
  }
}

/**
 * A payment provider's webhook: machines POST here, and the demo's `webhooks` rule sends them past the
 * rooms (a webhook must never queue). Answers what it received, in JSON.
 */
function webhook(req: IncomingMessage, res: ServerResponse, path: string): void {
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    res.end('POST only: a webhook\n');
    return;
  }
  let size = 0;
  req.on('data', (chunk: Buffer) => (size += chunk.length));
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(`${JSON.stringify({ received: true, path, bytes: size })}\n`);
  });
}

/** The shop's answer when no worker came in time: a 503 a browser or the load tool tries again after. */
function busy(res: ServerResponse): void {
  send(
    res,
    503,
    page(
      'Busy',
      '<h1>The shop is busy</h1><p>Too many visitors at once: try again in a few seconds.</p><p><a href="/">Try again</a></p>',
    ),
    { 'retry-after': '5' },
  );
}

/**
 * Starts the shop; resolves once it listens. Port 0 picks a free port (tests). `capacity`: serve at
 * most that many requests at once (scripts/demo-capacity.ts); /health is answered outside it.
 */
export function startDemoOrigin(
  options: { port?: number; host?: string; roomOf?: RoomOf; capacity?: CapacityOptions } = {},
): Promise<{ server: Server; url: string; capacity: ShopCapacity | null }> {
  const capacity = options.capacity === undefined ? null : new ShopCapacity(options.capacity);
  const server = createServer((req, res) => {
    const failed = (error: unknown) => {
      if (!res.headersSent)
        send(res, 500, page('Error', `<h1>The shop failed</h1><p>${escapeHtml(String(error))}</p>`));
      else res.end();
    };
    if (capacity === null || (req.url ?? '/').split('?')[0] === '/health') {
      handleDemo(req, res, options.roomOf).catch(failed);
      return;
    }
    capacity
      .serve(() => handleDemo(req, res, options.roomOf))
      .then((answer) => answer === BUSY && busy(res))
      .catch(failed);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEMO_ORIGIN_PORT, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      const { address, port } = server.address() as AddressInfo;
      resolve({ server, url: `http://${address}:${port}`, capacity });
    });
  });
}

const USAGE = `usage: tsx scripts/demo-origin.ts [--port N] [--host ADDR] [--capacity N] [--service-ms MS] [--max-wait-ms MS]
  the demo shop npm start runs behind the room; stops on SIGINT or SIGTERM
  --port N          the port to listen on (default 7070; 0: any free port)
  --host ADDR       the address to listen on (default 127.0.0.1)
  --capacity N      serve N requests at once, the rest in line (default: no limit, no delay)
  --service-ms MS   with --capacity, a request's time once served (default ${SERVICE_MS})
  --max-wait-ms MS  with --capacity, the longest wait in line before a 503 (default ${MAX_WAIT_MS})`;

/** Serves the shop until SIGINT or SIGTERM. */
async function serve(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      capacity: { type: 'string' },
      'service-ms': { type: 'string' },
      'max-wait-ms': { type: 'string' },
    },
  });
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535))
    throw new UsageError(`--port must be a port number, not "${values.port}"`);
  const capacity = capacityOption(values);
  const { server, url } = await startDemoOrigin({ port, host: values.host, ...(capacity ? { capacity } : {}) }).catch(
    (error: unknown) => {
      throw new Error(`cannot listen: ${(error as Error).message}`);
    },
  );
  console.log(`demo origin (the shop) listening on ${url}: ${capacityText(capacity)}`);
  await new Promise<void>((resolve) => {
    const stop = () => server.close(() => resolve());
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return 0;
}

if (isMain(import.meta.url)) runTool('demo origin', USAGE, serve);
