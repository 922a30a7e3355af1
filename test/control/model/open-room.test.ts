// The open room (allow_percentage 100) under the controller: it stays open while admissions run under
// the target, and engages (a chance below 100, or a cursor for a first-come room) once they reach it
// or the active sessions near the cap.
import { describe, expect, it } from 'vitest';
import { createControlModel } from '../../../control/model/control-model.js';
import { idFor, LIVE, parsedLine } from '../lines.js';

const D = 30;
const T0 = Date.UTC(2026, 0, 1);
const settings = (extra: Record<string, string> = {}) => ({
  wait_period_duration: String(D),
  allow_percentage: '100',
  ...extra,
});
/** `n` admissions of the open room, evenly over `overMs` from T0. */
const admissions = (n: number, overMs: number, salt = 9) =>
  Array.from({ length: n }, (_, i) =>
    parsedLine(
      {
        tsMs: T0 + Math.floor((i * overMs) / n),
        reason: 'allow_all',
        decision: 'allow',
        outcome: 'origin',
        newTid: idFor(i / n, salt),
        newExp: 0,
        newDec: 'allow',
      },
      D,
    ),
  );

describe('the open room', () => {
  it('stays open while admissions run under the target, and says how many a minute', () => {
    const model = createControlModel();
    model.settings(settings({ new_users_per_minute: '600' }), T0);
    // 20 in 10 s: 120 a minute against 600.
    for (const l of admissions(20, 10_000)) model.observe(l);
    expect(model.plan(T0 + 10_000, LIVE)).toBeNull();
    expect(model.snapshot(T0 + 10_000)).toMatchObject({ mode: 'open' });
    expect(model.snapshot(T0 + 10_000).why).toMatch(/open: 120 admissions a minute, under the target/);
  });

  it('engages at the target with the chance that brings the rate down to it', () => {
    const model = createControlModel();
    model.settings(settings({ new_users_per_minute: '60' }), T0);
    // 60 admissions in the first 10 s: 360 a minute against 60, so about one in six.
    for (const l of admissions(60, 9_000)) model.observe(l);
    const writes = model.plan(T0 + 10_000, LIVE);
    expect(Number(writes?.allow_percentage)).toBeGreaterThan(14);
    expect(Number(writes?.allow_percentage)).toBeLessThan(19);
    expect(model.snapshot(T0 + 10_000).why).toMatch(/admissions reached the target/);
  });

  it('engages when active sessions near the cap, though admissions run under the target', () => {
    const model = createControlModel();
    model.settings(settings({ new_users_per_minute: '6000', total_active_users: '50' }), T0);
    for (const l of admissions(48, 9_000)) model.observe(l);
    const writes = model.plan(T0 + 10_000, LIVE);
    expect(Number(writes?.allow_percentage)).toBeLessThan(100);
    expect(model.snapshot(T0 + 10_000).why).toMatch(/near the cap/);
  });

  it('hands a first-come room to the cursor when it engages', () => {
    const model = createControlModel();
    model.settings(settings({ new_users_per_minute: '60', queueing_method: 'fifo' }), T0);
    for (const l of admissions(60, 9_000)) model.observe(l);
    const writes = model.plan(T0 + 10_000, LIVE);
    expect(Number(writes?.allow_percentage)).toBeLessThan(100);
    expect(
      Object.keys(writes ?? {}).some((k) => /cursor/.test(k)),
      JSON.stringify(writes),
    ).toBe(true);
  });
});
