// A warm-up for js-compute's build-time snapshot. Every Compute request starts from a fresh copy of
// the snapshot, so whatever a request does first (SpiderMonkey compiling a function on its first call,
// Mustache parsing a template, OpenSSL setting up HMAC-SHA-512 on the first sign) is paid again on
// every request unless the module's top level already did it at build time. What the room keeps
// (templates parsed, messages compiled and worded, the client messages) it keeps in the sandbox's
// memory (src/core/memory/): running the room's own steps here fills that memory's derived tables,
// the very ones the requests then read. The warm-up is not in that folder because it runs the whole
// room, which itself keeps things in the memory.
//
// The build runs the top level AND its pending promises before taking the snapshot (measured: a
// top-level `importKey().then(sign)` completes, and the first sign in a request then costs ~0.15 ms
// instead of ~1.8 ms). What the build does NOT allow: stores, backends, and the Request and Response
// builtins (they throw "only during request handling"). So `handle()` itself cannot run; its pure
// steps do, with a stand-in key store: the same code a new, waiting, admitted and denied visitor
// takes, with nothing of theirs left behind (key rings live per request, and the memory's tables that
// follow from the stores are used only when a request hands the memory over).
import { renderAnswer } from './pages/index.js';
import { enUS, checkOverrides, warmPageText } from './i18n/index.js';
import { parseRoomConfig } from './settings/index.js';
import {
  clearRoomCookie,
  cookieName,
  removeRoomCookie,
  roomCookies,
  setRoomCookie,
  resolveIdentity,
  requestFacts,
} from './request/index.js';
import { decide, type DecideResult } from './decision/index.js';
import { createKeyRing, PROOF_HEADER } from './tokens/index.js';
import { parseRouting, routeRequest } from './routing/index.js';
import type { Config } from './types.js';

const KID = 'warm-up';
// Any 64 bytes: tokens signed with it are thrown away, and no store holds this kid.
const KEY_BASE64 = btoa(String.fromCharCode(...Array.from({ length: 64 }, (_, i) => (i * 37 + 11) & 255)));
// A fixed moment: the warm-up must not depend on the build machine's clock.
const NOW_MS = 1_767_225_600_000;
const ignore = (): void => undefined;
const ROOM = 'shop';

/** A room's settings as a request reads them: the JSON values of the store, and the room's allow_percentage. */
function settings(allowPercentage: string, extra: Record<string, string> = {}): Config {
  const raws = {
    settings: JSON.stringify({ active_key: KID, wait_period_duration: '30' }),
    room: JSON.stringify(extra),
    percentage: allowPercentage,
    live: null,
  };
  return parseRoomConfig(ROOM, raws).config;
}

/** Rooms and rules of every kind a request tries: the routing's parse, its index and its evaluation. */
const ROUTING = JSON.stringify({
  rooms: [
    { id: 'shop', routes: ['/', 'shop.example/sale'] },
    { id: 'checkout', routes: ['/checkout', { host: '*.example', path: '/Cart', ignore_case: true }] },
  ],
  default_room: 'shop',
  rules: [
    { id: 'hooks', if: { path: { prefix: '/webhooks' }, method: 'POST' }, then: 'bypass' },
    {
      id: 'staff',
      if: {
        any: [
          { header: { name: 'x-staff', equals: '1' } },
          { cookie: 'staff' },
          { ip: ['10.0.0.0/8', '2001:db8::/32'] },
        ],
      },
      then: 'bypass',
    },
    { id: 'assets', if: { path: { suffix: ['.css', '.js'] } }, then: 'bypass' },
    { id: 'vip', if: { all: [{ query: { name: 'vip' } }, { not: { host: '*.internal' } }] }, then: 'room:checkout' },
  ],
});

async function routeOnce(): Promise<string> {
  const routing = parseRouting(ROUTING).routing;
  if (routing === null) return 'routing unusable';
  const url = new URL('https://shop.example/checkout/pay?vip=1');
  const headers = new Headers({ cookie: 'a=1; b=2', 'x-staff': '0' });
  // requestFacts reads only a request's method and headers; a Request cannot be made at build time.
  const facts = requestFacts(
    { method: 'GET', headers } as Request,
    url,
    headers.get('cookie'),
    '192.0.2.1',
    null,
    ignore,
  );
  const target = await routeRequest(routing, facts);
  return `route ${target.kind}${target.kind === 'room' ? ` ${target.room}` : ''}`;
}

