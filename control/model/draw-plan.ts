// The random draw's plan while the room queues: the arrival and reissue rates as read from the log,
// the admissions wanted of each window (the target, corrected by how far recent windows came from
// their plan, within the active cap), each cohort's forecast scaled by what came of the last closed
// ones (cohort-draws.ts), the chances of the coming windows (plan.ts), and the firming
// of those whose decision is due (pacing.ts says which). The return rates it plans with are learned
// here from cohorts as they close.
import type { SettingWrites } from '../types.js';
import type { CursorPlanner } from './cursor-plan.js';
import type { History } from './history.js';
import { cohortScales, type CohortDrawsState, countCohort, initialCohortDraws, planCohort } from './cohort-draws.js';
import type { CohortView } from './law.js';
import type { ClosedCohort, Ledger } from './ledger.js';
import { decisionDue, firmHorizonSec, firmNow, passDue, scheduleDue, unsentSchedule } from './pacing.js';
import type { OriginHealth } from './origin-health.js';
import { planRate } from './pace.js';
import { planWindows, type WindowPlan } from './plan.js';
import { effectiveShare } from './proof-share.js';
import { returnersBetween } from './returning.js';
import { fmt, scheduleText } from './schedule-text.js';
import { idleMs } from './sessions.js';
import type { ModelState } from './state.js';

/** What the draw plan owns of the model's state: the chances fixed so far and what they were planned to admit. */
export interface DrawState {
  /** Chances fixed so far, by window start. */
  firm: Map<number, number>;
  /** What was planned for each firm window (expected admissions). */
  plannedAdmissions: Map<number, number>;
  /** The last queueing plan (its first window stands in for a next window not yet fixed). */
  lastPlan: WindowPlan[];
  /** The share of the chance each firm window was planned with, by window start, when below 1. */
  firmShare: Map<number, number>;
  /** The draws each firm cohort was expected to make, and what the last closed ones made (cohort-draws.ts). */
  cohorts: CohortDrawsState;
}

export const initialDraws = (): DrawState => ({
  firm: new Map(),
  plannedAdmissions: new Map(),
  lastPlan: [],
  firmShare: new Map(),
  cohorts: initialCohortDraws(),
});

/** The model's parts and options, as each job of the model reads them. */
export interface ModelParts {
  s: ModelState;
  ledger: Ledger;
  history: History;
  /** The origin's health as the forwarded requests' lines tell it (origin-health.ts). */
  health: OriginHealth;
  cursor: CursorPlanner;
  /** Seconds before a window opens that its chance must be published. */
  lead: number;
  forecastWindows: number;
  /** How often the forecast alone justifies a write, ms. */
  refreshMs: number;
}

/**
 * A count a second from the log as read up to `readSec`: the last whole window's, or the current
 * one's once 5 s of it have been read if that is busier. A surge shows within seconds, and a quiet
 * spell is believed only once a whole window says so.
 */
function recentRate(countIn: (window: number) => number, readSec: number, d: number): number {
  const w = Math.floor(readSec / d) * d;
  const elapsed = readSec - w;
  return Math.max(countIn(w - d) / d, elapsed >= 5 ? countIn(w) / elapsed : 0);
}

/** New visitors a second (recentRate), less the deny page's crowd coming back. */
export function arrivalRate(m: ModelParts, readSec: number, d: number): number {
  const w = Math.floor(readSec / d) * d;
  // The deny page's crowd coming back is forecast on its own: it is not a rate that goes on.
  const back = returnersBetween(m.s.returns.returning, w - d, readSec) / (readSec - (w - d));
  return Math.max(0, recentRate((x) => m.ledger.arrivals.get(x) ?? 0, readSec, d) - back);
}

/** Tickets reissued a second (holders back after their grace window), by cohort offset (recentRate). */
function reissueRates(ledger: Ledger, readSec: number, d: number): Map<number, number> {
  const w = Math.floor(readSec / d) * d;
  const rates = new Map<number, number>();
  for (const k of new Set([...(ledger.reissues.get(w - d)?.keys() ?? []), ...(ledger.reissues.get(w)?.keys() ?? [])])) {
    rates.set(
      k,
      recentRate((x) => ledger.reissues.get(x)?.get(k) ?? 0, readSec, d),
    );
  }
  return rates;
}

