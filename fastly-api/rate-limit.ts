// The Fastly API's rate limit, as a client sees it: a number of calls an hour per token, a window
// that resets at a known moment, and two headers on every answer saying where the client stands:
// `Fastly-RateLimit-Remaining` (calls left in this window) and `Fastly-RateLimit-Reset` (when the
// window resets, epoch seconds). A call past the limit is answered 429 with the same headers.
//
// Fastly documents 1,000 "non-read" calls an hour and exempts GET and HEAD. The stand-in counts every
// call by default (`reads: 'counted'`), which is stricter: a budget that holds here holds on Fastly;
// `reads: 'free'` gives the documented behaviour.

export interface RateLimitOptions {
  /** Calls a token may make in one window (default 1,000). */
  callsPerHour?: number;
  /** Whether GET and HEAD spend the budget (default 'counted'). */
  reads?: 'counted' | 'free';
  /** The window, ms (default an hour). Windows are aligned to the clock: 10:00-11:00, 11:00-12:00. */
  windowMs?: number;
}

export interface RateVerdict {
  /** False: answer 429. */
  ok: boolean;
  /** Calls left in the window after this one. */
  remaining: number;
  /** When the window resets, epoch seconds. */
  reset: number;
}

export interface RateLimit {
  readonly callsPerHour: number;
  /** Spends one call of `token`'s budget (unless it is a free read) and says where the token stands. */
  take(token: string, method: string, nowMs: number): RateVerdict;
  /** Where `token` stands, spending nothing. */
  peek(token: string, nowMs: number): RateVerdict;
}

export const DEFAULT_CALLS_PER_HOUR = 1000;

export function rateLimitHeaders(v: RateVerdict): Record<string, string> {
  return { 'Fastly-RateLimit-Remaining': String(v.remaining), 'Fastly-RateLimit-Reset': String(v.reset) };
}

export function createRateLimit(options: RateLimitOptions = {}): RateLimit {
  const limit = options.callsPerHour ?? DEFAULT_CALLS_PER_HOUR;
  if (!Number.isInteger(limit) || limit < 0) throw new Error(`callsPerHour must be a whole number >= 0, not ${limit}`);
  const windowMs = options.windowMs ?? 3_600_000;
  const freeReads = options.reads === 'free';
  // token -> the window it last called in, and the calls it made in that window
  const spent = new Map<string, { window: number; calls: number }>();

  const stand = (token: string, nowMs: number): { window: number; calls: number } => {
    const window = Math.floor(nowMs / windowMs);
    const s = spent.get(token);
    if (s !== undefined && s.window === window) return s;
    const fresh = { window, calls: 0 };
    spent.set(token, fresh);
    return fresh;
  };
  const verdict = (s: { window: number; calls: number }, ok: boolean): RateVerdict => ({
    ok,
    remaining: Math.max(0, limit - s.calls),
    reset: Math.ceil(((s.window + 1) * windowMs) / 1000),
  });

  return {
    callsPerHour: limit,
    take(token, method, nowMs) {
      const s = stand(token, nowMs);
      if (freeReads && (method === 'GET' || method === 'HEAD')) return verdict(s, true);
      if (s.calls >= limit) return verdict(s, false);
      s.calls += 1;
      return verdict(s, true);
    },
    peek(token, nowMs) {
      return verdict(stand(token, nowMs), true);
    },
  };
}
