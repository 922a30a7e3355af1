// proof_schedule as the model publishes it (proof_of_work = auto): beside allow_schedule, for the same
// windows, in the same writes, a window's difficulty kept once its tokens may carry a puzzle.
import { describe, expect, it } from 'vitest';
import { createControlModel } from '../../../control/model/control-model.js';
import { PROOF_STEPS } from '../../../control/model/proof-level.js';
import type { SettingWrites } from '../../../control/types.js';
import { heardLine, LIVE, waitArrivals } from '../lines.js';

const D = 30;
const LEAD = 25;
const T0 = Date.UTC(2026, 0, 1);
const t0 = T0 / 1000;

const settings = (extra: Record<string, string> = {}): Record<string, string> => ({
  wait_period_duration: String(D),
  allow_percentage: '50',
  new_users_per_minute: '100',
  ...extra,
});

const entries = (text: string): Map<number, number> =>
  new Map(text === '' ? [] : text.split(',').map((e) => e.split('=').map(Number) as [number, number]));

/** A queueing room with `crowd` tickets for the cohort of t0 + 60, and the model's plan 25 s before that window. */
function queuedModel(
  extra: Record<string, string>,
  crowd = 1000,
): { model: ReturnType<typeof createControlModel>; writes: SettingWrites | null } {
  const model = createControlModel({ leadSeconds: LEAD });
  model.settings(settings(extra), T0);
  for (const l of waitArrivals(crowd, T0 + 5000, 0, D)) model.observe(l);
  model.observe(heardLine(T0 + 16_000, D));
  return { model, writes: model.plan(T0 + 35_000, LIVE) };
}

const queued = (extra: Record<string, string>): SettingWrites | null => queuedModel(extra).writes;

