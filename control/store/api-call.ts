// One call of the Fastly API as the controller sees it (docs/control/budget.md#writes-and-the-budget): its
// kind, what it cost, how it ended and the rate-limit figures its answer gave; the error a failed one
// throws, and whether a CLI error names a 429. The budget (api-budget.ts) counts these; the journal
// writes them down. Pure.
import { CONTROLLER_KEY } from '../../src/core/settings/index.js';

/** 'log-tail': a start of `fastly log-tail`, which turns the service's log stream on (one call). */
export type CallKind = 'read' | 'write' | 'heartbeat' | 'log-tail';

/** A call that writes only the controller's heartbeat is a heartbeat; any other write is a write. */
export const callKind = (keys: readonly string[]): 'write' | 'heartbeat' =>
  keys.length > 0 && keys.every((k) => k === CONTROLLER_KEY) ? 'heartbeat' : 'write';

/** One API call (or local write) as it ended: what the budget, the journal and the dashboard learn from it. */
export interface StoreCall {
  kind: CallKind;
  /** API calls it cost (a page of a read, a key written through the CLI: 1 each); 0 for a local file. */
  calls: number;
  ok: boolean;
  /** The HTTP status, when there was an answer; null for the CLI and a local file. */
  status: number | null;
  /** The store keys written (or read, for a read: none listed). */
  keys: string[];
  /** The values written, '' for a removed key. */
  values?: Record<string, string>;
  /** Fastly-RateLimit-Remaining, when the answer had it. */
  remaining: number | null;
  /** Fastly-RateLimit-Reset as ms since the epoch, when the answer had it. */
  resetMs: number | null;
  /** Retry-After as ms from now, when the answer had it. */
  retryAfterMs: number | null;
  error: string | null;
}

/** Reports each call a store makes, as it ends. */
export type CallReporter = (call: StoreCall) => void;

/** A call that failed is tried again after this long, ms, doubling while it keeps failing... */
export const RETRY_FIRST_MS = 10_000;
/** ...up to this: a failure that will not pass costs a call a minute, not one a tick. */
export const RETRY_MAX_MS = 60_000;

/** How long to wait before trying again after `failures` failed calls in a row (reads and writes alike). */
export const retryDelayMs = (failures: number): number =>
  Math.min(RETRY_FIRST_MS * 2 ** Math.max(0, failures - 1), RETRY_MAX_MS);

/** Whether a Fastly CLI error names an answer of 429 (the CLI gives no status field): the API's rate limit is spent. */
export const cliRateLimited = (message: string): boolean => /\b429\b|too many requests|rate.?limit/i.test(message);

/** A failed API call: its status, and whether the change may have happened all the same. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    /** A timeout, a 5xx, a lost connection: the write may or may not have been applied. */
    readonly outcomeUnknown: boolean,
  ) {
    super(message);
  }
}

/** True when a failure leaves it unknown whether a write was applied (read to find out). */
export const outcomeUnknown = (error: unknown): boolean => !(error instanceof ApiError) || error.outcomeUnknown;

/** The rate-limit figures of an answer's headers (Fastly-RateLimit-Remaining, -Reset in epoch s, Retry-After in s). */
export function rateLimitOf(headers: {
  get(name: string): string | null;
}): Pick<StoreCall, 'remaining' | 'resetMs' | 'retryAfterMs'> {
  const num = (name: string): number | null => {
    const text = headers.get(name);
    const n = text === null || text.trim() === '' ? NaN : Number(text);
    return Number.isFinite(n) && n >= 0 ? n : null;
  };
  const reset = num('fastly-ratelimit-reset');
  const retry = num('retry-after');
  return {
    remaining: num('fastly-ratelimit-remaining'),
    resetMs: reset === null ? null : reset * 1000,
    retryAfterMs: retry === null ? null : retry * 1000,
  };
}
