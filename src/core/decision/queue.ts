// The parts of a decision that come from a scheduled event or a first-come queue (docs/events.md):
// the event's phase, where a place-holding token stands, and where the queue's cursor stands now.
// Pure: decide() calls these with what it has already verified.
import { dueAt } from './draw.js';
import type { KeyRing } from '../tokens/index.js';
import { cursorAt, fallbackCursor, fifoPosition, prequeuePosition, rank } from './position.js';
import type { Config, PlaceQueue, TokenClaims } from '../types.js';

export type Phase = 'none' | 'before' | 'prequeue' | 'running' | 'ended';

/** Which part of the scheduled event `nowSec` falls in; 'none' without an event. */
export function eventPhase(config: Pick<Config, 'event'>, nowSec: number): Phase {
  const event = config.event;
  if (event === null) return 'none';
  if (event.end !== null && nowSec >= event.end) return 'ended';
  if (nowSec >= event.start) return 'running';
  if (event.prequeueStart !== null && nowSec >= event.prequeueStart) return 'prequeue';
  return 'before';
}

/** The countdown page checks again at least this often, in case the operator moves the start. */
export const PREQUEUE_CHECK_SECONDS = 300;

/** Does this token hold a place in line (and so keep it across renewals)? */
export function holdsPlace(claims: Pick<TokenClaims, 'dec' | 'arr'>): boolean {
  return claims.dec === 'pre' || (claims.dec === 'wait' && claims.arr !== undefined);
}

/** A place-holding token is lost once its holder stops checking for `place_kept_seconds` past its window. */
export function placeLostAt(exp: number, config: Pick<Config, 'waitPeriodSeconds' | 'placeKeptSeconds'>): number {
  return exp + config.waitPeriodSeconds + config.placeKeptSeconds;
}

/** A pre-queue token belongs to the event whose start it names; any other is refused. */
export function ofThisEvent(claims: Pick<TokenClaims, 'dec' | 'arr'>, config: Pick<Config, 'event'>): boolean {
  return claims.dec !== 'pre' || (config.event !== null && claims.arr === config.event.start);
}

export interface Place {
  /** The token's position (docs/events.md). */
  pos: number;
  /** Where the cursor stands now; -Infinity when nothing moves this queue yet. */
  cursor: number;
  /** True when a published cursor (rather than the draw or the fallback) decides this place. */
  byCursor: boolean;
  /** The line the place is in: the pre-queue's shuffled order, or the first-come line. */
  queue: PlaceQueue;
}

/**
 * Where a place-holding token stands and whether the cursor decides it. A pre-queue token's rank uses
 * the event's seed, or (logged) the token's own key when there is none. Call only from the start on:
 * before it, nobody computes a rank.
 */
export async function placeOf(
  claims: TokenClaims & { arr: number },
  tokenKey: CryptoKey,
  keys: KeyRing,
  config: Config,
  nowSec: number,
  diag: (message: string) => void,
): Promise<Place> {
  const published = config.queueCursor === null ? null : cursorAt(config.queueCursor, nowSec);
  if (claims.dec === 'pre') {
    let key = await keys.eventSeed();
    if (key === null) {
      diag(
        'waiting_room_keys: no usable "event-seed"; ranking the pre-queue with the signing key, which nobody can check afterwards',
      );
      key = tokenKey;
    }
    const pos = prequeuePosition(claims.arr, await rank(key, claims.arr, claims.sub));
    const cursor = published ?? fallbackCursor(claims.arr, nowSec, config.waitPeriodSeconds, config.allowPercentage);
    return { pos, cursor, byCursor: true, queue: 'prequeue' };
  }
  // A first-come token with no cursor to follow draws like the draw's tokens (and keeps its place).
  return {
    pos: fifoPosition(claims.arr, claims.sub),
    cursor: published ?? Number.NEGATIVE_INFINITY,
    byCursor: published !== null,
    queue: 'fifo',
  };
}

/**
 * Is the event's pre-queue still ahead of a visitor who came after the start? Only then do the draw's
 * tokens wait, and first-come places past the start: nobody who arrived after the start gets in before
 * the pre-queue is through. "Through" means the cursor passed the start two windows ago: a pre-queued
 * visitor whose place was just passed checks back within two windows (a window to the next boundary,
 * and their offset into the next), and must not find a latecomer let in before them meanwhile.
 */
export function prequeueDraining(config: Config, phase: Phase, nowSec: number): boolean {
  const event = config.event;
  if (
    event === null ||
    event.prequeueStart === null ||
    (phase !== 'running' && !(phase === 'ended' && event.endAction === 'normal'))
  )
    return false;
  const then = nowSec - 2 * config.waitPeriodSeconds;
  const cursor =
    config.queueCursor === null
      ? fallbackCursor(event.start, then, config.waitPeriodSeconds, config.allowPercentage)
      : cursorAt(config.queueCursor, then);
  return cursor < event.start;
}

/** When the countdown page checks again: its token's due time after the start, or sooner. */
export function prequeueRecheck(
  signature: Uint8Array | string,
  start: number,
  nowSec: number,
  config: Pick<Config, 'waitPeriodSeconds'>,
): number {
  return Math.min(dueAt(signature, start, config), nowSec + PREQUEUE_CHECK_SECONDS);
}