describe('proof_schedule', () => {
  it('is published with allow_schedule for the same windows when proof_of_work is auto', () => {
    const writes = queued({ proof_of_work: 'auto', proof_seconds: '30' })!;
    const allow = entries(writes.allow_schedule!);
    const proof = entries(writes.proof_schedule!);
    expect([...proof.keys()]).toEqual([...allow.keys()]);
    for (const s of proof.values()) expect([0, ...PROOF_STEPS]).toContain(s);
    // The next two windows' tokens were handed out already, without a puzzle: they ask none.
    expect(proof.get(t0 + 60)).toBe(0);
    expect(proof.get(t0 + 90)).toBe(0);
    // About 2,900 drawing at t0 + 120 (the crowd so far and its forecast) at 100 a minute and a chance
    // near 2%: 29 minutes of queue left, the 30 s step.
    expect(proof.get(t0 + 120)).toBe(30);
  });

  it('is capped at proof_seconds', () => {
    const writes = queued({ proof_of_work: 'auto', proof_seconds: '4' })!;
    expect(entries(writes.proof_schedule!).get(t0 + 120)).toBe(4);
  });

  it('is not published unless proof_of_work is auto', () => {
    for (const extra of [{}, { proof_of_work: 'off' }, { proof_of_work: 'fixed', proof_seconds: '5' }] as Record<
      string,
      string
    >[]) {
      const writes = queued(extra)!;
      expect(writes.allow_schedule).toBeDefined();
      expect(writes).not.toHaveProperty('proof_schedule');
    }
  });

  it('rides the writes allow_schedule makes: not one write more, at the same moments', () => {
    const run = (extra: Record<string, string>): number[] => {
      const model = createControlModel({ leadSeconds: LEAD });
      model.settings(settings(extra), T0);
      const at: number[] = [];
      for (let t = T0; t <= T0 + 300_000; t += 1000) {
        // A crowd whose size swings, so the difficulty moves while allow_schedule's forecast does.
        const n = 2 + (((t - T0) / 1000) % 11) * (t - T0 > 150_000 ? 3 : 1);
        for (const l of waitArrivals(n, t, t / 1000, D)) model.observe(l);
        model.observe(heardLine(t, D));
        const w = model.plan(t, { holding: false, writeIntervalMs: 16_200 });
        if (w === null) continue;
        if (extra.proof_of_work === 'auto') expect(w.proof_schedule === undefined).toBe(w.allow_schedule === undefined);
        model.written(w, true, t);
        at.push(t);
      }
      return at;
    };
    const plain = run({});
    expect(plain.length).toBeGreaterThan(5);
    expect(run({ proof_of_work: 'auto', proof_seconds: '20' })).toEqual(plain);
  });

  it("keeps a window's difficulty once its tokens may carry the puzzle, whatever the crowd does after", () => {
    const { model, writes } = queuedModel({ proof_of_work: 'auto', proof_seconds: '30' }, 300);
    const first = writes!;
    model.written(first, true, T0 + 35_000);
    // Window t0 + 120's tokens are issued from t0 + 60 on: its level was fixed by this write.
    const fixed = entries(first.proof_schedule!).get(t0 + 120)!;
    expect(fixed).toBeGreaterThan(0);
    expect(fixed).toBeLessThan(30);
    // Ten times the crowd arrives: later windows ask more, t0 + 120 keeps what its pages were given.
    for (const l of waitArrivals(5000, T0 + 40_000, 9, D)) model.observe(l);
    model.observe(heardLine(T0 + 65_000, D));
    const later = model.plan(T0 + 65_000, LIVE)!;
    const proof = entries(later.proof_schedule!);
    expect(proof.get(t0 + 120)).toBe(fixed);
    expect(proof.get(t0 + 180)).toBe(30);
  });

  it('keeps the fixed levels across a restart, from its saved state or from what the store holds', () => {
    const { model, writes } = queuedModel({ proof_of_work: 'auto', proof_seconds: '30' }, 300);
    const first = writes!;
    model.written(first, true, T0 + 35_000);
    const fixed = entries(first.proof_schedule!).get(t0 + 120)!;
    const restarted = createControlModel({ leadSeconds: LEAD, restore: JSON.parse(JSON.stringify(model.save())) });
    restarted.settings(settings({ proof_of_work: 'auto', proof_seconds: '30' }), T0 + 36_000);
    for (const l of waitArrivals(5000, T0 + 40_000, 9, D)) restarted.observe(l);
    restarted.observe(heardLine(T0 + 65_000, D));
    expect(entries(restarted.plan(T0 + 65_000, LIVE)!.proof_schedule!).get(t0 + 120)).toBe(fixed);
    // A new controller (no saved state) honours what an earlier one published for windows already handed out.
    const fresh = createControlModel({ leadSeconds: LEAD });
    fresh.settings(
      settings({ proof_of_work: 'auto', proof_seconds: '30', proof_schedule: `${t0 + 120}=8,${t0 + 300}=2` }),
      T0 + 35_000,
    );
    for (const l of waitArrivals(1000, T0 + 5000, 0, D)) fresh.observe(l);
    fresh.observe(heardLine(T0 + 16_000, D));
    const proof = entries(fresh.plan(T0 + 35_000, LIVE)!.proof_schedule!);
    expect(proof.get(t0 + 120)).toBe(8);
    expect(proof.get(t0 + 300)).not.toBe(2);
  });

  it('is emptied at the next schedule write once auto is turned off', () => {
    const model = createControlModel({ leadSeconds: LEAD });
    model.settings(settings({ proof_of_work: 'auto' }), T0);
    for (const l of waitArrivals(1000, T0 + 5000, 0, D)) model.observe(l);
    model.observe(heardLine(T0 + 16_000, D));
    const first = model.plan(T0 + 35_000, LIVE)!;
    expect(first.proof_schedule).not.toBe('');
    model.written(first, true, T0 + 35_000);
    model.settings(settings({ proof_of_work: 'off' }), T0 + 36_000);
    let next: SettingWrites | null = null;
    for (let t = T0 + 36_000; next?.allow_schedule === undefined && t < T0 + 200_000; t += 1000) {
      model.observe(heardLine(t, D));
      next = model.plan(t, LIVE);
    }
    expect(next?.proof_schedule).toBe('');
  });

  it("shows the current window's difficulty on the dashboard, null unless auto", () => {
    const model = createControlModel({ leadSeconds: LEAD });
    model.settings(settings({ proof_of_work: 'auto', proof_seconds: '30' }), T0);
    for (const l of waitArrivals(1000, T0 + 5000, 0, D)) model.observe(l);
    model.observe(heardLine(T0 + 16_000, D));
    const w = model.plan(T0 + 35_000, LIVE)!;
    model.written(w, true, T0 + 35_000);
    expect(model.snapshot(T0 + 35_000).proofSeconds).toBe(entries(w.proof_schedule!).get(t0 + 30) ?? 0);
    expect(model.snapshot(T0 + 121_000).proofSeconds).toBe(30);
    const off = createControlModel();
    off.settings(settings(), T0);
    expect(off.snapshot(T0).proofSeconds).toBeNull();
  });
});

describe('the pressure a window is judged by', () => {
  it('is the chance its draws really get: a chance published high because few solve still reads as a long queue', async () => {
    const { effectiveChance } = await import('../../../control/model/proof-schedule.js');
    const { proofLevel } = await import('../../../control/model/proof-level.js');
    const { initialState: createModelState } = await import('../../../control/model/state.js');
    const s = createModelState();
    s.draws.firmShare.set(t0 + 120, 0.2);
    // Published at 100 to make up for a crowd drawing at a fifth of it: its draws get 20.
    expect(effectiveChance(s, t0 + 120, 100)).toBe(20);
    expect(effectiveChance(s, t0 + 150, 40)).toBe(40);
    const level = proofLevel({
      waiting: 2000,
      perMinute: 100,
      chance: effectiveChance(s, t0 + 120, 100),
      maxSeconds: 30,
    });
    expect(level).toBeGreaterThan(0);
    expect(proofLevel({ waiting: 2000, perMinute: 100, chance: 100, maxSeconds: 30 })).toBe(0);
  });
});