/** What the correction reads of the recent windows: their firm chances, what those were planned to admit, what they admitted. */
export interface RecentWindows {
  /** Chances fixed, by window start (0..100). */
  firm: ReadonlyMap<number, number>;
  /** Admissions each firm window's chance was expected to make, by window start. */
  plannedAdmissions: ReadonlyMap<number, number>;
  /** Admissions the log counted in window `w` (its start). */
  admissions: (w: number) => number;
  /**
   * How much a window's plan is to be scaled before it is compared with what it admitted: the share
   * of the chance its draws get as learned since, over the share it was planned with (1 when absent).
   * A window planned before the share was known (the first queued ones, before any draw was asked a
   * proof) is no error of the law's: read unscaled, it held the correction at 1.5 for three minutes.
   */
  rescale?: (w: number) => number;
  /**
   * The first window planned on learned return rates (cohort-draws.ts); once there is one, the windows
   * before it, planned on the defaults, are left out. Read with them, the first queued windows'
   * shortfall was made up after the rates had put it right, as a debt (held-late with every check up
   * to 45 s late: a minute of 174 against 120 with them, 139 without).
   */
  learnedFrom?: number | null;
}

/**
 * Admissions wanted of a coming window before the active cap: the target's share `perWindow`,
 * divided by how far the last six queueing windows before `current` came from what their chances
 * were planned to admit, within half to one and a half of the share.
 */
export function correctedShare(recent: RecentWindows, current: number, d: number, perWindow: number): number {
  const { firm, plannedAdmissions } = recent;
  // Only windows drawn at a chance below 100 say anything about the law's aim. A ratio, not a
  // difference: a view that counts a cohort 20% too large (holders who come back late, a return
  // rate still learning) is put right in full, where a share of the shortfall left a standing error.
  // Within 0.67 to 1.5, and only over enough windows to mean something: one burst the law did not
  // cause (the open room's last seconds) must not swing it.
  let planned = 0;
  let got = 0;
  for (let w = current - 6 * d; w < current; w += d) {
    const pct = firm.get(w);
    const plan = plannedAdmissions.get(w);
    if (pct === undefined || pct >= 100 || plan === undefined) continue;
    if (recent.learnedFrom != null && w < recent.learnedFrom) continue;
    // A window's admissions include late drawers of the window before; after one the law did not
    // plan (the open room's last, or none) they are not what this window's chance was aimed at, and
    // counting them read the first queued windows as an overshoot of the law, which it then undid
    // for minutes (held-sampled-100k: minutes 3 and 4 at -13% and -12%).
    const prev = firm.get(w - d);
    if (prev === undefined || prev >= 100 || !plannedAdmissions.has(w - d)) continue;
    planned += plan * (recent.rescale?.(w) ?? 1);
    got += recent.admissions(w);
  }
  const bias = planned >= 3 * perWindow ? Math.min(1.5, Math.max(0.67, got / planned)) : 1;
  return Math.min(1.5 * perWindow, Math.max(0.5 * perWindow, perWindow / bias));
}

/** Admissions wanted for window c: the target's share, corrected by the recent windows (correctedShare), within the cap. */
function wantedFor(m: ModelParts, nowMs: number, d: number): (c: number) => number {
  const { s, ledger } = m;
  const perWindow = ((planRate(s) ?? 0) * d) / 60;
  const nowSec = Math.floor(nowMs / 1000);
  const current = Math.floor(nowSec / d) * d;
  const admissions = (w: number): number => ledger.windows.get(w)?.admissions ?? 0;
  const shareNow = planShare(s, current, d);
  const rescale = (w: number): number => shareNow(w) / (s.draws.firmShare.get(w) ?? 1);
  const corrected = correctedShare(
    {
      firm: s.draws.firm,
      plannedAdmissions: s.draws.plannedAdmissions,
      admissions,
      rescale,
      learnedFrom: s.draws.cohorts.learnedFrom,
    },
    current,
    d,
    perWindow,
  );
  const cap = s.settings.targets.totalActiveUsers;
  if (cap === null) return () => corrected;
  const active = ledger.activeSessions(nowMs, idleMs(s)).total;
  let pending = 0;
  for (const [w, planned] of s.draws.plannedAdmissions) {
    if (w + d <= nowSec) continue;
    pending += Math.max(0, planned - (w <= nowSec ? (ledger.windows.get(w)?.admissions ?? 0) : 0));
  }
  const headroom = cap - active - pending;
  return () => Math.max(0, Math.min(corrected, headroom));
}

