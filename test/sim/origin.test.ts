// The simulator's origin (sim/origin.ts): a pool of workers serving first come, first served, that
// sheds what would wait too long and times out what takes too long; its events; and its capacity in
// new visitors a minute as sim/origin-capacity.ts finds it.
import { describe, expect, it } from 'vitest';
import { browsing } from '../../sim/arrivals.js';
import { capacitySpans, requestTimes, steadyCapacity, steadyOrigin } from '../../sim/origin-capacity.js';
import { SHOP_CAPACITY, shopOrigin } from '../../sim/origin-scenarios.js';
import { isOriginError, Origin, type OriginAnswer, type OriginSpec } from '../../sim/origin.js';
import { createRandom } from '../../lib/random.js';
import { quantile } from '../../lib/quantiles.js';

const MINUTE = 60_000;
const OBJECTIVE = { latencyMs: 800, percentile: 90, errorShare: 0.01 };

/** A fixed service time (sigma 0): every request takes exactly `serviceMs` of a worker. */
const fixed = (patch: Partial<OriginSpec> = {}): OriginSpec => ({
  workers: 1,
  serviceMs: 100,
  serviceSigma: 0,
  shedAfterMs: 1_000,
  timeoutMs: 10_000,
  quickMs: 5,
  events: [],
  ...patch,
});

const answers = (spec: OriginSpec, times: readonly number[], seed = 'o'): OriginAnswer[] => {
  const origin = new Origin(spec, createRandom(seed));
  return times.map((t) => origin.request(t));
};

/** Requests at `perSecond` for a minute, a Poisson process. */
function poisson(perSecond: number, seed = 'p'): number[] {
  const rng = createRandom(seed);
  const out: number[] = [];
  for (let t = rng.exponential(1000 / perSecond); t < MINUTE; t += rng.exponential(1000 / perSecond)) out.push(t);
  return out;
}

const p90 = (xs: readonly OriginAnswer[]): number =>
  quantile(
    xs.map((a) => a.ms).sort((a, b) => a - b),
    0.9,
  );

describe('the origin serves first come, first served', () => {
  it('gives each request its wait for the earliest free worker plus its service', () => {
    expect(answers(fixed(), [0, 0, 0]).map((a) => a.ms)).toEqual([100, 200, 300]);
    expect(answers(fixed({ workers: 2 }), [0, 0, 0, 0, 250]).map((a) => a.ms)).toEqual([100, 100, 200, 200, 100]);
  });

  it('sheds a request that would wait longer than its bound: 503 at once, no worker spent', () => {
    const a = answers(fixed({ shedAfterMs: 150 }), [0, 0, 0, 0]);
    expect(a.map((x) => x.status)).toEqual([200, 200, 503, 503]);
    expect(a[2]!.ms).toBe(5);
    // The shed ones took no worker: a request at 200 starts at once.
    expect(answers(fixed({ shedAfterMs: 150 }), [0, 0, 0, 200])[3]).toEqual({ ms: 100, status: 200 });
  });

  it('calls a request not answered within the timeout a timeout, and its worker still serves it', () => {
    const a = answers(fixed({ timeoutMs: 150 }), [0, 0, 0]);
    expect(a[1]).toEqual({ ms: 150, status: 'timeout' });
    expect(a[2]).toEqual({ ms: 150, status: 'timeout' });
    expect(isOriginError('timeout')).toBe(true);
    expect(isOriginError(503)).toBe(true);
    expect(isOriginError(429)).toBe(true);
    expect(isOriginError(404)).toBe(false);
  });

  it('answers slower as the load grows, and with errors past its capacity', () => {
    // 4 workers of 180 ms: about 22 requests a second at most.
    const at = (perSecond: number): OriginAnswer[] => answers(shopOrigin, poisson(perSecond));
    const times = [5, 15, 20].map((r) => p90(at(r)));
    expect(times[0]).toBeLessThan(times[1]!);
    expect(times[1]).toBeLessThan(times[2]!);
    expect(at(15).filter((a) => isOriginError(a.status))).toHaveLength(0);
    const over = at(30);
    expect(over.filter((a) => a.status === 503).length / over.length).toBeGreaterThan(0.2);
    expect(p90(over)).toBeGreaterThan(2_000);
  });
});

