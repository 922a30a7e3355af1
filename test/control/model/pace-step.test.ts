// The autopilot inside the control model (pace-step.ts): the origin's times in the decision lines move the rate the
// plan holds, the schedule follows it, and a restarted controller goes on from the rate it chose.
import { describe, expect, it } from 'vitest';
import { createControlModel } from '../../../control/model/control-model.js';
import type { ModelSaved } from '../../../control/model/saved.js';
import type { ControlModel, DecisionLine } from '../../../control/types.js';
import { idFor, parsedLine, waitArrivals } from '../lines.js';

const D = 20;
const T0 = Date.UTC(2026, 0, 1);
const AUTO = {
  wait_period_duration: String(D),
  allow_percentage: '50',
  new_users_per_minute: '600',
  auto_floor_per_minute: '60',
  target_mode: 'auto',
};

/** A second of a crowd of 10 new visitors, and 30 requests inside that reach an origin answering in `originMs`. */
const second = (t: number, originMs: number): DecisionLine[] => [
  ...waitArrivals(10, t, t / 1000, D),
  ...Array.from({ length: 30 }, () =>
    parsedLine(
      { tsMs: t, reason: 'allow_token', decision: 'allow', outcome: 'origin', originMs, originStatus: 200 },
      D,
    ),
  ),
];

/** An admission by a draw at `t`, the `n`th of the run. */
const admission = (t: number, n: number): DecisionLine =>
  parsedLine(
    {
      tsMs: t,
      reason: 'draw_won',
      decision: 'allow',
      outcome: 'origin',
      newTid: idFor(0.5, n),
      newDec: 'allow',
      originMs: 100,
      originStatus: 200,
    },
    D,
  );

let admitted = 0;

/** A second at a time: the crowd, and admissions at the rate the autopilot holds (as the draws would make them). */
function drive(model: ControlModel, from: number, to: number, originMs: number): void {
  let owed = 0;
  for (let t = from; t < to; t += 1000) {
    for (const l of second(t, originMs)) model.observe(l);
    owed += (model.snapshot(t).pace?.ratePerMinute ?? 0) / 60;
    for (; owed >= 1; owed--) model.observe(admission(t, admitted++));
    const w = model.plan(t, { holding: false, writeIntervalMs: 0 });
    if (w !== null) model.written(w, true, t);
  }
}

const paceOf = (m: ControlModel, t: number) => m.snapshot(t).pace!;

describe('the autopilot in the control model', () => {
  it('starts at the floor, raises while the origin is fast, and the plan holds the rate it chose', () => {
    const m = createControlModel({ leadSeconds: 25 });
    m.settings(AUTO, T0);
    drive(m, T0, T0 + 20_000, 100);
    expect(paceOf(m, T0 + 20_000).ratePerMinute).toBe(60);
    drive(m, T0 + 20_000, T0 + 600_000, 100);
    const pace = paceOf(m, T0 + 600_000);
    expect(pace.ratePerMinute).toBeGreaterThan(100);
    expect(pace.objective).toEqual({ latencyMs: 800, percentile: 90, errorShare: 0.01 });
    const row = m.snapshot(T0 + 599_000).minutes.at(-1)!;
    expect(row.target).toBe(pace.ratePerMinute);
    expect(row.origin.requests).toBeGreaterThan(0);
    expect(row.origin.latencyMs).toBeLessThanOrEqual(105);
  });

  it('cuts the rate within a reading of the origin going over the objective, and a restored model keeps it', () => {
    const m = createControlModel({ leadSeconds: 25 });
    m.settings(AUTO, T0);
    drive(m, T0, T0 + 600_000, 100);
    const before = paceOf(m, T0 + 600_000).ratePerMinute;
    drive(m, T0 + 600_000, T0 + 640_000, 2_000);
    const cut = paceOf(m, T0 + 640_000);
    expect(cut.state).toBe('cutting');
    expect(cut.latencyMs).toBeGreaterThan(800);
    // Cut by objective / reading, at most to half: from at most a raise above `before`.
    expect(cut.ratePerMinute).toBeLessThanOrEqual(before * 0.9 + 1e-9);
    expect(cut.ratePerMinute).toBeGreaterThanOrEqual(before * 0.5 - 1e-9);
    const restored = createControlModel({
      leadSeconds: 25,
      restore: JSON.parse(JSON.stringify(m.save())) as ModelSaved,
    });
    restored.settings(AUTO, T0 + 640_000);
    expect(paceOf(restored, T0 + 640_000).ratePerMinute).toBe(cut.ratePerMinute);
  });

  it('has no autopilot in manual mode: the plan holds new_users_per_minute', () => {
    const m = createControlModel({ leadSeconds: 25 });
    m.settings({ ...AUTO, target_mode: 'manual' }, T0);
    drive(m, T0, T0 + 120_000, 5_000);
    const snap = m.snapshot(T0 + 119_000);
    expect(snap.pace).toBeNull();
    expect(snap.minutes.at(-1)!.target).toBe(600);
  });
});
