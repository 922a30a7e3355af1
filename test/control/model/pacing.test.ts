// When the model writes, with writes spaced by the API budget: each window's chance must be fixed
// and go out with the last write before its deadline (its decision time), not be fixed at the
// deadline and wait for the next write, which would reach the POPs after the window opened.
import { describe, expect, it } from 'vitest';
import { createControlModel } from '../../../control/model/control-model.js';
import { heardLine, waitArrivals } from '../lines.js';

const D = 20;
const LEAD = 25;
const T0 = Date.UTC(2026, 0, 1);

/** A queueing room ticking once a second for five minutes, a writer that may call once a minute. */
function run(writeIntervalMs: number): { writes: { atMs: number; firm: number[] }[] } {
  const model = createControlModel({ leadSeconds: LEAD });
  model.settings({ wait_period_duration: String(D), allow_percentage: '50', new_users_per_minute: '60' }, T0);
  const writes: { atMs: number; firm: number[] }[] = [];
  let lastWriteMs = Number.NEGATIVE_INFINITY;
  for (let t = T0; t <= T0 + 300_000; t += 1000) {
    // A crowd whose arrival rate swings, so forecasts move between writes.
    const n = 2 + (((t - T0) / 1000) % 7);
    for (const l of waitArrivals(n, t, t / 1000, D)) model.observe(l);
    model.observe(heardLine(t, D));
    const w = model.plan(t, { holding: false, writeIntervalMs });
    if (w === null || t - lastWriteMs < 60_000) continue;
    model.written(w, true, t);
    lastWriteMs = t;
    writes.push({ atMs: t, firm: model.save().state.firm.map(([start]) => start) });
  }
  return { writes };
}

describe('pacing', () => {
  it('with a write a minute and 20-second windows, each write fixes the 3 windows due before the next', () => {
    const { writes } = run(60_000);
    expect(writes.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < writes.length; i++) {
      const before = new Set(writes[i - 1]!.firm);
      const fixed = writes[i]!.firm.filter((w) => !before.has(w) && w > Math.max(...before));
      expect(fixed, `write at +${(writes[i]!.atMs - T0) / 1000} s`).toHaveLength(3);
    }
  });

  it("publishes every window's fixed chance with a write before its decision time", () => {
    // Without the pacing's horizon a window was fixed at its decision time and went out with the
    // next write, up to a minute later: after the POPs had begun to draw it.
    const { writes } = run(60_000);
    const seen = new Set<number>();
    for (const w of writes.slice(1)) {
      for (const start of w.firm) {
        if (seen.has(start) || writes[0]!.firm.includes(start)) continue;
        seen.add(start);
        expect(w.atMs / 1000, `window +${start - T0 / 1000} s`).toBeLessThanOrEqual(start - LEAD);
      }
    }
    expect(seen.size).toBeGreaterThanOrEqual(9);
  });
});
