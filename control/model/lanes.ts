// Priority lanes (docs/lanes.md): each lane's chance of each window, published as `lane_schedule` in
// room.ID.live beside allow_schedule, for the same windows and in the same writes (it never makes a
// write of its own, so it costs no API call). The room's plan is untouched: the law chooses the
// window's chance for the whole crowd as ever, so the room admits its target; lanes only split those
// admissions. Each lane is owed its share of them (`lanes`, the rest the general lane's) and never
// more than its crowd: a lane with fewer visitors than its share gets everyone who draws (100%), and
// what it leaves goes to the others by their shares, both ways (water-filling). A lane's chance is
// its admissions over its crowd, the crowd's mix read from the tickets the log shows issued lately.
//
// A window's lane chances are fixed with its chance (at its decision time), and kept: every POP draws
// a cohort's lane at one chance, as it draws the cohort.
import { GENERAL_LANE } from '../../src/core/settings/index.js';
import type { DecisionLine, LaneRow, SettingWrites } from '../types.js';
import { parseScheduleText } from './schedule-text.js';

/** A lane as the model plans it: its id and its share of the room's admissions, percent. */
export interface PlannedLane {
  id: string;
  share: number;
}

/** What the lanes own of the model's state. */
export interface LaneState {
  /** The room's declared lanes (`lanes`), without the general one; empty: the room has none. */
  lanes: PlannedLane[];
  /** Tickets issued for each cohort (window start), by lane (`general` for none), weighted. */
  issued: Map<number, Map<string, number>>;
  /** Each window's lane chances once fixed (with the window's chance), by window start. */
  firm: Map<number, Record<string, number>>;
  /** Admissions by minute start (ms) and lane, the last few minutes: what the dashboard shows. */
  admitted: Map<number, Map<string, number>>;
}

export const initialLanes = (): LaneState => ({ lanes: [], issued: new Map(), firm: new Map(), admitted: new Map() });

/** Reasons whose allow token starts a session (the ledger's). */
const ADMITS = new Set(['draw_won', 'won_admitted', 'allow_all', 'cursor_passed', 'event_passed']);

/** Counts a new wait token a line set by its cohort and lane (the crowd's mix), and an admission by its minute and lane. */
export function observeLanes(state: LaneState, line: DecisionLine): void {
  if (line.newDec === 'allow' && ADMITS.has(line.reason)) {
    const minute = Math.floor(line.tsMs / 60_000) * 60_000;
    let byLane = state.admitted.get(minute);
    if (byLane === undefined) {
      state.admitted.set(minute, (byLane = new Map()));
      for (const m of state.admitted.keys()) if (m < minute - 5 * 60_000) state.admitted.delete(m);
    }
    const lane = line.lane ?? GENERAL_LANE;
    byLane.set(lane, (byLane.get(lane) ?? 0) + 1);
    return;
  }
  if (line.bot === true || line.newDec !== 'wait' || line.newTid === null || line.newExp === null) return;
  let byLane = state.issued.get(line.newExp);
  if (byLane === undefined) state.issued.set(line.newExp, (byLane = new Map()));
  const lane = line.lane ?? GENERAL_LANE;
  byLane.set(lane, (byLane.get(lane) ?? 0) + line.weight);
}

/** Each lane's share of the waiting crowd (0..1), from the tickets issued for the cohorts of `current - d` to `current + 2d`. */
export function laneMix(state: LaneState, current: number, d: number): Map<string, number> {
  const count = new Map<string, number>();
  let total = 0;
  for (let w = current - d; w <= current + 2 * d; w += d) {
    for (const [lane, n] of state.issued.get(w) ?? []) {
      count.set(lane, (count.get(lane) ?? 0) + n);
      total += n;
    }
  }
  const mix = new Map<string, number>();
  if (total > 0) for (const [lane, n] of count) mix.set(lane, n / total);
  return mix;
}

/**
 * Admissions `total` split over lanes by their shares, none given more than its crowd (`cap`): a lane
 * that cannot take its share keeps what it can, and the rest is split again over the others by their
 * shares (water-filling). Lanes all of whose shares are 0 split by crowd. Returns each lane's part.
 */
export function splitAdmissions(
  total: number,
  lanes: readonly { id: string; share: number; cap: number }[],
): Map<string, number> {
  const got = new Map(lanes.map((l) => [l.id, 0]));
  let open = lanes.filter((l) => l.cap > 0);
  let left = total;
  while (left > 1e-12 && open.length > 0) {
    const shares = open.reduce((s, l) => s + l.share, 0);
    const weight = (l: (typeof lanes)[number]): number =>
      shares > 0 ? l.share / shares : l.cap / open.reduce((s, o) => s + o.cap, 0);
    // The lanes that would get more than their crowd this round are filled; the rest share what is left.
    const full = open.filter((l) => left * weight(l) >= l.cap - got.get(l.id)! - 1e-12);
    if (full.length === 0) {
      for (const l of open) got.set(l.id, got.get(l.id)! + left * weight(l));
      left = 0;
      break;
    }
    for (const l of full) {
      left -= l.cap - got.get(l.id)!;
      got.set(l.id, l.cap);
    }
    open = open.filter((l) => !full.includes(l));
  }
  return got;
}

