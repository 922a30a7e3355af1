// The lottery ticket: a wait token's outcome is fixed when it is signed,
// because the draw is seeded by the token's own signature. Presenting the same token again can
// never re-roll; `allow_percentage` only moves the winning threshold.
//
// The signature also fixes WHEN the ticket may be drawn (docs/design.md, "Time windows and the draw"):
// from `exp + offset` (offset from signature bytes 6..9) until `exp + 2d`. The room, not the client,
// spreads the draws over the window, and a kept pile of old tickets is worth nothing.
import { decodeBase64url } from '../tokens/index.js';
import type { Config } from '../types.js';
import { scheduleEntryAt } from '../settings/index.js';

/** The token's number in [0, 1): its signature's first 6 bytes as an unsigned integer / 2^48. */
export function drawValue(signature: Uint8Array): number {
  let n = 0;
  // 6 bytes = 48 bits: exact in a double, and plenty of resolution for a percentage.
  for (let i = 0; i < 6; i++) n = n * 256 + (signature[i] ?? 0);
  return n / 2 ** 48;
}

export function drawWins(signature: Uint8Array, allowPercentage: number): boolean {
  return drawValue(signature) * 100 < allowPercentage;
}

/**
 * The chance (0..100) of the draw of a wait token that expires at `exp` (its cohort's window start):
 * the `allow_schedule` entry for that window, the last entry once past the schedule (a stopped
 * controller leaves the room at its last chance), `allow_percentage` before it or without one.
 * One chance per cohort, wherever and whenever its tokens are drawn, so the controller's count of a
 * window's admissions does not depend on which POP saw the new setting first.
 */
export function chanceFor(config: Pick<Config, 'allowPercentage' | 'allowSchedule'>, exp: number): number {
  return scheduleEntryAt(config.allowSchedule, exp)?.pct ?? config.allowPercentage;
}

/** A token's id for the decision log: its signature's first 6 bytes (its draw value) in base64url. */
export function tokenId(token: string): string {
  return token.slice(token.lastIndexOf('.') + 1, token.lastIndexOf('.') + 9);
}

/**
 * J: the page checks again uniform(0, J) seconds after Retry-After. Small, because the token's own due
 * offset already spreads the returns over the window; the page jitter only breaks up the second.
 */
export function jitterSeconds(config: Pick<Config, 'waitPeriodSeconds'>): number {
  return Math.min(2, Math.floor(config.waitPeriodSeconds / 5));
}

/**
 * S: a token's due offset is a whole number of seconds in [0, S). S + J + 2 = d keeps every honest
 * return (due + Retry-After rounding < 1 s + page jitter < J, with a second to spare for latency)
 * inside the token's own window [exp, exp + d), so no honest visitor loses a window's draw.
 */
export function dueSpreadSeconds(config: Pick<Config, 'waitPeriodSeconds'>): number {
  return Math.max(0, config.waitPeriodSeconds - jitterSeconds(config) - 2);
}

/** Signature bytes 6..9 (the ones after the draw's) as a fraction in [0, 1). */
export function dueFraction(signature: Uint8Array): number {
  let n = 0;
  for (let i = 6; i < 10; i++) n = n * 256 + (signature[i] ?? 0);
  return n / 2 ** 32;
}

/** Whole seconds after its expiry that a wait token falls due. */
export function dueOffsetSeconds(signature: Uint8Array, config: Pick<Config, 'waitPeriodSeconds'>): number {
  return Math.floor(dueFraction(signature) * dueSpreadSeconds(config));
}

/**
 * When a wait token can first be drawn (epoch seconds): `exp + offset`. Accepts the compact token itself
 * or its signature bytes, so tests and tools compute due times with this code rather than a copy.
 */
export function dueAt(
  tokenOrSignature: string | Uint8Array,
  exp: number,
  config: Pick<Config, 'waitPeriodSeconds'>,
): number {
  return exp + dueOffsetSeconds(signatureOf(tokenOrSignature), config);
}

/** The last second (exclusive) a wait token can be drawn: one window of grace after its own. */
export function staleAt(exp: number, config: Pick<Config, 'waitPeriodSeconds'>): number {
  return exp + 2 * config.waitPeriodSeconds;
}

/** A compact token's signature bytes (empty when they cannot be decoded); bytes given are returned as they are. */
export function signatureOf(tokenOrSignature: string | Uint8Array): Uint8Array {
  if (typeof tokenOrSignature !== 'string') return tokenOrSignature;
  try {
    return decodeBase64url(tokenOrSignature.slice(tokenOrSignature.lastIndexOf('.') + 1));
  } catch {
    return new Uint8Array(0);
  }
}

/**
 * The built-in deny page checks again after at least this long, plus a random jitter of at least
 * `jitterSeconds` (its script: pages/parts/deny.js). The controller and the simulator count on it.
 */
export const DENY_PAGE_TIMER = { seconds: 300, jitterSeconds: 60 } as const;

/**
 * The Retry-After of a waiting or deny answer: whole seconds until the visitor's wait token falls due
 * (at least 1), or one window when the visitor has none (deny, no signing key).
 */
export function retryAfterSeconds(waitDueSec: number | null, nowMs: number, waitPeriodSeconds: number): number {
  return waitDueSec === null ? waitPeriodSeconds : Math.max(1, Math.ceil(waitDueSec - nowMs / 1000));
}
