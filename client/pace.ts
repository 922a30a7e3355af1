// When to check again: at the room's pace, never faster. As the waiting page does
// (pages/parts/waiting.js): the Retry-After header, else the answer's retryAfterSeconds, else the last
// pace the room gave, plus a random share of the room's jitter, so a crowd told the same second does
// not come back in the same second. After failed checks, a doubling wait up to a ceiling.

/** The pace before the room has given one (the page's default). */
export const FIRST_PACE_SECONDS = 30;

/** What the client remembers of the room's pace between checks. */
export interface Pace {
  /** The last Retry-After the room gave, seconds. */
  retrySeconds: number;
  /** The room's last jitter, seconds: each wait adds uniform(0, jitter). */
  jitterSeconds: number;
}

export const firstPace = (): Pace => ({ retrySeconds: FIRST_PACE_SECONDS, jitterSeconds: 0 });

/** The header's whole seconds (RFC 9110 delay-seconds, or an HTTP date against `nowMs`); null when absent or unreadable. */
export function retryAfterHeader(value: string | null, nowMs: number): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/**
 * The seconds until the next check after an answer that said `header` (Retry-After, seconds) and
 * `body` (its retryAfterSeconds and jitterSeconds, each null when it did not say); updates `pace`.
 */
export function nextCheck(
  pace: Pace,
  header: number | null,
  body: { retryAfterSeconds: number | null; jitterSeconds: number | null } | null,
  random: () => number,
): number {
  const retry =
    header !== null && header > 0 ? header : (body?.retryAfterSeconds ?? 0) > 0 ? body!.retryAfterSeconds! : null;
  if (retry !== null) pace.retrySeconds = retry;
  if (body?.jitterSeconds !== null && body?.jitterSeconds !== undefined && body.jitterSeconds >= 0)
    pace.jitterSeconds = body.jitterSeconds;
  return pace.retrySeconds + random() * pace.jitterSeconds;
}

/**
 * The seconds until the next check after `failures` failed checks in a row (1 for the first): 2, 4,
 * 8... up to `maxSeconds`, plus the room's jitter (a second at least), so clients cut off together do not return together.
 */
export function backoff(pace: Pace, failures: number, maxSeconds: number, random: () => number): number {
  return Math.min(maxSeconds, 2 ** Math.max(1, failures)) + random() * Math.max(1, pace.jitterSeconds);
}
