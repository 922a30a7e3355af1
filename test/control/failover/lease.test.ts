// The lease on a published schedule: a dead controller leaves each room on a known chance.
import { describe, expect, it } from 'vitest';
import { leaseEnd, lowestForecast, withLease } from '../../../control/failover/lease.js';
import { parseConfig } from '../../../src/core/settings/index.js';
import { chanceFor } from '../../../src/core/decision/draw.js';

const d = 30;
const now = 1_800_000_015; // 15 s into the window 1_800_000_000
const forecast = (windows: number, pct: (i: number) => number): string =>
  Array.from({ length: windows }, (_, i) => `${1_800_000_000 - d + i * d}=${pct(i)}`).join(',');

describe('the lease on a schedule', () => {
  it('ends a lease ahead on the lowest chance of the forecast, so the edge draws it once the controller is gone', () => {
    const text = withLease(
      forecast(20, (i) => 40 - i),
      now,
      d,
      600,
      null,
    );
    const { config } = parseConfig(
      (k) => ({ allow_percentage: '50', allow_schedule: text, wait_period_duration: '30' })[k] ?? null,
    );
    const end = leaseEnd(now, d, 600);
    expect(end).toBe(1_800_000_630);
    expect(config.allowSchedule.at(-1)).toEqual({ start: end, pct: 21 });
    // Before the lease's end the forecast holds; after it, for ever, the fallback.
    expect(chanceFor(config, 1_800_000_300)).toBe(29);
    expect(chanceFor(config, end + 3600)).toBe(21);
  });

  it("ends on the room's fallback_percentage when the operator set one, and drops the forecast past the lease", () => {
    const text = withLease(
      forecast(40, () => 12.5),
      now,
      d,
      300,
      5,
    );
    const entries = text.split(',');
    expect(entries.at(-1)).toBe('1800000330=5');
    expect(entries.every((e) => Number(e.split('=')[0]) <= 1_800_000_330)).toBe(true);
  });

  it('leaves an empty schedule (an open room) empty', () => {
    expect(withLease('', now, d, 600, 5)).toBe('');
  });

  it('fits a Config Store value, dropping decimals when it must', () => {
    const long = Array.from({ length: 400 }, (_, i) => `${1_800_000_000 + i}=${(i % 97) + 0.123456}`).join(',');
    const text = withLease(long, now - 15, 1, 1000, null);
    expect(text.length).toBeLessThanOrEqual(8000);
    expect(text.split(',').at(-1)).toMatch(/^1800001000=0\.12/);
  });

  it('takes the lowest chance from the current window on', () => {
    expect(lowestForecast('1799999970=1,1800000000=30,1800000030=20', now, d)).toBe(20);
    expect(lowestForecast('1799999970=1', now, d)).toBeNull();
    // A window held at 0 (a pre-queue draining) is no chance to fall back to: the room would admit nobody.
    expect(lowestForecast('1800000000=0,1800000030=0,1800000060=7', now, d)).toBe(7);
  });
});
