// The model's saved state: a controller restarted from it plans as the one that stopped would have.
import { describe, expect, it } from 'vitest';
import { createControlModel } from '../../../control/model/control-model.js';
import type { ControlModel, DecisionLine } from '../../../control/types.js';
import type { ModelSaved } from '../../../control/model/saved.js';
import { heardLine, idFor, LIVE, parsedLine, waitArrivals } from '../lines.js';

const D = 20;
const T0 = Date.UTC(2026, 0, 1);
const SETTINGS = { wait_period_duration: String(D), allow_percentage: '50', new_users_per_minute: '60' };

/** The lines of a second of a crowd whose arrival rate swings. */
const crowd = (t: number): DecisionLine[] => [
  ...waitArrivals(2 + (((t - T0) / 1000) % 5), t, t / 1000, D),
  heardLine(t, D),
];

/** Ticks a queueing room from `from` to `to`, writing what it asks whenever a minute has passed since the last write. */
function drive(model: ControlModel, from: number, to: number, lastWriteMs: number): number {
  for (let t = from; t < to; t += 1000) {
    for (const l of crowd(t)) model.observe(l);
    const w = model.plan(t, { holding: false, writeIntervalMs: 60_000 });
    if (w !== null && t - lastWriteMs >= 60_000) model.written(w, true, t), (lastWriteMs = t);
  }
  return lastWriteMs;
}

describe("the model's saved state", () => {
  it('gives a restored model the same next plans as the original', () => {
    const original = createControlModel({ leadSeconds: 25 });
    original.settings(SETTINGS, T0);
    const lastWrite = drive(original, T0, T0 + 200_000, Number.NEGATIVE_INFINITY);
    const saved = JSON.parse(JSON.stringify(original.save())) as ModelSaved;
    const restored = createControlModel({ leadSeconds: 25, restore: saved });
    // Without the ledger's own state, the log source gives the restored ledger what it held again.
    const fresh = createControlModel({ leadSeconds: 25 });
    for (const m of [restored, fresh]) {
      m.settings(SETTINGS, T0 + 200_000);
      if (saved.ledger === null) for (let t = T0; t < T0 + 200_000; t += 1000) for (const l of crowd(t)) m.observe(l);
    }
    original.settings(SETTINGS, T0 + 200_000);
    const plans = (m: ControlModel) => {
      const out: unknown[] = [];
      let last = lastWrite;
      for (let t = T0 + 200_000; t < T0 + 320_000; t += 1000) {
        for (const l of crowd(t)) m.observe(l);
        const w = m.plan(t, { holding: false, writeIntervalMs: 60_000 });
        out.push(w);
        if (w !== null && t - last >= 60_000) m.written(w, true, t), (last = t);
      }
      return out;
    };
    const expected = plans(original);
    expect(expected.filter((w) => w !== null).length).toBeGreaterThan(0);
    expect(plans(restored)).toEqual(expected);
    // What the restore carried mattered: a model that only re-read the log plans otherwise.
    expect(plans(fresh)).not.toEqual(expected);
  });

  it("carries the queue cursor's planner over: a restored model saves what the original saved", () => {
    const start = Date.UTC(2026, 0, 1, 1) / 1000;
    const model = createControlModel({ leadSeconds: 25 });
    const iso = (sec: number) => new Date(sec * 1000).toISOString();
    model.settings(
      {
        wait_period_duration: '30',
        allow_percentage: '100',
        new_users_per_minute: '300',
        event_prequeue_start: iso(start - 3600),
        event_start: iso(start),
      },
      (start - 600) * 1000,
    );
    for (let i = 0; i < 300; i++) {
      model.observe(
        parsedLine({
          tsMs: (start - 200) * 1000,
          reason: 'prequeue_joined',
          outcome: 'prequeue',
          decision: 'start',
          newDec: 'pre',
          newTid: idFor(i / 300, 5),
          newExp: start,
        }),
      );
    }
    const writes = model.plan((start - 25) * 1000, LIVE)!;
    model.written(writes, true, (start - 25) * 1000);
    const saved = model.save();
    expect(saved.cursor.lastSpeed).toBeGreaterThan(0);
    expect(saved.cursor.tracker.prequeued).toHaveLength(300);
    expect(createControlModel({ leadSeconds: 25, restore: JSON.parse(JSON.stringify(saved)) }).save()).toEqual(saved);
  });

  it('reads a state saved before the correction by cohort: it plans at once and learns afresh', () => {
    const original = createControlModel({ leadSeconds: 25 });
    original.settings(SETTINGS, T0);
    let last = drive(original, T0, T0 + 240_000, Number.NEGATIVE_INFINITY);
    const saved = JSON.parse(JSON.stringify(original.save())) as ModelSaved;
    expect(saved.state.cohortDraws?.counted.length).toBeGreaterThan(0);
    delete saved.state.cohortDraws;
    const older = createControlModel({ leadSeconds: 25, restore: saved });
    older.settings(SETTINGS, T0 + 240_000);
    const writes: unknown[] = [];
    for (let t = T0 + 240_000; t < T0 + 360_000; t += 1000) {
      for (const l of crowd(t)) older.observe(l);
      const w = older.plan(t, { holding: false, writeIntervalMs: 60_000 });
      if (w !== null && t - last >= 60_000) older.written(w, true, t), (last = t), writes.push(w);
    }
    expect(writes.length).toBeGreaterThan(0);
    // It learned afresh from the cohorts that closed since: the correction counts from here on.
    expect(older.save().state.cohortDraws?.ratesLearned).toBe(true);
  });

  it('refuses a saved state of another version, naming both', () => {
    const saved = { ...createControlModel().save(), version: 0 };
    expect(() => createControlModel({ restore: saved })).toThrow(/version 0.*version 1/);
  });
});
