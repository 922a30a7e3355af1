// The bot controls' settings (docs/bots.md): proof_of_work, proof_seconds, proof_free_share, bot_queue
// and the controller's proof_schedule. Each problem names its key, as config.ts's do.
import type { Reader } from './config-reader.js';
import type { Config, ProofScheduleEntry } from '../types.js';

/** The most `proof_seconds` can be. */
export const MAX_PROOF_SECONDS = 60;

const NUMBER = /^(\d+(\.\d*)?|\.\d+)$/;

/**
 * `proof_seconds`: above 0 and at most 60; a value past the wait period `d` is clamped to it, so a
 * solve fits the token's window and its grace. Unusable: the default 5 (or d when smaller).
 */
function parseProofSeconds(r: Reader, d: number): number {
  const key = 'proof_seconds';
  const fallback = Math.min(5, d);
  const value = r.raw(key);
  if (value === null) return fallback;
  const n = NUMBER.test(value) ? Number(value) : Number.NaN;
  if (!(n > 0 && n <= MAX_PROOF_SECONDS)) {
    r.problem(key, value, `must be a number of seconds above 0 and at most ${MAX_PROOF_SECONDS}`, `using ${fallback}`);
    return fallback;
  }
  if (n > d) {
    r.problem(
      key,
      value,
      `is longer than wait_period_duration (${d} s), so a solve would not fit a window`,
      `using ${d}`,
    );
    return d;
  }
  return n;
}

/** `proof_free_share`: above 0 (0 would lock out visitors without JavaScript) and at most 1; default 0.2. */
function parseFreeShare(r: Reader): number {
  const key = 'proof_free_share';
  const value = r.raw(key);
  if (value === null) return 0.2;
  const n = NUMBER.test(value) ? Number(value) : Number.NaN;
  if (n > 0 && n <= 1) return n;
  const why =
    n === 0 ? 'cannot be 0: visitors without JavaScript could never get in' : 'must be a number above 0 and at most 1';
  r.problem(key, value, why, 'using 0.2');
  return 0.2;
}

/** `proof_schedule`: `START=SECONDS,...` as allow_schedule's text, seconds 0..60; bad entries skipped. */
function parseProofSchedule(r: Reader, maxEntries: number): ProofScheduleEntry[] {
  const entries = r
    .windowValues('proof_schedule', MAX_PROOF_SECONDS, 'SECONDS')
    .map(([start, seconds]) => ({ start, seconds }));
  return entries.length > maxEntries ? entries.slice(-maxEntries) : entries;
}

/** The bot controls' part of a Config. */
export function parseProofSettings(
  r: Reader,
  waitPeriodSeconds: number,
  maxEntries: number,
): Pick<Config, 'proofOfWork' | 'proofSeconds' | 'proofFreeShare' | 'botQueue' | 'proofSchedule'> {
  return {
    proofOfWork: r.oneOf('proof_of_work'),
    proofSeconds: parseProofSeconds(r, waitPeriodSeconds),
    proofFreeShare: parseFreeShare(r),
    botQueue: r.oneOf('bot_queue') === 'on',
    proofSchedule: parseProofSchedule(r, maxEntries),
  };
}