/**
 * Each lane's chance (the general one too) in a window whose draws the room plans at `pct`: the
 * window's admissions (pct of the crowd) split by the shares, each over its part of the crowd. A
 * lane nobody was seen in draws at the room's chance.
 */
export function laneChances(
  pct: number,
  lanes: readonly PlannedLane[],
  mix: ReadonlyMap<string, number>,
): Record<string, number> {
  const declared = lanes.reduce((s, l) => s + l.share, 0);
  const all = [...lanes, { id: GENERAL_LANE, share: Math.max(0, 100 - declared) }];
  const admitted = Math.min(1, Math.max(0, pct / 100));
  const parts = splitAdmissions(
    admitted,
    all.map((l) => ({ ...l, cap: mix.get(l.id) ?? 0 })),
  );
  const out: Record<string, number> = {};
  for (const l of all) {
    const crowd = mix.get(l.id) ?? 0;
    out[l.id] = crowd > 0 ? Math.min(100, (100 * parts.get(l.id)!) / crowd) : pct;
  }
  return out;
}

/** The dashboard's lanes: each one's share, admissions in `minute` (ms) and chance in window `current`; null without lanes. */
export function laneSnapshot(state: LaneState, minute: number, current: number | null): LaneRow[] | null {
  if (state.lanes.length === 0) return null;
  const declared = state.lanes.reduce((s, l) => s + l.share, 0);
  const chances = current === null ? undefined : state.firm.get(current);
  return [...state.lanes, { id: GENERAL_LANE, share: Math.max(0, 100 - declared) }].map((l) => ({
    id: l.id,
    share: l.share,
    admitted: state.admitted.get(minute)?.get(l.id) ?? 0,
    chance: chances?.[l.id] ?? null,
  }));
}

/** Four decimals: a lane's chance is a share of a share, nothing finer is meant. */
const fmt4 = (p: number): string => String(Math.round(Math.min(100, Math.max(0, p)) * 1e4) / 1e4);

export interface LaneContext {
  nowMs: number;
  d: number;
  /** Windows the room's chance is fixed for (draws.firm): their lane chances are fixed with them. */
  firm: ReadonlyMap<number, number>;
  /** What went out last, to clear a lane_schedule a room no longer needs. */
  lastWritten: SettingWrites;
}

/** `writes` with lane_schedule added when it carries allow_schedule (only then: it rides that write). */
export function withLaneSchedule(state: LaneState, writes: SettingWrites | null, c: LaneContext): SettingWrites | null {
  if (writes === null || writes.allow_schedule === undefined) return writes;
  const had = (c.lastWritten.lane_schedule ?? '') !== '';
  if (state.lanes.length === 0 || writes.allow_schedule === '') return had ? { ...writes, lane_schedule: '' } : writes;
  const nowSec = Math.floor(c.nowMs / 1000);
  const current = Math.floor(nowSec / c.d) * c.d;
  for (const map of [state.issued, state.firm]) for (const w of map.keys()) if (w < current - 10 * c.d) map.delete(w);
  const mix = laneMix(state, current, c.d);
  const windows: string[] = [];
  for (const entry of parseScheduleText(writes.allow_schedule)) {
    const pct = Number(entry.pct);
    if (!Number.isFinite(pct)) continue;
    let chances = state.firm.get(entry.start);
    if (chances === undefined) {
      chances = laneChances(pct, state.lanes, mix);
      if (c.firm.has(entry.start)) state.firm.set(entry.start, chances);
    }
    windows.push(
      Object.entries(chances)
        .map(([lane, p]) => `${lane}@${entry.start}=${fmt4(p)}`)
        .join(','),
    );
  }
  // Long lane ids: the forecast's far windows go first (a lane's last entry holds past it, as allow_schedule's does).
  let text = windows.join(',');
  while (text.length > LANE_SCHEDULE_CHARS && windows.length > 1) {
    windows.pop();
    text = windows.join(',');
  }
  return { ...writes, lane_schedule: text };
}

/**
 * The most characters lane_schedule takes of room.ID.live's 8,000 (beside allow_schedule, proof_schedule
 * and the cursor): 6 lanes of ids up to 9 characters over the whole forecast fit; longer ids shorten it.
 */
export const LANE_SCHEDULE_CHARS = 4_000;

/**
 * `laneText` under the lease `allowText` carries (control/failover/lease.ts): entries at or past the
 * schedule's last entry, the room's fallback, dropped, and each lane given that fallback chance there.
 * A controller that dies leaves every lane on the room's fallback, as a room without a controller
 * draws its lanes: lanes then change nobody's chance.
 */
export function withLaneLease(laneText: string, allowText: string): string {
  const last = parseScheduleText(allowText).at(-1);
  if (last === undefined || laneText.trim() === '') return laneText;
  const lanes = new Set<string>();
  const kept: string[] = [];
  for (const item of laneText.split(',')) {
    const m = /^([^@]+)@(\d+)=(.+)$/.exec(item.trim());
    if (m === null) continue;
    lanes.add(m[1]!);
    if (Number(m[2]) < last.start) kept.push(item.trim());
  }
  for (const lane of lanes) kept.push(`${lane}@${last.start}=${last.pct}`);
  return kept.join(',');
}
