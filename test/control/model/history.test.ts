// The dashboard's last hour is recorded on every tick: a minute nobody looked at (the dashboard
// closed) still shows how many waited in it, and a restart keeps the rows.
import { describe, expect, it } from 'vitest';
import { createControlModel } from '../../../control/model/control-model.js';
import type { ControlModel } from '../../../control/types.js';
import { heardLine, LIVE, waitArrivals } from '../lines.js';

const D = 30;
const T0 = Date.UTC(2026, 0, 1);

/** A queueing room: visitors arrive for three minutes, the model ticks every second. */
function tickThreeMinutes(model: ControlModel, each?: (t: number) => void): void {
  model.settings({ wait_period_duration: String(D), allow_percentage: '50', new_users_per_minute: '60' }, T0);
  for (let t = T0; t < T0 + 180_000; t += 1000) {
    for (const l of waitArrivals(3, t, t / 1000, D)) model.observe(l);
    model.observe(heardLine(t, D));
    model.plan(t, LIVE);
    each?.(t);
  }
}

describe("the model's history", () => {
  it("keeps a minute's waiting count though snapshot() was never called during it", () => {
    const watched = createControlModel();
    tickThreeMinutes(watched, (t) => watched.snapshot(t));
    const closed = createControlModel();
    tickThreeMinutes(closed);
    const end = T0 + 179_000;
    const minutes = closed.snapshot(end).minutes;
    expect(minutes.map((m) => m.startMs)).toEqual([T0, T0 + 60_000, T0 + 120_000]);
    // Before, the past minutes of a model nobody watched read 0 waiting and 0 active.
    for (const m of minutes) expect(m.waiting, `minute +${(m.startMs - T0) / 60_000}`).toBeGreaterThan(100);
    expect(minutes).toEqual(watched.snapshot(end).minutes);
  });

  it('carries the rows over a save and restore', () => {
    const model = createControlModel();
    tickThreeMinutes(model);
    const restored = createControlModel({ restore: JSON.parse(JSON.stringify(model.save())) });
    const rows = model.snapshot(T0 + 179_000).minutes;
    expect(restored.snapshot(T0 + 179_000).minutes).toEqual(rows);
    expect(rows[0]!.waiting).toBeGreaterThan(0);
  });
});
