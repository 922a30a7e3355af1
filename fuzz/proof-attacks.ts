// The proof of work under attack (docs/bots.md): the `proof` room asks every due draw for a proof
// (proof_of_work = fixed, a tiny difficulty so the run solves quickly), and these requests bring it
// everything but their own token's right solution: forged counters (random, one changed, reordered,
// congruent, huge, non-digits, too few or many, empty, `none`), a solution replayed from the same
// identity's previous window, another identity's, another room's, the right solution with a token
// of another window, and a stale token with its own right solution (replayed: the room catches the
// token up to a later window's, whose puzzle it never had). Every attacker's token is due and its draw lies between the chance without a
// proof and the chance with one: it loses unless the room calls its proof valid, so a forgery the
// room accepted would also reach the origin. A control (the owner's own token and its right solution,
// found by altcha-lib's solver) must be logged valid, or the oracle (fuzz/proof-oracle.ts) is blind.
import { mintToken, nowSeconds, windowBoundary } from '../lib/mint.js';
import { cookieName } from '../src/core/request/index.js';
import { drawValue, dueAt, signatureOf } from '../src/core/decision/index.js';
import { hmacKey, countersFor, PROOF_HEADER } from '../src/core/tokens/index.js';
import { solveProof } from '../lib/proof-solve.js';
import type { Attack } from './attacks.js';
import type { SentRequest } from './oracle.js';
import { PROOF_CHANCE, PROOF_FREE_SHARE, PROOF_ROOM, PROOF_SECONDS, WAIT_SECONDS } from './rooms.js';

/** The prefix of a proof attack's path: the request's number follows, so its decision line can be found. */
export const PROOF_PATH = '/proof/fz-';

/** The kind of the control request, which must be logged valid. */
export const PROOF_CONTROL = 'proof control: own due token, its right solution';

/** One identity's tokens in the proof room and their right solutions. */
export interface Holder {
  /** The `x-fuzz-id` value; the room sees `header:NAME`. */
  name: string;
  /** Due now (expires at the window's start), its draw lost without a proof and won with one. */
  current: string;
  /** The previous window's token, due too, its draw in the same range. */
  previous: string;
  /**
   * A token three windows old: stale, so the room draws the token it catches it up to (the previous
   * window's, or the current one's at a window's edge), both in the range.
   */
  stale: string;
  solution: { current: string; previous: string; otherRoom: string; stale: string };
}

export interface ProofMaterial {
  /** The window (its start) the tokens were made for. */
  window: number;
  /** Counters per sub-challenge (M). */
  counters: number;
  owner: Holder;
  attackers: Holder[];
}

type Rights = Pick<SentRequest, 'rights'>;
export type ProofAttack = Attack & Rights;

const d = WAIT_SECONDS;
const config = { waitPeriodSeconds: d };

/** The right solution of `token`, as an app finds it (lib/proof-solve.ts), at the room's difficulty. */
export const solve = (token: string, key: CryptoKey): Promise<string> => solveProof(token, key, PROOF_SECONDS);

/** Whether a token's draw is lost without a proof and won with one. */
export const drawBetween = (token: string): boolean => {
  const v = drawValue(signatureOf(token)) * 100;
  return v >= PROOF_CHANCE * PROOF_FREE_SHARE && v < PROOF_CHANCE;
};

/**
 * Tokens of `count` identities named `prefix-N` for the window that started at or before `now`
 * (whose draws are due by then) and the one before it, both with a draw between the two chances.
 */
export async function proofMaterial(
  signing: { bytes: Uint8Array; kid: string },
  now = nowSeconds(),
): Promise<ProofMaterial> {
  const key = await hmacKey(signing.bytes);
  const window = windowBoundary(d, 0, now);
  const holders: Holder[] = [];
  for (let i = 0; holders.length < 4; i++) {
    if (i > 20_000) throw new Error('no identity with due tokens in the draw range (probability ~0)');
    const name = holders.length === 0 ? `proof-owner-${i}` : `proof-attacker-${i}`;
    const base = { key: signing.bytes, kid: signing.kid, identity: `header:${name}` };
    const current = await mintToken(base, { dec: 'wait', exp: window, room: PROOF_ROOM });
    if (dueAt(current, window, config) > now || !drawBetween(current)) continue;
    const previous = await mintToken(base, { dec: 'wait', exp: window - d, room: PROOF_ROOM });
    if (!drawBetween(previous)) continue;
    const otherRoom = await mintToken(base, { dec: 'wait', exp: window, room: 'shop' });
    const stale = await mintToken(base, { dec: 'wait', exp: window - 3 * d, room: PROOF_ROOM });
    const solution = {
      current: await solve(current, key),
      previous: await solve(previous, key),
      otherRoom: await solve(otherRoom, key),
      stale: await solve(stale, key),
    };
    holders.push({ name, current, previous, stale, solution });
  }
  return { window, counters: countersFor(PROOF_SECONDS), owner: holders[0]!, attackers: holders.slice(1) };
}

