// The proof of work's cost to the room (docs/bots.md), in the same run and on one timed host, one
// request of each scenario in turn (bench/room-time.ts): a due wait token bringing its right solution
// against the same token without one (its draw lost either way: the successor and its waiting page
// alike), so the difference is the check (one HMAC, eight counters compared); and a waiting answer that
// carries the challenge (one HMAC and eight SHA-256 digests) against one that does not, the same
// not-due token's page in a room asking a proof and in one that does not. The difficulty changes
// neither: it is only the modulus of the counters.
import type { EchoOrigin } from '../lib/echo-origin.js';
import { mintToken, nowSeconds, windowBoundary } from '../lib/mint.js';
import { solveProof } from '../lib/proof-solve.js';
import type { Settings } from '../lib/room-host.js';
import { cookieName } from '../src/core/request/index.js';
import { drawValue, dueAt, signatureOf, staleAt } from '../src/core/decision/index.js';
import { hmacKey, PROOF_HEADER } from '../src/core/tokens/index.js';
import { ROUTING_KEY, roomKey } from '../src/core/settings/index.js';
import { round2 } from './room-figures.js';
import { roomTimes, type RoomTime } from './room-time.js';

/** The difficulty measured at (seconds on a low-end phone); small, so the bench solves it in a few seconds. */
export const BENCH_PROOF_SECONDS = 0.5;

/** The identity header the two rooms read, so each token can be of its own identity. */
const IDENTITY_HEADER = 'x-bench-id';

export interface ProofCost {
  seconds: number;
  /** A due token and its right solution (`proof: valid`), its draw lost: the successor's waiting page. */
  valid: RoomTime;
  /** The same token without a proof (`proof: missing`), its draw lost alike. */
  missing: RoomTime;
  /** valid - missing and valid / missing, medians: the check. */
  checkUs: number;
  checkRatio: number;
  /** A not-due token's waiting page in the room asking a proof: with the challenge. */
  challenge: RoomTime;
  /** The same in a room asking none. */
  plain: RoomTime;
  challengeUs: number;
  challengeRatio: number;
}

/**
 * A wait token of room `room` signed with `keyBytes`, due by `now` and at least `marginSec` from stale,
 * whose draw is lost at `pct` (so at any share of it too): the identity `header:bench-proof-N` it is of.
 */
export async function dueLosingToken(
  keyBytes: Uint8Array,
  kid: string,
  room: string,
  d: number,
  pct: number,
  now = nowSeconds(),
  marginSec = 600,
): Promise<{ token: string; visitor: string }> {
  const config = { waitPeriodSeconds: d };
  for (const steps of [-1, 0]) {
    const exp = windowBoundary(d, steps, now);
    if (staleAt(exp, config) - now < marginSec) continue;
    for (let i = 0; i < 2000; i++) {
      const visitor = `bench-proof-${i}`;
      const token = await mintToken({ key: keyBytes, kid, identity: `header:${visitor}` }, { dec: 'wait', exp, room });
      if (dueAt(token, exp, config) <= now && drawValue(signatureOf(token)) * 100 >= pct) return { token, visitor };
    }
  }
  throw new Error(`no identity has a due wait token losing at ${pct} % (probability ~0)`);
}

/**
 * `settings` must have windows long enough that nothing expires during the run (bench/room-scenarios.ts's
 * hour) and a chance below 100, so a draw can be lost.
 */
export async function proofCost(
  origin: EchoOrigin,
  settings: Settings,
  keyBytes: Uint8Array,
  kid: string,
  requests = 1500,
): Promise<ProofCost> {
  const d = Number(settings.wait_period_duration);
  const pct = Number(settings.allow_percentage);
  const key = await hmacKey(keyBytes);
  const due = await dueLosingToken(keyBytes, kid, 'proof', d, pct);
  const solution = await solveProof(due.token, key, BENCH_PROOF_SECONDS);
  const notDueExp = windowBoundary(d, 1);
  const notDue = async (room: string): Promise<string> =>
    mintToken({ key: keyBytes, kid, identity: `header:bench-waiting` }, { dec: 'wait', exp: notDueExp, room });
  const waitingProof = await notDue('proof');
  const waitingPlain = await notDue('plain');
  const store = {
    [ROUTING_KEY]: JSON.stringify({
      rooms: [
        { id: 'proof', routes: ['/proof'] },
        { id: 'plain', routes: ['/plain'] },
      ],
    }),
    [roomKey('proof')]: JSON.stringify({ proof_of_work: 'fixed', proof_seconds: String(BENCH_PROOF_SECONDS) }),
  };
  const as =
    (visitor: string, room: string, token: string, extra: Record<string, string> = {}) =>
    () => ({ [IDENTITY_HEADER]: visitor, cookie: `${cookieName(room)}=${token}`, ...extra });
  const page = (s: number): boolean => s === 200;
  const times = await roomTimes(
    origin,
    { ...settings, identity: `header:${IDENTITY_HEADER}`, hammer_limit: '0' },
    keyBytes,
    [
      {
        name: 'valid',
        path: '/proof/page',
        headers: as(due.visitor, 'proof', due.token, { [PROOF_HEADER]: solution }),
        expect: page,
      },
      { name: 'missing', path: '/proof/page', headers: as(due.visitor, 'proof', due.token), expect: page },
      { name: 'challenge', path: '/proof/page', headers: as('bench-waiting', 'proof', waitingProof), expect: page },
      { name: 'plain', path: '/plain/page', headers: as('bench-waiting', 'plain', waitingPlain), expect: page },
    ],
    requests,
    store,
    { alternate: true },
  );
  const { valid, missing, challenge, plain } = times as Record<'valid' | 'missing' | 'challenge' | 'plain', RoomTime>;
  return {
    seconds: BENCH_PROOF_SECONDS,
    valid,
    missing,
    checkUs: round2(valid.medianUs - missing.medianUs),
    checkRatio: round2(valid.medianUs / missing.medianUs),
    challenge,
    plain,
    challengeUs: round2(challenge.medianUs - plain.medianUs),
    challengeRatio: round2(challenge.medianUs / plain.medianUs),
  };
}

/** The comparison as printed. */
export function proofCostLines(p: ProofCost): string[] {
  const t = (r: RoomTime): string => `${r.medianUs} us median (p90 ${r.p90Us})`;
  const lines = [
    `\nproof of work (proof_of_work = fixed, ${p.seconds} s; the room's own time, one request of each in turn):`,
    `  checking a solution: a due token with its right solution ${t(p.valid)} against the same draw without one ${t(p.missing)}: ${sign(p.checkUs)} us, ${p.checkRatio}x`,
    `  the challenge in a waiting answer (1 HMAC + 8 SHA-256): ${t(p.challenge)} against a room asking none ${t(p.plain)}: ${sign(p.challengeUs)} us, ${p.challengeRatio}x`,
  ];
  const unexpected = [p.valid, p.missing, p.challenge, p.plain].reduce(
    (n, r) => n + (r.unexpected ?? 0) + r.untimed,
    0,
  );
  if (unexpected > 0)
    lines.push(
      `  WARNING: ${unexpected} answers were untimed or had another status than the waiting page: these figures measure something else`,
    );
  return lines;
}

const sign = (n: number): string => (n >= 0 ? `+${n}` : String(n));
