// The lanes' part of the control model (control/model/lanes.ts): each window's admissions split by the
// lanes' shares, none given more than its crowd and what one leaves flowing to the others; each lane's
// chance published beside allow_schedule in the same write, fixed with its window; and a dead
// controller's lanes falling back with the room.
import { describe, expect, it } from 'vitest';
import {
  initialLanes,
  LANE_SCHEDULE_CHARS,
  laneChances,
  laneMix,
  laneSnapshot,
  observeLanes,
  splitAdmissions,
  withLaneLease,
  withLaneSchedule,
} from '../../../control/model/lanes.js';
import { parsedLine } from '../lines.js';
import { CONFIG_STORE_VALUE_LIMIT } from '../../../src/core/settings/index.js';

const LANES = [
  { id: 'members', share: 30 },
  { id: 'presale', share: 20 },
];

/** What each lane admits, of a crowd with this mix, at these chances: its chance times its crowd. */
const admitted = (chances: Record<string, number>, mix: Record<string, number>) =>
  Object.fromEntries(Object.entries(mix).map(([lane, n]) => [lane, (chances[lane]! / 100) * n]));

describe('splitAdmissions', () => {
  it('gives each lane its share while its crowd can take it', () => {
    const parts = splitAdmissions(100, [
      { id: 'members', share: 30, cap: 1000 },
      { id: 'general', share: 70, cap: 1000 },
    ]);
    expect(parts.get('members')).toBeCloseTo(30);
    expect(parts.get('general')).toBeCloseTo(70);
  });

  it('a lane with fewer visitors than its share gets them all, and the rest flows to the others by their shares', () => {
    const parts = splitAdmissions(100, [
      { id: 'members', share: 30, cap: 10 },
      { id: 'presale', share: 20, cap: 1000 },
      { id: 'general', share: 50, cap: 1000 },
    ]);
    expect(parts.get('members')).toBeCloseTo(10);
    // 90 left for shares 20:50.
    expect(parts.get('presale')).toBeCloseTo((90 * 20) / 70);
    expect(parts.get('general')).toBeCloseTo((90 * 50) / 70);
  });

  it('the general lane with few visitors leaves its share to the lanes, and an empty lane holds nothing back', () => {
    const parts = splitAdmissions(100, [
      { id: 'members', share: 30, cap: 1000 },
      { id: 'presale', share: 20, cap: 0 },
      { id: 'general', share: 50, cap: 5 },
    ]);
    expect(parts.get('presale')).toBe(0);
    expect(parts.get('general')).toBeCloseTo(5);
    expect(parts.get('members')).toBeCloseTo(95);
  });

  it('never gives more than everyone: past the crowds, each lane gets its whole crowd', () => {
    const parts = splitAdmissions(100, [
      { id: 'members', share: 30, cap: 10 },
      { id: 'general', share: 70, cap: 20 },
    ]);
    expect([parts.get('members'), parts.get('general')]).toEqual([10, 20]);
  });
});

describe('laneChances', () => {
  it('splits the room chance so each lane gets its share of the admissions, which add up to the room chance', () => {
    const mix = { members: 0.05, presale: 0.3, general: 0.65 };
    const chances = laneChances(10, LANES, new Map(Object.entries(mix)));
    const got = admitted(chances, mix);
    // Of 0.1 of the crowd admitted: members 30%, presale 20%, general the rest.
    expect(got.members).toBeCloseTo(0.03);
    expect(got.presale).toBeCloseTo(0.02);
    expect(got.general).toBeCloseTo(0.05);
    expect(chances.members).toBeCloseTo(60);
  });

  it('a lane too small for its share draws at 100%, and its unused share raises the others', () => {
    const mix = { members: 0.01, presale: 0.29, general: 0.7 };
    const chances = laneChances(10, LANES, new Map(Object.entries(mix)));
    expect(chances.members).toBe(100);
    const got = admitted(chances, mix);
    expect(got.members! + got.presale! + got.general!).toBeCloseTo(0.1);
    expect(got.presale! / got.general!).toBeCloseTo(20 / 50);
  });

  it('with nobody seen in a lane, or nothing seen at all, that lane draws at the room chance', () => {
    expect(laneChances(12, LANES, new Map())).toEqual({ members: 12, presale: 12, general: 12 });
    expect(laneChances(12, LANES, new Map([['general', 1]]))).toMatchObject({ members: 12, general: 12 });
  });
});

