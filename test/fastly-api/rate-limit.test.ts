import { describe, expect, it } from 'vitest';
import { createRateLimit, rateLimitHeaders } from '../../fastly-api/rate-limit.js';

const HOUR = 3_600_000;
const t0 = Date.UTC(2026, 10, 26, 10, 15); // 10:15, a quarter into the 10:00 window

describe('the API rate limit', () => {
  it('gives each token its calls an hour, then refuses until the window resets on the hour', () => {
    const limit = createRateLimit({ callsPerHour: 3 });
    const seen = [1, 2, 3, 4].map(() => limit.take('a', 'PUT', t0));
    expect(seen.map((v) => [v.ok, v.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(seen[3]!.reset).toBe(Date.UTC(2026, 10, 26, 11) / 1000);
    expect(limit.take('b', 'PUT', t0).ok).toBe(true); // per token
    const next = limit.take('a', 'PUT', Date.UTC(2026, 10, 26, 11) + 1);
    expect([next.ok, next.remaining, next.reset]).toEqual([true, 2, Date.UTC(2026, 10, 26, 12) / 1000]);
  });

  it('counts reads by default, and leaves them free as Fastly documents when asked', () => {
    const counted = createRateLimit({ callsPerHour: 1 });
    counted.take('a', 'GET', t0);
    expect(counted.take('a', 'GET', t0).ok).toBe(false);
    const free = createRateLimit({ callsPerHour: 1, reads: 'free' });
    for (let i = 0; i < 5; i++) expect(free.take('a', 'GET', t0).ok).toBe(true);
    expect(free.take('a', 'PATCH', t0).remaining).toBe(0);
    expect(free.take('a', 'DELETE', t0 + HOUR / 2).ok).toBe(false);
  });

  it('writes the headers as Fastly names them', () => {
    expect(rateLimitHeaders({ ok: true, remaining: 999, reset: 1452032384 })).toEqual({
      'Fastly-RateLimit-Remaining': '999',
      'Fastly-RateLimit-Reset': '1452032384',
    });
  });

  it('refuses a limit that is not a whole number', () => {
    expect(() => createRateLimit({ callsPerHour: 1.5 })).toThrow(/whole number/);
  });
});
