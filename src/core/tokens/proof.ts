// The proof of work (docs/bots.md): a puzzle bound to the wait token the visitor holds, so a solution
// is worth one identity and one window. Eight ALTCHA v2 challenges (deterministic mode, SHA-256, cost 1)
// whose secret counters come from one HMAC of the token's text under the key that signed it: the edge
// keeps nothing, and checks a solution with that one HMAC, without a digest.
import { scheduleEntryAt } from '../settings/index.js';
import type { Config } from '../types.js';

/**
 * Digests a second of the built-in solver on a low-end phone: the difficulty in seconds is turned into
 * counters with it. Measured on Chromium at 6x CPU throttling (docs/bots.md, "What it costs").
 */
export const PHONE_RATE = 36_000;

/** Sub-challenges per puzzle: eight smaller ones spread the solve time less than one big one would. */
export const PROOF_CHALLENGES = 8;

/** The request header a solution comes in; the origin never sees it. */
export const PROOF_HEADER = 'waiting-room-proof';

/** The header's value for "this client cannot solve" (no Worker, an old browser): a missing proof. */
export const PROOF_CANNOT_SOLVE = 'none';

const SOLUTION = /^\d{1,10}(\.\d{1,10}){7}$/;
const encoder = new TextEncoder();

/** One token's puzzle: what the page and the JSON answer are made from. */
export interface ProofChallenge {
  /** The difficulty: expected seconds on a low-end phone. */
  seconds: number;
  /** M: counters per sub-challenge (each secret counter is below it). */
  counters: number;
  /** 32 hex characters, shared by the sub-challenges. */
  salt: string;
  /** 30 hex characters: sub-challenge i's nonce is this plus i as two hex digits. */
  noncePrefix: string;
  /** The 8 key prefixes (32 hex characters each), in order. */
  prefixes: readonly string[];
}

/** One ALTCHA v2 challenge, as altcha-lib's `solveChallenge` takes it. */
export interface AltchaChallenge {
  parameters: { algorithm: 'SHA-256'; cost: 1; keyLength: 32; keyPrefix: string; nonce: string; salt: string };
}

/** `waitingRoom.proof` of the JSON answer. */
export interface ProofJson {
  scheme: 'altcha-v2';
  header: typeof PROOF_HEADER;
  seconds: number;
  counters: number;
  challenges: AltchaChallenge[];
  solutionFormat: string;
}

/** What a draw's request brought, when a proof is asked: docs/bots.md. */
export type ProofClass = 'valid' | 'wrong' | 'failed' | 'skipped' | 'missing';

/** M for a difficulty of `seconds`: the expected total work, K (M+1)/2 digests, is about seconds x PHONE_RATE. */
export function countersFor(seconds: number): number {
  return Math.max(1, Math.round((2 * seconds * PHONE_RATE) / PROOF_CHALLENGES));
}

/** The two hex digits of every byte: one lookup a byte instead of a toString and a padStart. */
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** `bytes[from..to)` in lowercase hex. */
function hex(bytes: Uint8Array, from = 0, to = bytes.length): string {
  let out = '';
  for (let i = from; i < to; i++) out += HEX[bytes[i]!]!;
  return out;
}

/** m = HMAC-SHA-512(key, "wr-proof:" + token): 64 bytes, everything the puzzle is made of. */
async function material(token: string, key: CryptoKey): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(`wr-proof:${token}`)));
}

/** The secret counters N_i = uint32BE(m[32+4i..36+4i)) mod M. */
function secretCounters(m: Uint8Array, M: number): number[] {
  const view = new DataView(m.buffer, m.byteOffset, m.byteLength);
  return Array.from({ length: PROOF_CHALLENGES }, (_, i) => view.getUint32(32 + 4 * i, false) % M);
}

const nonceOf = (noncePrefix: string, i: number): string => noncePrefix + HEX[i]!;

/**
 * ALTCHA's key prefix at cost 1, as altcha-lib's web `deriveKey` makes it (SHA-256, its uint32
 * password): the first 16 bytes, in hex, of SHA-256(salt ‖ nonce ‖ uint32BE(counter)). `input` is
 * those 36 bytes with salt and nonce in place; the counter is written into its last four. One
 * `crypto.subtle.digest`, the runtime's native SHA-256 (an interpreted one costs far more: docs/performance.md).
 */
export async function keyPrefixOf(input: Uint8Array<ArrayBuffer>, counter: number): Promise<string> {
  input[32] = counter >>> 24;
  input[33] = (counter >>> 16) & 255;
  input[34] = (counter >>> 8) & 255;
  input[35] = counter & 255;
  return hex(new Uint8Array(await crypto.subtle.digest('SHA-256', input)), 0, 16);
}