/** Admissions a minute the cursor should make: the target, within what the active cap leaves. */
export function wantedPerMinute(m: ModelParts, nowMs: number): number {
  const target = planRate(m.s) ?? 0;
  const cap = m.s.settings.targets.totalActiveUsers;
  if (cap === null) return target;
  return Math.max(0, Math.min(target, cap - m.ledger.activeSessions(nowMs, idleMs(m.s)).total));
}

/**
 * One pass from the next window to the forecast's end; windows whose decision falls within the
 * pacing's horizon are fixed from it (each one's chance seen by the ones after it, as the edge will
 * draw them).
 */
function queueingPlan(m: ModelParts, nowMs: number, d: number, views: Map<number, CohortView>): WindowPlan[] {
  const { s, ledger } = m;
  const nowSec = Math.floor(nowMs / 1000);
  const current = Math.floor(nowSec / d) * d;
  const readSec = Math.floor(ledger.seenUntilMs(nowMs) / 1000);
  const input = {
    ledger,
    nowSec,
    d,
    wanted: wantedFor(m, nowMs, d),
    returnRate: s.returns.returnRate,
    reissueReturnRates: s.returns.reissueReturnRates,
    // Rates are measured up to where every POP's log has been read: lines come seconds late, and
    // counting the seconds not yet read as empty would halve a surge in its first moments.
    arrivalRate: arrivalRate(m, readSec, d),
    reissueRates: reissueRates(ledger, readSec, d),
    firm: s.draws.firm,
    returning: s.returns.returning,
    defaultChance: s.settings.edgePct,
    // A proof of work some draws do not bring: the chance published is what they need over the share they get.
    share: planShare(s, current, d),
    // What came of the last closed cohorts' expected draws, late ones included (cohort-draws.ts).
    cohortScales: cohortScales(s.draws.cohorts),
  };
  return planWindows(input, current + d, current + m.forecastWindows * d, (c, view) => views.set(c, view));
}

/**
 * The share of the published chance window c's draws will get (proof-share.ts): 1 while no proof is
 * asked, and for a window the controller published no difficulty for (auto: 0); else f, as learned.
 */
export function planShare(s: ModelState, current: number, d: number): (c: number) => number {
  if (!s.proof.asked) return () => 1;
  const f = effectiveShare(s.proof.draws, current, d);
  return (c) => (s.proof.settings.auto && s.proof.firm.get(c) === 0 ? 1 : f);
}

/** Fixes the plan's windows whose decision time is within `horizonSec`; returns how many were newly fixed. */
function firmUpTo(
  m: ModelParts,
  plan: readonly WindowPlan[],
  views: ReadonlyMap<number, CohortView>,
  horizonSec: number,
  nowMs: number,
): number {
  let fixed = 0;
  for (const p of plan) {
    if (!firmNow(p.start, m.lead, horizonSec) || m.s.draws.firm.has(p.start)) continue;
    m.s.draws.firm.set(p.start, p.pct);
    m.s.draws.plannedAdmissions.set(p.start, p.expected);
    // Its expected draws, to hold against what it draws once closed: only where the law chose the chance.
    const view = views.get(p.start);
    if (p.pct < 100 && view !== undefined) planCohort(m.s.draws.cohorts, p.start, view, nowMs);
    if (p.share < 1) m.s.draws.firmShare.set(p.start, p.share);
    fixed++;
  }
  return fixed;
}

