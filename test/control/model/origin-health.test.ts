import { describe, expect, it } from 'vitest';
import { isOriginError, OriginHealth } from '../../../control/model/origin-health.js';
import type { DecisionLine, OriginStatus } from '../../../control/types.js';
import { parsedLine } from '../lines.js';

const T0 = Date.UTC(2026, 11, 7, 10, 0, 0);

/** A forwarded request's line at `tsMs`, with the origin's answer when given. */
const line = (tsMs: number, originMs?: number, originStatus?: OriginStatus): DecisionLine =>
  parsedLine(
    {
      tsMs,
      reason: 'allow_token',
      decision: 'allow',
      outcome: 'origin',
      ...(originMs === undefined ? {} : { originMs }),
      ...(originStatus === undefined ? {} : { originStatus }),
    },
    20,
  );

describe('the origin as the decision lines tell it', () => {
  it('counts a failure, a 429 and a 5xx as errors, and nothing below', () => {
    expect(['timeout', 'refused', 'failed', 429, 500, 503].map((s) => isOriginError(s as OriginStatus))).toEqual(
      Array(6).fill(true),
    );
    expect([200, 302, 404, 499].map(isOriginError)).toEqual([false, false, false, false]);
  });

  it('reads the percentile of the time to headers within 5%, over the seconds asked only', () => {
    const h = new OriginHealth();
    // 100 requests in second 0 at 1..100 ms; 100 in second 40 at 1,000 ms.
    for (let i = 1; i <= 100; i++) h.observe(line(T0 + 10 * i, i, 200));
    for (let i = 0; i < 100; i++) h.observe(line(T0 + 40_000 + i, 1_000, 200));
    const first = h.reading(T0, T0 + 30_000, 90);
    expect(first.requests).toBe(100);
    expect(first.errorShare).toBe(0);
    expect(first.latencyMs).toBeGreaterThanOrEqual(90);
    expect(first.latencyMs).toBeLessThanOrEqual(95);
    expect(h.reading(T0 + 30_000, T0 + 60_000, 50).latencyMs).toBeGreaterThanOrEqual(1_000);
    expect(h.reading(T0 + 30_000, T0 + 60_000, 50).latencyMs).toBeLessThanOrEqual(1_050);
  });

  it('counts a refused connection as an error without letting its instant failure speed the percentile', () => {
    const h = new OriginHealth();
    for (let i = 0; i < 10; i++) h.observe(line(T0 + i, 500, 200));
    for (let i = 0; i < 90; i++) h.observe(line(T0 + 100 + i, 1, 'refused'));
    const r = h.reading(T0, T0 + 1_000, 50);
    expect(r.errorShare).toBeCloseTo(0.9);
    expect(r.latencyMs).toBeGreaterThanOrEqual(500);
  });

  it('leaves lines without the origin out, and says nothing of a span without requests', () => {
    const h = new OriginHealth();
    h.observe(line(T0));
    expect(h.reading(T0, T0 + 60_000, 90)).toEqual({ requests: 0, errorShare: null, latencyMs: null });
    expect(h.minute(T0, 90)).toEqual({ requests: 0, errorShare: null, latencyMs: null });
  });

  it("keeps a minute's row for an hour and seconds for two minutes", () => {
    const h = new OriginHealth();
    h.observe(line(T0, 100, 503));
    h.prune(T0 + 3 * 60_000);
    expect(h.reading(T0, T0 + 1_000, 90).requests).toBe(0);
    const minute = h.minute(T0, 90);
    expect(minute).toMatchObject({ requests: 1, errorShare: 1 });
    expect(minute.latencyMs).toBeGreaterThanOrEqual(100);
    expect(minute.latencyMs).toBeLessThanOrEqual(105);
    h.prune(T0 + 61 * 60_000);
    expect(h.minute(T0, 90).requests).toBe(0);
  });
});
