// The check anyone can make of a scheduled sale's shuffle once its seed is revealed (docs/events.md,
// "A lottery anyone can check"): the seed against the commitment published before, and each pre-queue
// token's place in line under that seed. `npm run event` (event.ts) runs it; it needs no key of the room.
import { createHash } from 'node:crypto';
import { decodeBase64, MIN_KEY_BYTES, seedKey } from '../src/core/tokens/index.js';
import { prequeuePosition, rank } from '../src/core/decision/index.js';
import { isoSeconds } from '../lib/cli.js';

/** A refusal `npm run event` reports in one line and exits 2 on, not a crash. */
export class EventError extends Error {
  override name = 'EventError';
}

/** `sha256:` + the hex SHA-256 of the seed's bytes: what the operator publishes before the sale. */
export function commitmentOf(seed: Uint8Array): string {
  return `sha256:${createHash('sha256').update(seed).digest('hex')}`;
}

/** The seed's bytes from its base64, refused when it is not base64 or too short to be a key. */
export function seedBytes(base64: string): Uint8Array {
  const bytes = decodeBase64(base64.trim());
  if (bytes === null) throw new EventError('the seed is not base64');
  if (bytes.length < MIN_KEY_BYTES)
    throw new EventError(`the seed is ${bytes.length} bytes; an event seed has at least ${MIN_KEY_BYTES}`);
  return bytes;
}

export interface Verdict {
  token: string;
  /** The rank in [0, 1) and the position, or why the token cannot be ranked. */
  rank?: number;
  pos?: number;
  /** The event start the token was issued for (its `arr`). */
  start?: number;
  problem?: string;
}

/**
 * Each token's rank under the revealed seed, read from the token's own claims. The signature is NOT
 * checked: that needs the room's key, which the public does not have. A pre-queue token's rank
 * depends only on its start and subject, both in plain sight in the token.
 */
export async function verifyTokens(seedBase64: string, tokens: readonly string[]): Promise<Verdict[]> {
  const key = await seedKey(seedBytes(seedBase64));
  const verdicts: Verdict[] = [];
  for (const token of tokens) {
    const claims = readClaims(token);
    if (typeof claims === 'string') {
      verdicts.push({ token, problem: claims });
      continue;
    }
    const r = await rank(key, claims.arr, claims.sub);
    verdicts.push({ token, rank: r, pos: prequeuePosition(claims.arr, r), start: claims.arr });
  }
  return verdicts;
}

function readClaims(token: string): { arr: number; sub: string } | string {
  const parts = token.trim().split('.');
  if (parts.length !== 3) return 'not a token (a token has three parts separated by dots)';
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
  } catch {
    return 'its payload is not JSON';
  }
  const c = claims as Record<string, unknown>;
  if (typeof c !== 'object' || c === null) return 'its payload is not a JSON object';
  if (c.dec !== 'pre') return `it is not a pre-queue token (dec is ${JSON.stringify(c.dec)})`;
  if (typeof c.arr !== 'number' || !Number.isSafeInteger(c.arr) || typeof c.sub !== 'string')
    return 'it lacks a whole-number arr or a sub';
  return { arr: c.arr, sub: c.sub };
}

/** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, ... */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/**
 * The ranked tokens as places in line, event by event: the place among the tokens given (the place
 * in the whole pre-queue when every token is given), and what the rank says about the whole pre-queue
 * (ranks are spread evenly, so rank 0.12 is ahead of about 88% of it). A token is named by its end (the
 * signature: every token starts with the same header). Rank and position are details.
 */
export function placeLines(verdicts: readonly Verdict[]): string[] {
  const byStart = new Map<number, Verdict[]>();
  for (const v of verdicts)
    if (v.rank !== undefined && v.start !== undefined) byStart.set(v.start, [...(byStart.get(v.start) ?? []), v]);
  const lines: string[] = [];
  for (const [start, group] of [...byStart].sort((a, b) => a[0] - b[0])) {
    group.sort((a, b) => a.rank! - b.rank!);
    const n = group.length;
    lines.push(
      `${n} pre-queue token${n === 1 ? '' : 's'} for the event that starts ${isoSeconds(start)}, in the order the seed lets them in:`,
    );
    for (const [i, v] of group.entries()) {
      const ahead = Math.round((1 - v.rank!) * 100);
      lines.push(
        `  ${`${ordinal(i + 1)} of ${n}`.padEnd(12)} token …${v.token.trim().slice(-16)}  ahead of about ${ahead}% of the pre-queue  (rank ${v.rank!.toFixed(6)}, position ${v.pos!.toFixed(6)})`,
      );
    }
  }
  return lines;
}
