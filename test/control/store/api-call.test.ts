// One API call as the controller sees it: the rate-limit figures an answer's headers give, the kind of
// a write, and whether the CLI's error names a 429.
import { describe, expect, it } from 'vitest';
import { callKind, cliRateLimited, rateLimitOf } from '../../../control/store/api-call.js';
import { CONTROLLER_KEY } from '../../../src/core/settings/index.js';

const T0 = Date.UTC(2026, 10, 26, 10);

describe('an API call', () => {
  it('reads the rate-limit headers of an answer', () => {
    const headers = new Headers({
      'Fastly-RateLimit-Remaining': '812',
      'Fastly-RateLimit-Reset': String(T0 / 1000 + 1800),
      'Retry-After': '30',
    });
    expect(rateLimitOf(headers)).toEqual({ remaining: 812, resetMs: T0 + 1_800_000, retryAfterMs: 30_000 });
    expect(rateLimitOf(new Headers())).toEqual({ remaining: null, resetMs: null, retryAfterMs: null });
  });

  it('is a heartbeat when it writes only the heartbeat, and a 429 when the CLI says so', () => {
    expect(callKind([CONTROLLER_KEY])).toBe('heartbeat');
    expect(callKind([CONTROLLER_KEY, 'room.shop.live'])).toBe('write');
    expect(cliRateLimited('ERROR: the Fastly API returned 429 Too Many Requests')).toBe(true);
    expect(cliRateLimited('ERROR: the Fastly API returned 401 Unauthorized')).toBe(false);
  });
});