/** The puzzle for wait token `token` (its compact text), signed with `key`, at a difficulty of `seconds` (> 0). */
export async function proofChallenge(token: string, key: CryptoKey, seconds: number): Promise<ProofChallenge> {
  const m = await material(token, key);
  const M = countersFor(seconds);
  const counters = secretCounters(m, M);
  // salt (m[16..32)) ‖ nonce_i (m[0..15) then i) ‖ counter: one buffer, each sub-challenge's bytes written in turn.
  const input = new Uint8Array(36);
  input.set(m.subarray(16, 32), 0);
  input.set(m.subarray(0, 15), 16);
  const prefixes: string[] = [];
  for (let i = 0; i < PROOF_CHALLENGES; i++) {
    input[31] = i;
    prefixes.push(await keyPrefixOf(input, counters[i]!));
  }
  return { seconds, counters: M, salt: hex(m, 16, 32), noncePrefix: hex(m, 0, 15), prefixes };
}

/**
 * What a solver finds for the puzzle of `token` at `seconds`: the 8 secret counters, in order. A solver
 * tries counters 0..N_i of each sub-challenge, so its work is their sum plus 8 digests. For whoever holds
 * the key (the simulator charges that work without hashing); the edge never sends it.
 */
export async function proofSolution(token: string, key: CryptoKey, seconds: number): Promise<number[]> {
  return secretCounters(await material(token, key), countersFor(seconds));
}

/** The compact form the built-in page gets (`proofCompact`): `1.M.salt.noncePrefix.P0.….P7`. */
export function proofCompact(c: ProofChallenge): string {
  return ['1', String(c.counters), c.salt, c.noncePrefix, ...c.prefixes].join('.');
}

/** The 8 ALTCHA v2 challenges, in order. */
export function altchaChallenges(c: ProofChallenge): AltchaChallenge[] {
  return c.prefixes.map((keyPrefix, i) => ({
    parameters: {
      algorithm: 'SHA-256',
      cost: 1,
      keyLength: 32,
      keyPrefix,
      nonce: nonceOf(c.noncePrefix, i),
      salt: c.salt,
    },
  }));
}

/** What the JSON answer tells an app: what to solve and how to send it. */
export function proofJson(c: ProofChallenge): ProofJson {
  return {
    scheme: 'altcha-v2',
    header: PROOF_HEADER,
    seconds: c.seconds,
    counters: c.counters,
    challenges: altchaChallenges(c),
    solutionFormat: "the 8 counters found, in order, joined by '.'",
  };
}

/**
 * Whether `solution` (the header's value) solves the puzzle of `token` at `seconds`: one HMAC, then the
 * counters compared. The 16-byte prefixes leave the secret counter the only one below M whose key
 * matches, so this is ALTCHA's re-derivation check without its digests.
 */
export async function checkProof(token: string, key: CryptoKey, seconds: number, solution: string): Promise<boolean> {
  if (!SOLUTION.test(solution)) return false;
  const expected = await proofSolution(token, key, seconds);
  const given = solution.split('.').map(Number);
  let same = true;
  for (let i = 0; i < PROOF_CHALLENGES; i++) same = given[i] === expected[i] && same;
  return same;
}

/** The header's value, trimmed; null when the request brought none (or an empty one). */
export function proofHeaderValue(header: string | null | undefined): string | null {
  const value = header?.trim() ?? '';
  return value === '' ? null : value;
}

/**
 * What a draw's request brought: `header` is its `waiting-room-proof` value (null when absent), `json`
 * whether it asked for the JSON answer. `none` and a missing header on a page are `missing`; a missing
 * header from an app that was told what to solve is `skipped`; a solution in the right form that does
 * not solve this puzzle (an old puzzle's, one solved before the difficulty changed) is `wrong`; anything
 * else (not `none`, not eight counters) is `failed`: no page of this room sends that.
 */
export async function classifyProof(
  header: string | null,
  json: boolean,
  token: string,
  key: CryptoKey,
  seconds: number,
): Promise<ProofClass> {
  const value = proofHeaderValue(header);
  if (value === null) return json ? 'skipped' : 'missing';
  if (value.toLowerCase() === PROOF_CANNOT_SOLVE) return 'missing';
  if (!SOLUTION.test(value)) return 'failed';
  return (await checkProof(token, key, seconds, value)) ? 'valid' : 'wrong';
}

/**
 * The difficulty (seconds, 0 = no proof) of a wait token expiring at `exp`: `off` 0; `fixed`
 * proof_seconds; `auto` the proof_schedule entry for its window, looked up as chanceFor looks up
 * allow_schedule (a gap or past the end: the entry before), capped at proof_seconds; none: 0.
 */
export function proofSecondsFor(
  config: Pick<Config, 'proofOfWork' | 'proofSeconds' | 'proofSchedule'>,
  exp: number,
): number {
  if (config.proofOfWork === 'off') return 0;
  if (config.proofOfWork === 'fixed') return config.proofSeconds;
  const entry = scheduleEntryAt(config.proofSchedule, exp);
  return entry === null ? 0 : Math.min(entry.seconds, config.proofSeconds);
}