async function decideFor(
  config: Config,
  cookie: string,
  nowMs = NOW_MS,
  proof: string | null = null,
): Promise<DecideResult> {
  const headers = new Headers({ accept: 'text/html', cookie: `other=1; ${cookie}` });
  if (proof !== null) headers.set(PROOF_HEADER, proof);
  // resolveIdentity reads only the headers of a request; a Request cannot be made at build time.
  const who = await resolveIdentity(config, { headers } as Request, '192.0.2.1', NOW_MS);
  const keys = createKeyRing(async (kid) => (kid === KID ? KEY_BASE64 : null), ignore);
  const result = await decide({
    config,
    keys,
    identity: who.identity,
    tokens: roomCookies(headers, config.room),
    nowMs,
    proof: { header: headers.get(PROOF_HEADER), json: false },
  });
  removeRoomCookie(headers);
  if (result.setToken !== null) setRoomCookie(result.setToken, config, true);
  if (result.clearCookie) clearRoomCookie(config, true);
  return result;
}

/** What roomPage() in handler.ts computes for a page, as the JSON answer and as HTML, minus the Response. */
function page(config: Config, result: DecideResult): void {
  for (const json of [true, false]) {
    renderAnswer({ config, result, nowMs: NOW_MS, random: () => 0.5, json, storedPage: () => null, diag: ignore });
  }
}

const cookieOf = (result: DecideResult): string => `${cookieName(ROOM)}=${result.setToken ?? ''}`;

/**
 * Runs each visitor's path once: new (sign), waiting (verify, not due), admitted (verify an allow
 * token), denied, new in a pre-queue, and a draw that asks for a proof (its puzzle, then a solution
 * checked); renders the four built-in pages. Resolves to the decisions seen, in that order
 * (a test checks that every path is reached). Never rejects: a failed warm-up only costs speed.
 */
export async function warmUp(): Promise<string[]> {
  const seen: string[] = [];
  try {
    const half = settings('50');
    const fresh = await decideFor(half, '');
    page(half, fresh);
    const waiting = await decideFor(half, cookieOf(fresh));
    page(half, waiting);
    const allowed = await decideFor(settings('100'), '');
    const admitted = await decideFor(half, cookieOf(allowed));
    const deny = settings('0');
    const denied = await decideFor(deny, cookieOf(fresh));
    page(deny, denied);
    // A pre-queue's countdown: its template and the event's time formatting.
    const iso = (ms: number): string => new Date(ms).toISOString();
    const prequeue = settings('50', { event_prequeue_start: iso(NOW_MS - 60_000), event_start: iso(NOW_MS + 600_000) });
    const counting = await decideFor(prequeue, '');
    page(prequeue, counting);
    // A draw that asks for a proof: the puzzle's HMAC and digests, its JSON and page variables; then at
    // its due time a solution checked (a well-formed wrong one: drawn at the reduced share, lost, the same every build).
    const proof = settings('50', { proof_of_work: 'fixed', proof_seconds: '1', bot_queue: 'on' });
    const asked = await decideFor(proof, '');
    page(proof, asked);
    const checked = await decideFor(proof, cookieOf(asked), asked.waitDueSec! * 1000, '0.0.0.0.0.0.0.0');
    page(proof, checked);
    // The log line's timestamp (handler.ts) is the only Date formatting on every request.
    new Date(NOW_MS).toISOString();
    for (const r of [fresh, waiting, admitted, denied, counting, asked, checked]) seen.push(`${r.outcome} ${r.reason}`);
    seen.push(await routeOnce());
    // Every English message compiled, not only those the pages above used (page-text.ts says why not every language's).
    seen.push(`messages ${warmPageText()}`);
    // An operator's strings are checked against the English messages' arguments: every one made now
    // (the catalog checked as if it were an override), so a sandbox's first page with overrides pays only for them.
    checkOverrides('en-US', JSON.stringify(enUS));
  } catch (error) {
    seen.push(`failed: ${String(error)}`);
  }
  return seen;
}
