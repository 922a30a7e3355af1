// The decision table (docs/design.md) as data: one row per thing a visitor can bring, with what the
// visitor must see. test/e2e/decisions.test.ts runs every row against the built Wasm on the host; the
// rows only need a signing key and a clock, so a suite against the pure handler can run them too.
// expect-scenario.ts checks an answer against its row.
import { dueAt, staleAt } from '../../src/core/decision/draw.js';
import { nowSeconds, windowBoundary } from '../../lib/mint.js';
import { TEST_KID, mintToken, tokenDraw, type Room, type Settings } from '../../lib/room-host.js';
import type { Outcome, ReasonCode } from '../../src/core/types.js';
import { A, D, VISITOR_IDENTITY } from './base-settings.js';

/** What happens to the `waiting_room` cookie. */
export type CookieEffect = 'none' | 'new-wait' | 'new-allow' | 'cleared';

export interface Visit {
  path?: string;
  /** The Cookie header, built with the room's key. */
  cookie?: string;
  headers?: Record<string, string>;
}

export interface Scenario {
  name: string;
  settings?: Settings;
  /** Raw store values besides the settings: `routing`, rooms' own values (src/core/settings/layout.ts). */
  store?: Record<string, string>;
  visit: (room: Pick<Room, 'key'>) => Promise<Visit>;
  outcome: Outcome;
  /** Reasons the log line may name (more than one where the design leaves the detail open). */
  reasons: ReasonCode[];
  cookie: CookieEffect;
  /** For new tokens: the expiry the room must have given it. */
  expiry?: () => number[];
}

const wait = (room: Pick<Room, 'key'>, exp: number, identity?: string): Promise<string> =>
  mintToken(room, { dec: 'wait', exp, ...(identity ? { identity } : {}) });
const allow = (room: Pick<Room, 'key'>, exp: number): Promise<string> => mintToken(room, { dec: 'allow', exp });

/**
 * A wait token that can be drawn right now (past its due time, before it goes stale) whose draw wins
 * (or loses) at `percentage`, with the visitor it belongs to (under VISITOR_IDENTITY). The room's own
 * timing and draw, computed here. Only the current and the previous window's tokens are drawable, so
 * the choice is among visitors; the current window first, since its tokens stay drawable the longest.
 */
export async function dueWaitToken(
  room: Pick<Room, 'key'>,
  percentage: number,
  wins: boolean,
): Promise<{ token: string; visitor: string }> {
  const config = { waitPeriodSeconds: D };
  const now = nowSeconds();
  for (const steps of [0, -1]) {
    const exp = windowBoundary(D, steps, now);
    // A few seconds of margin: the request reaches the room a little after this check.
    if (now + 5 >= staleAt(exp, config)) continue;
    for (let i = 0; i < 400; i++) {
      const visitor = `visitor-${i}`;
      const token = await wait(room, exp, `header:${visitor}`);
      if (dueAt(token, exp, config) <= now && tokenDraw(token) * 100 < percentage === wins) return { token, visitor };
    }
  }
  throw new Error('no visitor has a drawable token with that draw (probability ~2^-400)');
}

const dueVisit = async (room: Pick<Room, 'key'>, wins: boolean): Promise<Visit> => {
  const { token, visitor } = await dueWaitToken(room, 50, wins);
  return { cookie: cookie(token), headers: { 'x-visitor': visitor } };
};

/** Around a request the window may turn over; both boundaries are then right. */
const expiryNow = (steps: number, period: number) => (): number[] => {
  const before = windowBoundary(period, steps);
  return [before, windowBoundary(period, steps, Math.floor(Date.now() / 1000) + 1)];
};

const cookie = (token: string): string => `waiting_room_default=${token}`;

function flipChar(text: string, at: number): string {
  const c = text[at]!;
  return text.slice(0, at) + (c === 'A' ? 'B' : 'A') + text.slice(at + 1);
}

