// A place in line as one number, the position (docs/events.md): first-come tokens by arrival, the
// pre-queue shuffled into the second before the start by a keyed hash nobody can compute before the
// event's seed is used. The queue moves by a cursor on the same line.
import { decodeBase64url } from '../tokens/index.js';
import type { Config, QueueCount, QueueCursor } from '../types.js';

const encoder = new TextEncoder();

/** The first 6 bytes of `bytes` as an unsigned integer / 2^48: a number in [0, 1). */
export function fraction48(bytes: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < 6; i++) n = n * 256 + (bytes[i] ?? 0);
  return n / 2 ** 48;
}

/** Orders a second's arrivals at random, the same way on every renewal: from the token's `sub`. */
export function tieFraction(sub: string): number {
  try {
    return fraction48(decodeBase64url(sub));
  } catch {
    return 0;
  }
}

/** A first-come token's position: its arrival second plus its tie fraction. */
export function fifoPosition(arr: number, sub: string): number {
  return arr + tieFraction(sub);
}

/** What the rank's HMAC signs: public, so anyone with the revealed seed can recompute a rank. */
export function rankMessage(start: number, sub: string): string {
  return `wr-rank:${start}:${sub}`;
}

/**
 * A pre-queue token's rank in [0, 1): HMAC-SHA-256 keyed with the event seed's bytes (or, without a
 * seed, the room's signing key) over `rankMessage`, first 6 bytes. `key` is an HMAC key for SHA-256
 * or SHA-512; docs/events.md fixes SHA-256 with the seed, which `seedKey` (keys.ts) makes.
 */
export async function rank(key: CryptoKey, start: number, sub: string): Promise<number> {
  const mac = await crypto.subtle.sign('HMAC', key, encoder.encode(rankMessage(start, sub)));
  return fraction48(new Uint8Array(mac));
}

/** A pre-queue token's position: the whole pre-queue lies in the second before the start. */
export function prequeuePosition(start: number, rankValue: number): number {
  return start - 1 + rankValue;
}

/** The edge stops extrapolating a cursor this long after it was published (a dead controller). */
export const CURSOR_HORIZON_SECONDS = 1800;

/**
 * Where the published cursor stands at `nowSec`: moving at its speed for up to the horizon after it
 * was published, and, before it was published, where that speed puts it (the best guess of where it
 * was, which the pre-queue's grace needs; a POP clock a little behind the controller's lands here too).
 */
export function cursorAt(cursor: QueueCursor, nowSec: number): number {
  return cursor.pos + cursor.speed * Math.min(nowSec - cursor.at, CURSOR_HORIZON_SECONDS);
}

/**
 * With no published cursor, the pre-queue drains by `allow_percentage`: in the k-th window after the
 * start, `k * pct` percent of it, in shuffled order.
 */
export function fallbackCursor(start: number, nowSec: number, waitPeriodSeconds: number, pct: number): number {
  if (nowSec < start) return Number.NEGATIVE_INFINITY;
  const k = Math.floor((nowSec - start) / waitPeriodSeconds) + 1;
  return start - 1 + Math.min(1, (k * pct) / 100);
}

/** Visitors waiting below `pos` by the published counts, linear between entries. */
export function countBelow(counts: readonly QueueCount[], pos: number): number {
  if (counts.length === 0) return 0;
  const first = counts[0]!;
  if (pos <= first.pos) return first.count;
  for (let i = 1; i < counts.length; i++) {
    const b = counts[i]!;
    if (pos <= b.pos) {
      const a = counts[i - 1]!;
      return b.pos === a.pos ? b.count : a.count + ((b.count - a.count) * (pos - a.pos)) / (b.pos - a.pos);
    }
  }
  return counts[counts.length - 1]!.count;
}

/**
 * Visitors waiting between the cursor and `pos`, by the published counts; null without counts. Each
 * entry counts the places up to and including its own, so a visitor inside the counted line is one
 * of them: they are not ahead of themself.
 */
export function countedAhead(counts: readonly QueueCount[], pos: number, cursorNow: number): number | null {
  if (counts.length === 0) return null;
  const self = pos <= counts[counts.length - 1]!.pos ? 1 : 0;
  return Math.max(0, Math.round(countBelow(counts, pos) - countBelow(counts, cursorNow) - self));
}

/** Place in line and turn, for a visitor at `pos`; nulls when nothing published says. */
export function placeFor(
  pos: number,
  cursorNow: number,
  cursor: QueueCursor | null,
  counts: readonly QueueCount[],
): { ahead: number | null; turnSeconds: number | null } {
  const ahead = countedAhead(counts, pos, cursorNow);
  const turnSeconds =
    cursor === null || !(cursor.speed > 0) ? null : Math.max(0, Math.ceil((pos - cursorNow) / cursor.speed));
  return { ahead, turnSeconds };
}

/**
 * After the cursor passes a place, its holder comes in at their next due check: on average about a
 * third of a window later (0.35 d measured in the simulator's first-come runs, where 0.25 and 0.5
 * erred a few percent short and long), since part of the wait for that check overlaps the pass.
 */
const CHECK_DELAY_WINDOWS = 0.35;

/**
 * What a page shows for a decision's place (DecideResult.place): visitors ahead, and seconds to the
 * turn. The turn is when the cursor passes the place plus the wait for the visitor's next due check
 * after that (CHECK_DELAY_WINDOWS), and never before the check the page is about to make
 * (`retryAfterSeconds`). With a target (`new_users_per_minute`, which the controller holds), the
 * visitors ahead are those the room will let in before this one: the target's rate over the turn,
 * but never more than the published counts hold. The rate counts only those who will still be
 * there, where the counts include everyone waiting now, some of whom will leave; the counts bound
 * it when the queue is shorter than the turn's worth of the target. Without a target, the counts.
 * Null without a place; both unknown (null) while no cursor moves the queue.
 */
export function shownPlace(
  place: { pos: number; cursor: number } | null,
  config: Pick<Config, 'queueCursor' | 'queueCounts' | 'waitPeriodSeconds' | 'control'>,
  retryAfterSeconds: number,
): { ahead: number | null; turnSeconds: number | null } | null {
  if (place === null) return null;
  if (!Number.isFinite(place.cursor)) return { ahead: null, turnSeconds: null };
  const { ahead, turnSeconds } = placeFor(place.pos, place.cursor, config.queueCursor, config.queueCounts);
  const turn =
    turnSeconds === null
      ? null
      : Math.max(retryAfterSeconds, Math.ceil(turnSeconds + CHECK_DELAY_WINDOWS * config.waitPeriodSeconds));

  const rate = config.control.newUsersPerMinute;
  const byRate = turn === null || rate === null || turnSeconds === 0 ? null : Math.round((turn * rate) / 60);
  // Never more than the counts hold: the rate over the turn is what the room could let in, not who is
  // there (the only visitor of a pre-queue was told 80 ahead at a target of 600 a minute).
  return { ahead: byRate === null ? ahead : ahead === null ? byRate : Math.min(byRate, ahead), turnSeconds: turn };
}