describe('the crowd and the schedule', () => {
  const d = 30;
  const t0 = 1_800_000_000;
  const current = Math.floor(t0 / d) * d;

  function crowd() {
    const state = initialLanes();
    state.lanes = LANES;
    let i = 0;
    const issue = (lane: string | undefined, n: number, exp = current + d) => {
      for (let k = 0; k < n; k++)
        observeLanes(
          state,
          parsedLine(
            {
              tsMs: t0 * 1000,
              reason: 'no_token',
              newTid: `t${i++}`,
              newExp: exp,
              newDec: 'wait',
              ...(lane === undefined ? {} : { lane }),
            },
            d,
          ),
        );
    };
    issue('members', 5);
    issue('presale', 30);
    issue(undefined, 65);
    // Far outside the cohorts read: not the crowd waiting now.
    issue('members', 500, current - 5 * d);
    return state;
  }

  it('reads the mix of lanes from the tickets issued for the cohorts around now', () => {
    const mix = laneMix(crowd(), current, d);
    expect(mix.get('members')).toBeCloseTo(0.05);
    expect(mix.get('presale')).toBeCloseTo(0.3);
    expect(mix.get('general')).toBeCloseTo(0.65);
  });

  it('rides a write of allow_schedule with every lane of every window, and keeps a fixed window as it was', () => {
    const state = crowd();
    const firm = new Map([[current + d, 10]]);
    const writes = withLaneSchedule(
      state,
      { allow_schedule: `${current + d}=10,${current + 2 * d}=20` },
      { nowMs: t0 * 1000, d, firm, lastWritten: {} },
    )!;
    expect(writes.allow_schedule).toBe(`${current + d}=10,${current + 2 * d}=20`);
    const entries = writes.lane_schedule!.split(',');
    expect(entries).toHaveLength(6);
    expect(entries).toContain(`members@${current + d}=60`);
    // The crowd changes: the fixed window keeps its lane chances, the forecast follows the crowd.
    state.issued.clear();
    const again = withLaneSchedule(
      state,
      { allow_schedule: `${current + d}=10,${current + 2 * d}=20` },
      { nowMs: t0 * 1000, d, firm, lastWritten: writes },
    )!;
    expect(again.lane_schedule).toContain(`members@${current + d}=60`);
    expect(again.lane_schedule).toContain(`members@${current + 2 * d}=20`);
  });

  it('adds nothing to a write without allow_schedule, and clears the lanes with the schedule or when the room drops them', () => {
    const state = crowd();
    const ctx = { nowMs: t0 * 1000, d, firm: new Map<number, number>(), lastWritten: { lane_schedule: 'x' } };
    expect(withLaneSchedule(state, { allow_percentage: '5' }, ctx)).toEqual({ allow_percentage: '5' });
    expect(withLaneSchedule(state, { allow_schedule: '' }, ctx)).toEqual({ allow_schedule: '', lane_schedule: '' });
    state.lanes = [];
    expect(withLaneSchedule(state, { allow_schedule: `${current}=5` }, ctx)).toMatchObject({ lane_schedule: '' });
    expect(withLaneSchedule(state, { allow_schedule: `${current}=5` }, { ...ctx, lastWritten: {} })).toEqual({
      allow_schedule: `${current}=5`,
    });
  });

  it('under a lease, every lane falls back to the room fallback at the schedule end', () => {
    const allow = '100=10,130=12,160=3';
    const lanes = 'members@100=50,general@100=5,members@130=60,general@130=6,members@190=70,general@190=7';
    expect(withLaneLease(lanes, allow).split(',')).toEqual([
      'members@100=50',
      'general@100=5',
      'members@130=60',
      'general@130=6',
      'members@160=3',
      'general@160=3',
    ]);
  });

  it("counts each lane's admissions by minute for the dashboard, beside its share and the chance fixed now", () => {
    const state = crowd();
    const minute = Math.floor(t0 / 60) * 60_000;
    const admit = (lane?: string) =>
      observeLanes(
        state,
        parsedLine(
          { tsMs: minute + 1_000, reason: 'draw_won', newTid: 'a', newDec: 'allow', ...(lane ? { lane } : {}) },
          d,
        ),
      );
    admit('members');
    admit();
    admit();
    state.firm.set(current, { members: 60, presale: 6.7, general: 7.7 });
    expect(laneSnapshot(state, minute, current)).toEqual([
      { id: 'members', share: 30, admitted: 1, chance: 60 },
      { id: 'presale', share: 20, admitted: 0, chance: 6.7 },
      { id: 'general', share: 50, admitted: 2, chance: 7.7 },
    ]);
    state.lanes = [];
    expect(laneSnapshot(state, minute, current)).toBeNull();
  });

  it('keeps room.ID.live within a Config Store value with the most lanes a room may declare, at six decimals of every chance', () => {
    const state = initialLanes();
    state.lanes = ['a-lane-id', 'b-lane-id', 'c-lane-id', 'd-lane-id', 'e-lane-id'].map((id) => ({ id, share: 10 }));
    for (const lane of [...state.lanes.map((l) => l.id), 'general'])
      observeLanes(
        state,
        parsedLine({ tsMs: t0 * 1000, reason: 'no_token', newTid: lane, newExp: current + d, newDec: 'wait', lane }, d),
      );
    // The longest allow_schedule the model writes: 3 recent firm windows and a forecast of 20, six decimals each.
    const allow = Array.from({ length: 23 }, (_, i) => `${current + (i - 2) * d}=${(1 + i / 7).toFixed(6)}`).join(',');
    const proof = Array.from({ length: 23 }, (_, i) => `${current + (i - 2) * d}=13`).join(',');
    const writes = withLaneSchedule(
      state,
      { allow_schedule: allow, proof_schedule: proof },
      { nowMs: t0 * 1000, d, firm: new Map(), lastWritten: {} },
    )!;
    expect(writes.lane_schedule!.split(',')).toHaveLength(23 * 6);
    const live = JSON.stringify({ ...writes, queue_cursor: '1800000000:123.456:1.5', queue_counts: '' });
    expect(live.length).toBeLessThan(CONFIG_STORE_VALUE_LIMIT);
  });

  it('shortens the forecast, never the near windows, when long lane ids would pass its share of the value', () => {
    const state = initialLanes();
    state.lanes = ['a', 'b', 'c', 'd', 'e'].map((x) => ({ id: x.repeat(32), share: 10 }));
    const allow = Array.from({ length: 23 }, (_, i) => `${current + (i - 2) * d}=5`).join(',');
    const writes = withLaneSchedule(
      state,
      { allow_schedule: allow },
      { nowMs: t0 * 1000, d, firm: new Map(), lastWritten: {} },
    )!;
    expect(writes.lane_schedule!.length).toBeLessThanOrEqual(LANE_SCHEDULE_CHARS);
    expect(writes.lane_schedule).toContain(`general@${current - 2 * d}=5`);
    expect(writes.lane_schedule).not.toContain(`general@${current + 20 * d}=`);
  });
});