describe('the origin’s events', () => {
  it('halves its workers: the workers left are those free soonest, and serve alone from then on', () => {
    const spec = fixed({ workers: 2, events: [{ kind: 'workers', fromMs: 1_000, share: 0.5 }] });
    expect(answers(spec, [0, 0]).map((a) => a.ms)).toEqual([100, 100]);
    expect(answers(spec, [1_000, 1_000]).map((a) => a.ms)).toEqual([100, 200]);
  });

  it('brings the workers back when the event ends', () => {
    const spec = fixed({ workers: 2, events: [{ kind: 'workers', fromMs: 0, untilMs: 1_000, share: 0.5 }] });
    expect(answers(spec, [0, 0, 2_000, 2_000]).map((a) => a.ms)).toEqual([100, 200, 100, 100]);
  });

  it('adds a slow dependency’s time to every request that starts while it lasts, which holds the workers too', () => {
    const spec = fixed({ events: [{ kind: 'slow', fromMs: 1_000, untilMs: 2_000, addMs: 400 }] });
    expect(answers(spec, [0, 1_000, 1_000, 3_000]).map((a) => a.ms)).toEqual([100, 500, 1_000, 100]);
  });

  it('answers a share of the requests 500 at once during a storm, and none outside it', () => {
    const spec = fixed({
      workers: 100,
      events: [{ kind: 'storm', fromMs: 0, untilMs: 30_000, share: 0.6, status: 500 }],
    });
    const times = poisson(50);
    const a = answers(spec, times);
    const inStorm = a.filter((_, i) => times[i]! < 30_000);
    const after = a.filter((_, i) => times[i]! >= 30_000);
    const share = inStorm.filter((x) => x.status === 500).length / inStorm.length;
    expect(share).toBeGreaterThan(0.55);
    expect(share).toBeLessThan(0.65);
    expect(inStorm.filter((x) => x.status === 500).every((x) => x.ms === 5)).toBe(true);
    expect(after.every((x) => x.status === 200)).toBe(true);
  });
});

describe('the origin’s capacity in new visitors a minute', () => {
  it('is what the shop’s scenarios state, and falls with each event', () => {
    const spans = capacitySpans(shopOrigin, browsing, OBJECTIVE);
    expect(spans).toEqual([{ fromMs: 0, perMinute: SHOP_CAPACITY, label: 'the origin as built' }]);
    const half = steadyCapacity(
      steadyOrigin(shopOrigin, { kind: 'workers', fromMs: 0, share: 0.5 }),
      browsing,
      OBJECTIVE,
    );
    const slow = steadyCapacity(steadyOrigin(shopOrigin, { kind: 'slow', fromMs: 0, addMs: 400 }), browsing, OBJECTIVE);
    const storm = steadyCapacity(
      steadyOrigin(shopOrigin, { kind: 'storm', fromMs: 0, share: 0.6, status: 500 }),
      browsing,
      OBJECTIVE,
    );
    expect(half).toBeLessThan(SHOP_CAPACITY * 0.5);
    expect(half).toBeGreaterThan(SHOP_CAPACITY * 0.3);
    expect(slow).toBeLessThan(half);
    expect(slow).toBeGreaterThan(0);
    expect(storm).toBe(0);
  });

  it('gives span by span the capacity in force, an event’s while it lasts', () => {
    const spec = {
      ...shopOrigin,
      events: [{ kind: 'storm' as const, fromMs: 10 * MINUTE, untilMs: 11 * MINUTE, share: 0.6, status: 500 }],
    };
    expect(capacitySpans(spec, browsing, OBJECTIVE).map((s) => [s.fromMs / MINUTE, s.perMinute, s.label])).toEqual([
      [0, SHOP_CAPACITY, 'the origin as built'],
      [10, 0, 'storm'],
      [11, SHOP_CAPACITY, 'the origin as built'],
    ]);
  });

  it('feeds the origin the crowd’s own browsing: about 3.8 requests for each visitor admitted', () => {
    const times = requestTimes(100, 60 * MINUTE, browsing, 'pattern');
    expect(times.length / 6_000).toBeGreaterThan(3.5);
    expect(times.length / 6_000).toBeLessThan(4.1);
    expect(times.every((t, i) => i === 0 || t >= times[i - 1]!)).toBe(true);
  });
});