/** The queueing room's step: the schedule to write now, or null (the reason in s.status.why). */
export function queueingStep(m: ModelParts, nowMs: number, d: number, writeIntervalMs: number): SettingWrites | null {
  const { s, ledger } = m;
  const nowSec = Math.floor(nowMs / 1000);
  const current = Math.floor(nowSec / d) * d;
  s.status.mode = 'queueing';
  const readTo = ledger.seenUntilMs(nowMs);
  if (readTo - (ledger.firstMs ?? readTo) < 10_000 && s.returns.returning.length === 0) {
    // A schedule from a few seconds of log would say 100 for every window, and the waiting pages
    // would promise that: nothing goes out until every POP's log reaches 10 s into the crowd.
    s.status.why = 'queueing: reading the first seconds of the crowd before planning';
    return null;
  }
  if (!passDue(s, nowMs, d, m.lead)) return unsentSchedule(s);
  s.pacing.lastPassMs = nowMs;
  const views = new Map<number, CohortView>();
  const plan = queueingPlan(m, nowMs, d, views);
  s.draws.lastPlan = plan;
  // A window is fixed at its decision time, with the most the log can tell by then (pacing.ts); when a
  // write goes out now, it also fixes every window due before the next write the budget allows.
  const fixedNow = firmUpTo(m, plan, views, firmHorizonSec(nowMs, 0), nowMs);
  const waiting = m.history.countWaiting(nowMs, current).total;
  const recentFirm = [current - d, current].map((w) => s.draws.firm.get(w));
  const active = ledger.activeSessions(nowMs, idleMs(s)).total;
  const cap = s.settings.targets.totalActiveUsers;
  if (waiting === 0 && recentFirm.every((p) => p !== undefined && p >= 100) && (cap === null || active < 0.8 * cap)) {
    s.status.why = 'nobody waits and the target has room: opening the room';
    return { allow_percentage: '100', allow_schedule: '' };
  }
  const firmPct = s.draws.firm.get(current + d) ?? s.draws.firm.get(current);
  s.status.why = `queueing: ${waiting} waiting, next window at ${firmPct === undefined ? '?' : fmt(firmPct)}%`;
  let text = scheduleText(s.draws.firm, plan, nowSec, d);
  if (
    writeIntervalMs > 0 &&
    fixedNow === 0 &&
    decisionDue(s.draws.firm, nowSec, d, m.lead, firmHorizonSec(nowMs, writeIntervalMs))
  ) {
    // Only the forecast would go out now, and a window falls due before the next write could: the
    // forecast waits for that window's write, so the window is fixed at its decision time, not before.
    s.pacing.lastText = text;
    return null;
  }
  if (writeIntervalMs > 0 && (fixedNow > 0 || scheduleDue(s, text, nowMs, m.refreshMs) !== null)) {
    if (firmUpTo(m, plan, views, firmHorizonSec(nowMs, writeIntervalMs), nowMs) > 0)
      text = scheduleText(s.draws.firm, plan, nowSec, d);
  }
  s.pacing.lastText = text;
  return scheduleDue(s, text, nowMs, m.refreshMs);
}

/** Learns the return rates from a cohort past its grace window (ledger.prune hands each over). */
export function learnReturnRates(s: ModelState, closed: ClosedCohort, d: number | null): void {
  // While the pre-queue drains, tickets wait without drawing: their cohorts say nothing of returns.
  if (closed.exp <= s.returns.drainSeenSec + (d ?? 0)) return;
  countCohort(s.draws.cohorts, closed);
  // The return rate of the tickets the plan follows from window to window: reissued ones (drawn
  // at once, most of them) have their own below, and would otherwise hide how many others vanish.
  let size = closed.size;
  let drawn = closed.drawn;
  for (const r of closed.reissued.values()) (size -= r.size), (drawn -= r.drawn);
  if (size >= 20) s.draws.cohorts.ratesLearned = true;
  if (size >= 20) s.returns.returnRate = Math.min(1, Math.max(0.3, 0.7 * s.returns.returnRate + 0.3 * (drawn / size)));
  // Reissued tickets are held by those who came back late once already: many will again.
  for (const [k, r] of closed.reissued) {
    if (r.size < 10) continue;
    const before = s.returns.reissueReturnRates.get(k) ?? 0.5;
    s.returns.reissueReturnRates.set(k, Math.min(1, Math.max(0.05, 0.7 * before + 0.3 * (r.drawn / r.size))));
  }
}