/** Forged values of the proof header, from the right solution `right` (8 counters below `M`). */
export function forgeries(right: string, M: number, rnd: () => number): Array<{ what: string; value: string }> {
  const n = right.split('.').map(Number);
  const int = (below: number): number => Math.floor(rnd() * below);
  const at = int(8);
  const changed = [...n];
  changed[at] = (n[at]! + 1 + int(M - 1)) % M;
  // Rotated: the same counters in another order (one moved if they happen to be all alike).
  let rotated = [...n.slice(1), n[0]!];
  if (rotated.join('.') === right) rotated = [...n.slice(0, 7), (n[7]! + 1) % M];
  const join = (xs: ReadonlyArray<number | string>): string => xs.join('.');
  return [
    { what: 'random counters', value: join(n.map(() => int(M))) },
    { what: 'random 10-digit counters', value: join(n.map(() => 1_000_000_000 + int(3_000_000_000))) },
    { what: 'one right counter changed', value: join(changed) },
    { what: 'the right counters in another order', value: join(rotated) },
    { what: 'the right counters plus M (the same modulo M)', value: join(n.map((x) => x + M)) },
    { what: 'the right counters plus 2^32', value: join(n.map((x) => x + 2 ** 32)) },
    { what: 'huge numbers', value: join(n.map(() => '9'.repeat(10 + int(30)))) },
    { what: 'too few parts', value: join(n.slice(0, 1 + int(7))) },
    { what: 'too many parts', value: join([...n, int(M)]) },
    {
      what: 'non-digits',
      value: right.replace(/\d+/, (x) =>
        pick(rnd, ['a', `0x${Number(x).toString(16)}`, `${x}e0`, `-${x}`, `+${x}`, `${x}.0`, `${x}a`]),
      ),
    },
    {
      what: 'other separators',
      value: pick(rnd, [n.join(','), n.join('..'), `${right}.`, `.${right}`, n.join(' '), n.join(';')]),
    },
    { what: 'empty', value: '' },
    { what: '`none`', value: pick(rnd, ['none', 'NONE', ' none ']) },
  ];
}

const pick = <T>(rnd: () => number, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;

/** One request against the proof room, numbered `number` (its path carries it). */
export function proofAttack(m: ProofMaterial, number: string, rnd: () => number): ProofAttack {
  const attacker = pick(rnd, m.attackers);
  const others = m.attackers.filter((a) => a !== attacker);
  const accept = pick(rnd, ['text/html', 'application/json']);
  const path = `${PROOF_PATH}${number}`;
  const request = (
    kind: string,
    who: Holder,
    token: string,
    proof: string | null,
    rights: string[] = [],
  ): ProofAttack => ({
    kind: `proof: ${kind}`,
    method: 'GET',
    path,
    headers: {
      'x-fuzz-id': who.name,
      'x-fuzz-attack': '1',
      accept,
      cookie: `${cookieName(PROOF_ROOM)}=${token}`,
      ...(proof === null ? {} : { [PROOF_HEADER]: proof }),
    },
    rights: rights as SentRequest['rights'],
  });
  const roll = rnd();
  if (roll < 0.08)
    return {
      ...request('control', m.owner, m.owner.current, m.owner.solution.current, [PROOF_ROOM]),
      kind: PROOF_CONTROL,
    };
  if (roll < 0.45) {
    const forged = pick(rnd, forgeries(attacker.solution.current, m.counters, rnd));
    return request(`forged: ${forged.what}`, attacker, attacker.current, forged.value);
  }
  if (roll < 0.5) {
    const none = request('no proof', attacker, attacker.current, null);
    return {
      ...none,
      kind: `proof: no proof (${accept === 'text/html' ? 'page: pending, not drawn in its own window' : 'JSON: skipped'})`,
    };
  }
  if (roll < 0.6)
    return request(
      "replayed: the previous window's right solution",
      attacker,
      attacker.current,
      attacker.solution.previous,
    );
  if (roll < 0.7)
    return request("another identity's right solution", attacker, attacker.current, pick(rnd, others).solution.current);
  if (roll < 0.8)
    return request("another room's right solution", attacker, attacker.current, attacker.solution.otherRoom);
  if (roll < 0.9)
    return request(
      "the right solution with another window's token",
      attacker,
      attacker.previous,
      attacker.solution.current,
    );
  if (roll < 0.95)
    return request(
      'a stale token replayed with its own right solution',
      attacker,
      attacker.stale,
      attacker.solution.stale,
    );
  // A stolen token with its right solution: the token is not the attacker's own, so nothing is drawn.
  const victim = pick(rnd, others);
  return request('a stolen token with its right solution', attacker, victim.current, victim.solution.current);
}
