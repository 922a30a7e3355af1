// The figures of a run with an origin behind the room (sim/origin-figures.ts), their definitions on
// small made-up minutes, the clairvoyant operator's scenario, and a short run of `origin-find` whose
// decision lines carry how the origin answered each forwarded request.
import { beforeAll, describe, expect, it } from 'vitest';
import { MINUTE, spread } from '../../sim/arrivals.js';
import { keeps, originMinutes } from '../../sim/origin-capacity.js';
import { firstAtCapacity, firstKept, nearCapacity } from '../../sim/origin-figures.js';
import { clairvoyantOf } from '../../sim/origin-run.js';
import { createRoom } from '../../sim/room.js';
import type { ScenarioFigures } from '../../sim/figures.js';
import type { RunResult } from '../../sim/run.js';
import { run, scenario } from './support.js';

const OBJECTIVE = { latencyMs: 800, percentile: 90, errorShare: 0.01 };
const rows = (flags: string): { kept: boolean; atCapacity: boolean }[] =>
  [...flags].map((c) => ({ kept: c === 'y', atCapacity: c === 'y' }));

describe('the figures’ definitions', () => {
  it('takes each minute’s time at the percentile and its error share from the requests sent in it', () => {
    const requests = [
      ...Array.from({ length: 9 }, (_, i) => ({ atMs: 1_000 * i, ms: 100 + i, error: false })),
      { atMs: 9_000, ms: 5, error: true },
      { atMs: 61_000, ms: 900, error: false },
    ];
    const [first, second, third] = originMinutes(requests, 3, 90);
    expect(first).toEqual({ requests: 10, latencyMs: 107, errorShare: 0.1 });
    expect(second).toEqual({ requests: 1, latencyMs: 900, errorShare: 0 });
    expect(third).toEqual({ requests: 0, latencyMs: null, errorShare: null });
    expect(keeps(first!, OBJECTIVE)).toBe(false); // 10% errors
    expect(keeps(second!, OBJECTIVE)).toBe(false); // 900 ms
    expect(keeps(third!, OBJECTIVE)).toBe(true); // nothing sent, nothing broken
    expect(keeps({ requests: 5, latencyMs: 800, errorShare: 0.01 }, OBJECTIVE)).toBe(true);
  });

  it('is at the capacity within ±10% of it, and at a capacity of 0 only with nobody admitted', () => {
    expect(nearCapacity(270, 300)).toBe(true);
    expect(nearCapacity(330, 300)).toBe(true);
    expect(nearCapacity(269, 300)).toBe(false);
    expect(nearCapacity(331, 300)).toBe(false);
    expect(nearCapacity(0, 0)).toBe(true);
    expect(nearCapacity(1, 0)).toBe(false);
  });

  it('reaches the capacity at the first of three minutes in a row at it', () => {
    expect(firstAtCapacity(rows('nnyynyyyn'), 0)).toBe(5);
    expect(firstAtCapacity(rows('nnyynyyyn'), 3)).toBe(2);
    expect(firstAtCapacity(rows('yyy'), 0)).toBe(0);
    expect(firstAtCapacity(rows('nyynyy'), 0)).toBeNull();
  });

  it('recovers at the first of two minutes in a row within the objective, or a last minute within it', () => {
    expect(firstKept(rows('yyyynnynyy'), 4)).toBe(4);
    expect(firstKept(rows('yyyyyy'), 2)).toBe(0);
    expect(firstKept(rows('yyyynnnny'), 4)).toBe(4);
    expect(firstKept(rows('yyyynnnn'), 4)).toBeNull();
  });
});

describe('the clairvoyant operator', () => {
  it('runs the room by hand at the capacity in force, changed at each event, and at 1 a minute where it is 0', () => {
    const s = scenario('origin-storm');
    const c = clairvoyantOf(s, [
      { fromMs: 0, perMinute: 280, label: 'the origin as built' },
      { fromMs: 10 * MINUTE, perMinute: 0, label: 'storm' },
      { fromMs: 11 * MINUTE, perMinute: 280, label: 'the origin as built' },
    ]);
    expect(c.settings.target_mode).toBeUndefined();
    expect(c.settings.auto_floor_per_minute).toBeUndefined();
    expect(c.settings.new_users_per_minute).toBe('280');
    expect(c.changes).toEqual([
      { atMs: 10 * MINUTE, key: 'new_users_per_minute', value: '1' },
      { atMs: 11 * MINUTE, key: 'new_users_per_minute', value: '280' },
    ]);
    expect(c.origin).toBe(s.origin);
    // Named as the scenario, so its run draws the same crowd from the same seed.
    expect(c.name).toBe(s.name);
    expect(c.arrivals).toBe(s.arrivals);
  });
});

describe('a room with no origin', () => {
  it('logs no origin fields, and the status 200 the simulator always gave', async () => {
    const lines: string[] = [];
    const room = createRoom({ allow_percentage: '100', log_endpoint: 'x' }, 'o', { onLine: (_p, t) => lines.push(t) });
    await room.request('10.0.0.1', [], 0);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line.outcome).toBe('origin');
    expect(line.status).toBe(200);
    expect(line).not.toHaveProperty('originMs');
    expect(line).not.toHaveProperty('originStatus');
  });
});

describe('a short run of origin-find', () => {
  let result: RunResult;
  let figures: ScenarioFigures;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    const s = scenario('origin-find', {
      durationMs: 6 * MINUTE,
      arrivals: (rng, n) => spread(rng, n, 0, 4 * MINUTE),
    });
    ({ result, figures } = await run(s, 1_200, 'test-1', {
      clairvoyant: false,
      onLine: (text) => lines.push(JSON.parse(text) as Record<string, unknown>),
    }));
  }, 180_000);

  it('puts the origin’s time and status on every line of a forwarded request, and on no other', () => {
    const forwarded = lines.filter((l) => l.outcome === 'origin');
    expect(forwarded.length).toBeGreaterThan(100);
    expect(forwarded.length).toBe(result.origin!.requests.length);
    for (const l of forwarded) {
      expect(typeof l.originMs).toBe('number');
      expect(l.originStatus === 'timeout' || typeof l.originStatus === 'number').toBe(true);
      expect(l.status).toBe(typeof l.originStatus === 'number' ? l.originStatus : 502);
    }
    for (const l of lines.filter((x) => x.outcome !== 'origin')) {
      expect(l).not.toHaveProperty('originMs');
      expect(l).not.toHaveProperty('originStatus');
    }
  });

  it('states the origin’s figures minute by minute against its capacity', () => {
    const o = figures.origin!;
    expect(o.spans[0]!.perMinute).toBe(280);
    expect(o.minutes).toHaveLength(6);
    expect(o.requests).toBe(result.origin!.requests.length);
    expect(o.minutes.reduce((a, m) => a + m.requests, 0)).toBe(o.requests);
    expect(o.minutes.reduce((a, m) => a + m.admissions, 0)).toBe(figures.admitted);
    expect(o.clairvoyantAdmitted).toBeNull();
    expect(o.rates.length).toBeGreaterThan(0);
  });
});