export const scenarios: Scenario[] = [
  {
    name: 'a bypass rule sends its requests to the origin',
    store: {
      routing: JSON.stringify({
        rooms: [{ id: 'default', routes: ['/'] }],
        rules: [{ id: 'static', if: { path: { prefix: ['/static', '/health'] } }, then: 'bypass' }],
      }),
    },
    visit: async () => ({ path: '/static/app.css' }),
    outcome: 'origin',
    reasons: ['rule_bypass'],
    cookie: 'none',
  },
  {
    name: 'enabled=false sends everyone to the origin',
    settings: { enabled: 'false' },
    visit: async () => ({}),
    outcome: 'origin',
    reasons: ['disabled'],
    cookie: 'none',
  },
  {
    name: 'allow_percentage 0 denies and clears the cookie',
    settings: { allow_percentage: '0' },
    visit: async (room) => ({ cookie: cookie(await allow(room, windowBoundary(A, 2))) }),
    outcome: 'deny',
    reasons: ['deny_all'],
    cookie: 'cleared',
  },
  {
    name: 'allow_percentage 100 admits a new visitor with an allow token',
    settings: { allow_percentage: '100' },
    visit: async () => ({}),
    outcome: 'origin',
    reasons: ['allow_all'],
    cookie: 'new-allow',
    expiry: expiryNow(2, A),
  },
  {
    name: 'allow_percentage 100 keeps a valid allow token as it is',
    settings: { allow_percentage: '100' },
    visit: async (room) => ({ cookie: cookie(await allow(room, windowBoundary(A, 2))) }),
    outcome: 'origin',
    reasons: ['allow_all', 'allow_valid'],
    cookie: 'none',
  },
  {
    name: 'no token: a new wait token and the waiting page',
    visit: async () => ({}),
    outcome: 'startwaiting',
    reasons: ['no_token'],
    cookie: 'new-wait',
    expiry: expiryNow(2, D),
  },
  {
    name: 'tampered token (payload changed, signature kept)',
    visit: async (room) => {
      const token = await allow(room, windowBoundary(A, 2));
      const [h, p, s] = token.split('.') as [string, string, string];
      return { cookie: cookie(`${h}.${flipChar(p, 5)}.${s}`) };
    },
    outcome: 'startwaiting',
    reasons: ['token_bad_signature', 'token_malformed'],
    cookie: 'new-wait',
    expiry: expiryNow(2, D),
  },
  {
    name: 'tampered signature',
    visit: async (room) => {
      const token = await allow(room, windowBoundary(A, 2));
      return { cookie: cookie(flipChar(token, token.length - 10)) };
    },
    outcome: 'startwaiting',
    reasons: ['token_bad_signature'],
    cookie: 'new-wait',
  },
  {
    name: 'truncated token (signature cut off)',
    visit: async (room) => {
      const token = await allow(room, windowBoundary(A, 2));
      return { cookie: cookie(token.slice(0, token.lastIndexOf('.') + 20)) };
    },
    outcome: 'startwaiting',
    // A cut that leaves stray low bits in the last character is another spelling: refused as such.
    reasons: ['token_bad_signature', 'token_malformed', 'token_noncanonical'],
    cookie: 'new-wait',
  },
  {
    name: 'truncated token (two parts only)',
    visit: async (room) => {
      const token = await allow(room, windowBoundary(A, 2));
      return { cookie: cookie(token.slice(0, token.lastIndexOf('.'))) };
    },
    outcome: 'startwaiting',
    reasons: ['token_malformed'],
    cookie: 'new-wait',
  },
  {
    name: 'token signed with a foreign key under our key id',
    visit: async (room) => ({
      cookie: cookie(
        await mintToken(room, { dec: 'allow', exp: windowBoundary(A, 2), key: new Uint8Array(64).fill(7) }),
      ),
    }),
    outcome: 'startwaiting',
    reasons: ['token_bad_signature'],
    cookie: 'new-wait',
  },
  {
    name: 'token naming a key id the store does not hold',
    visit: async (room) => ({
      cookie: cookie(
        await mintToken(room, {
          dec: 'allow',
          exp: windowBoundary(A, 2),
          kid: `${TEST_KID}-gone`,
          key: new Uint8Array(64).fill(9),
        }),
      ),
    }),
    outcome: 'startwaiting',
    reasons: ['token_unknown_kid'],
    cookie: 'new-wait',
  },
  {
    name: "another identity's token (identity from a header)",
    settings: { identity: 'header:x-visitor' },
    visit: async (room) => ({
      cookie: cookie(await mintToken(room, { dec: 'allow', exp: windowBoundary(A, 2), identity: 'header:alice' })),
      headers: { 'x-visitor': 'bob' },
    }),
    outcome: 'startwaiting',
    reasons: ['token_other_identity'],
    cookie: 'new-wait',
  },
  {
    name: 'the same token is accepted for its own identity (header)',
    settings: { identity: 'header:x-visitor' },
    visit: async (room) => ({
      cookie: cookie(await mintToken(room, { dec: 'allow', exp: windowBoundary(A, 2), identity: 'header:alice' })),
      headers: { 'x-visitor': 'alice' },
    }),
    outcome: 'origin',
    reasons: ['allow_valid'],
    cookie: 'none',
  },
  {
    name: 'malformed token (not a JWS)',
    visit: async () => ({ cookie: cookie('not-a-token') }),
    outcome: 'startwaiting',
    reasons: ['token_malformed'],
    cookie: 'new-wait',
  },
  {
    name: 'unsigned token (alg none)',
    visit: async () => {
      const enc = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString('base64url');
      return {
        cookie: cookie(
          `${enc({ alg: 'none', kid: TEST_KID })}.${enc({ dec: 'allow', exp: windowBoundary(A, 2), sub: 'x' })}.`,
        ),
      };
    },
    outcome: 'startwaiting',
    reasons: ['token_malformed'],
    cookie: 'new-wait',
  },
  {
    name: 'oversized cookie value',
    visit: async () => ({ cookie: cookie('x'.repeat(5000)) }),
    outcome: 'startwaiting',
    reasons: ['token_oversized'],
    cookie: 'new-wait',
  },
  {
    name: 'duplicated cookies: a stale one first does not hide the valid one',
    visit: async (room) => ({
      cookie: `${cookie('stale.garbage.here')}; other=1; ${cookie(await allow(room, windowBoundary(A, 2)))}`,
    }),
    outcome: 'origin',
    reasons: ['allow_valid'],
    cookie: 'none',
  },
  {
    name: 'duplicated cookies, none valid',
    visit: async () => ({ cookie: `${cookie('a.b.c')}; ${cookie('x'.repeat(5000))}` }),
    outcome: 'startwaiting',
    reasons: ['token_malformed', 'token_oversized', 'token_duplicated'],
    cookie: 'new-wait',
  },
  {
    name: 'valid wait token, not yet due: waiting page, cookie left alone',
    visit: async (room) => ({ cookie: cookie(await wait(room, windowBoundary(D, 2))) }),
    outcome: 'keepwaiting',
    reasons: ['wait_not_due'],
    cookie: 'none',
  },
  {
    name: 'wait token due for its draw, which wins: allow token and origin',
    settings: VISITOR_IDENTITY,
    visit: (room) => dueVisit(room, true),
    outcome: 'origin',
    reasons: ['draw_won'],
    cookie: 'new-allow',
    expiry: expiryNow(2, A),
  },
  {
    name: 'wait token due for its draw, which loses: a wait token for the next window',
    settings: VISITOR_IDENTITY,
    visit: (room) => dueVisit(room, false),
    outcome: 'startwaiting',
    reasons: ['draw_lost'],
    cookie: 'new-wait',
    expiry: expiryNow(1, D),
  },
  {
    name: "wait token past its window of grace: drawn as the token its holder would hold now (the previous window's)",
    settings: { allow_percentage: '99.999' },
    visit: async (room) => ({ cookie: cookie(await wait(room, windowBoundary(D, -3))) }),
    outcome: 'origin',
    reasons: ['draw_won'],
    cookie: 'new-allow',
    expiry: expiryNow(2, A),
  },
  {
    name: 'valid allow token: origin, no new cookie',
    visit: async (room) => ({ cookie: cookie(await allow(room, windowBoundary(A, 2))) }),
    outcome: 'origin',
    reasons: ['allow_valid'],
    cookie: 'none',
  },
  {
    name: 'allow token past its expiry counts as no token',
    visit: async (room) => ({ cookie: cookie(await allow(room, windowBoundary(A, -1))) }),
    outcome: 'startwaiting',
    reasons: ['token_expired_allow'],
    cookie: 'new-wait',
    expiry: expiryNow(2, D),
  },
  {
    name: 'allow token past half its life is renewed',
    visit: async (room) => ({ cookie: cookie(await allow(room, windowBoundary(A, 1))) }),
    outcome: 'origin',
    reasons: ['allow_renewed'],
    cookie: 'new-allow',
    expiry: expiryNow(2, A),
  },
];
