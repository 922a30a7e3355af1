import { describe, expect, it } from 'vitest';
import {
  initialPace,
  type PaceInput,
  type PaceState,
  paceTick,
  PACE_TICK_MS,
  SETTLE_MS,
  targetPerMinute,
} from '../../../control/model/pace.js';
import type { PaceSettings } from '../../../src/core/types.js';

const AUTO: PaceSettings = {
  mode: 'auto',
  floorPerMinute: 60,
  objective: { latencyMs: 800, percentile: 90, errorShare: 0.01 },
};
const T0 = 1_000_000_000;

/** Ticks the law every PACE_TICK_MS from `from` for `ms`, each reading what `reading(rate)` says. */
function run(
  p: PaceState,
  from: number,
  ms: number,
  reading: (rate: number) => Partial<PaceInput['reading']>,
  extra: Partial<PaceInput> = {},
): number {
  let t = from;
  for (; t < from + ms; t += PACE_TICK_MS) {
    const rate = p.rate ?? 60;
    paceTick(p, {
      nowMs: t,
      settings: AUTO,
      ceiling: 600,
      reading: { requests: 200, errorShare: 0, latencyMs: 100, ...reading(rate) },
      admittedPerMinute: rate,
      visitPerMinute: rate,
      waiting: 1_000,
      ...extra,
    });
  }
  return t;
}

describe('the autopilot (target_mode = auto)', () => {
  it('starts at the floor and raises while the origin is healthy and the crowd fills the rate, never past the ceiling', () => {
    const p = initialPace();
    run(p, T0, 10_000, () => ({}));
    expect(p.rate).toBe(60);
    run(p, T0 + 10_000, 30 * 60_000, () => ({}));
    expect(p.rate).toBe(600);
    expect(p.state).toBe('holding');
    expect(p.why).toContain('ceiling');
  });

  it('at most doubles the rate before any breach, and never sooner than 30 s after the last change', () => {
    const p = initialPace();
    const rates: number[] = [];
    for (let t = T0; t < T0 + 5 * 60_000; t += PACE_TICK_MS) {
      run(p, t, PACE_TICK_MS, () => ({}));
      rates.push(p.rate!);
    }
    const changes = rates.map((r, i) => (i > 0 && r !== rates[i - 1] ? i : -1)).filter((i) => i >= 0);
    for (let i = 1; i < changes.length; i++)
      expect((changes[i]! - changes[i - 1]!) * PACE_TICK_MS).toBeGreaterThanOrEqual(SETTLE_MS);
    for (let i = 1; i < rates.length; i++) expect(rates[i]! / rates[i - 1]!).toBeLessThanOrEqual(2 + 1e-9);
    expect(Math.max(...rates.map((r, i) => (i > 0 ? r / rates[i - 1]! : 1)))).toBeGreaterThan(1.25);
  });

  it('cuts at once when the objective breaks, by the square root of objective over reading, to no less than half', () => {
    const p = initialPace();
    p.rate = 400;
    run(p, T0, PACE_TICK_MS, () => ({ latencyMs: 1_250 }));
    expect(p.state).toBe('cutting');
    expect(p.rate).toBeCloseTo(400 * 0.8);
    const q = initialPace();
    q.rate = 400;
    run(q, T0, PACE_TICK_MS, () => ({ latencyMs: 5_000 }));
    expect(q.rate).toBeCloseTo(200);
  });

  it('cuts from what was admitted over the last visit, whose visitors make the load, not from a rate never filled', () => {
    const p = initialPace();
    p.rate = 500;
    run(p, T0, PACE_TICK_MS, () => ({ latencyMs: 1_250 }), { admittedPerMinute: 400, visitPerMinute: 200 });
    expect(p.rate).toBeCloseTo(160);
  });

  it('remembers as the breach the rate the origin was last seen to carry, when less was made the load', () => {
    const p = initialPace();
    p.rate = 400;
    let t = run(p, T0, 20_000, () => ({ latencyMs: 700 }), { visitPerMinute: 300 });
    t = run(p, t, PACE_TICK_MS, () => ({ latencyMs: 1_250 }), { visitPerMinute: 380 });
    expect(p.breach?.rate).toBe(300);
    expect(p.rate).toBeCloseTo(380 * 0.8);
  });

  it("waits for a raise's load to reach the origin: the rate admitted over a visit must be 90% of it", () => {
    const p = initialPace();
    p.rate = 200;
    run(p, T0, 5 * 60_000, () => ({}), { admittedPerMinute: 200, visitPerMinute: 150 });
    expect(p.rate).toBe(200);
    expect(p.why).toContain('has not reached the origin');
  });

  it('cuts once for a breach while its cut reaches the origin, again when the reading is half as bad again or a visit later', () => {
    const p = initialPace();
    p.rate = 400;
    let t = run(p, T0, PACE_TICK_MS, () => ({ latencyMs: 1_000 }));
    const once = p.rate!;
    t = run(p, t, 60_000, () => ({ latencyMs: 1_400 }), { visitPerMinute: 400 });
    expect(p.rate).toBe(once);
    t = run(p, t, PACE_TICK_MS, () => ({ latencyMs: 1_600 }), { visitPerMinute: 400 });
    expect(p.rate).toBeLessThan(once);
    const twice = p.rate!;
    t = run(p, t, 170_000, () => ({ latencyMs: 1_000 }), { visitPerMinute: 400 });
    expect(p.rate).toBe(twice);
    run(p, t, 20_000, () => ({ latencyMs: 1_000 }), { visitPerMinute: 400 });
    expect(p.rate).toBeLessThan(twice);
  });

  it('raises by at most a quarter once a breach is remembered, and by 5% near its rate', () => {
    const p = initialPace();
    p.rate = 200;
    p.breach = { rate: 300, atMs: T0, latencyMs: 1_200 };
    const rates: number[] = [];
    for (let t = T0; t < T0 + 8 * 60_000; t += PACE_TICK_MS) {
      run(p, t, PACE_TICK_MS, () => ({ latencyMs: 500 }));
      rates.push(p.rate!);
    }
    for (let i = 1; i < rates.length; i++) {
      expect(rates[i]! / rates[i - 1]!).toBeLessThanOrEqual(1.25 + 1e-9);
      if (rates[i]! > 0.9 * 300) expect(rates[i]! / rates[i - 1]!).toBeLessThanOrEqual(1.05 + 1e-9);
    }
  });

  it('forgets a breach once the origin carries a tenth more than its rate reading under half the objective: it has room again', () => {
    const p = initialPace();
    p.rate = 100;
    p.breach = { rate: 120, atMs: T0, latencyMs: 1_200 };
    run(p, T0, 20_000, () => ({ latencyMs: 300 }));
    // Under the breach's rate a low reading says nothing new: the visitors inside had just left.
    expect(p.breach).not.toBeNull();
    expect(p.rate).toBe(105);
    p.rate = 120;
    run(p, T0 + 60_000, 20_000, () => ({ latencyMs: 300 }));
    expect(p.breach).not.toBeNull();
    p.rate = 132;
    run(p, T0 + 120_000, 20_000, () => ({ latencyMs: 300 }));
    expect(p.breach).toBeNull();
    expect(p.rate).toBe(264);
  });

  it('holds near the objective: no raise between 80% and 100% of it', () => {
    const p = initialPace();
    p.rate = 300;
    run(p, T0, 10 * 60_000, () => ({ latencyMs: 700 }));
    expect(p.rate).toBe(300);
    expect(p.state).toBe('holding');
  });

  it('holds while the crowd does not fill the rate, so it does not wind up', () => {
    const p = initialPace();
    p.rate = 200;
    run(p, T0, 10 * 60_000, () => ({}), { waiting: 0, admittedPerMinute: 50 });
    expect(p.rate).toBe(200);
    expect(p.why).toContain('does not fill');
  });

  it('stops new admissions in an error storm, and reopens at half the rate after two calm readings', () => {
    const p = initialPace();
    p.rate = 400;
    let t = run(p, T0, 60_000, () => ({ errorShare: 0.6 }));
    expect(p.state).toBe('stopped');
    expect(p.rate).toBe(0);
    expect(targetPerMinute(600, AUTO, p)).toBe(0);
    t = run(p, t, PACE_TICK_MS, () => ({ errorShare: 0 }));
    expect(p.state).toBe('stopped');
    run(p, t, PACE_TICK_MS, () => ({ errorShare: 0 }));
    expect(p.state).toBe('reopening');
    expect(p.rate).toBe(200);
  });

  it('probes a silent origin after a storm with a trickle at the floor', () => {
    const p = initialPace();
    p.rate = 400;
    const t = run(p, T0, PACE_TICK_MS, () => ({ errorShare: 1 }));
    run(p, t, 2 * 60_000, () => ({ requests: 0, errorShare: null, latencyMs: null }));
    expect(p.state).toBe('reopening');
    expect(p.rate).toBe(60);
  });

  it("says nothing from too few requests, and keeps the operator's bounds when they move", () => {
    const p = initialPace();
    p.rate = 300;
    run(p, T0, 60_000, () => ({ requests: 5, latencyMs: 5_000 }));
    expect(p.rate).toBe(300);
    paceTick(p, {
      nowMs: T0 + 120_000,
      settings: AUTO,
      ceiling: 100,
      reading: { requests: 5, errorShare: 0, latencyMs: 100 },
      admittedPerMinute: 100,
      visitPerMinute: 100,
      waiting: 10,
    });
    expect(p.rate).toBe(100);
  });

  it('plans the ceiling in manual mode whatever the law did', () => {
    const p = initialPace();
    p.rate = 42;
    expect(targetPerMinute(600, { ...AUTO, mode: 'manual' }, p)).toBe(600);
    expect(targetPerMinute(null, AUTO, p)).toBeNull();
    expect(targetPerMinute(600, { ...AUTO, floorPerMinute: null }, initialPace())).toBe(60);
  });
});
