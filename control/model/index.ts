// The control model: decision lines in, the chance of each coming window out. Pure: it reads time
// only from its arguments and does no I/O, so `npm run control` and the simulator run the same code.
//
// Modes follow the edge's master switch, allow_percentage: at 100 the room is open and the model
// only watches the admission rate, engaging (a chance below 100 and a schedule) once it reaches the
// target or active sessions near the cap; between 0 and 100 it queues, and the model fixes each
// window's chance `leadSeconds` before the window opens; at 0 (the operator's deny) it only watches.
import { parseConfig } from '../../src/core/config.js';
import type { ControlModel, ModelSnapshot, SettingWrites, Targets } from '../types.js';
import { Ledger } from './ledger.js';
import { denyPageReturns, planWindows, returnersBetween, type Returning, type WindowPlan } from './plan.js';
import { CursorPlanner } from './cursor-plan.js';
import { fmt, forecastMoved, scheduleText } from './schedule-text.js';
import { ModelSnapshots } from './snapshot.js';

export interface ModelOptions {
  /**
   * How long before a window opens its chance is fixed: at least the slowest POP's delay in seeing a
   * new setting plus the time a write takes. Fastly's Config Store reaches POPs within seconds to
   * tens of seconds; 25 s by default.
   */
  leadSeconds?: number;
  /** How many windows ahead the forecast reaches. */
  forecastWindows?: number;
  /** How often the forecast alone justifies a write, ms (a new firm window always does). */
  forecastRefreshMs?: number;
  /** What save() gave before a restart (the state file, control/state-file.ts): the model goes on from it. */
  restore?: unknown;
}

export function createControlModel(options: ModelOptions = {}): ControlModel {
  const lead = options.leadSeconds ?? 25;
  const forecastWindows = options.forecastWindows ?? 20;
  const refreshMs = options.forecastRefreshMs ?? 60_000;
  const ledger = new Ledger();
  const snapshots = new ModelSnapshots(ledger);
  // The queue's cursor: a scheduled event's pre-queue and first-come queues (docs/events.md).
  const cursor = new CursorPlanner(lead);
  let queueAll = false;
  /** The last second the pre-queue was draining (cohorts drawn before then tell nothing of returns). */
  let drainSeenSec = Number.NEGATIVE_INFINITY;
  let targets: Targets = { newUsersPerMinute: null, totalActiveUsers: null, sessionDurationMinutes: 5 };
  let edgePct = 100;
  /** The deny page's crowd coming back since the room last opened. */
  let returning: Returning[] = [];
  let problems: string[] = [];
  /** Chances fixed so far, by window start. */
  const firm = new Map<number, number>();
  /** What was planned for each firm window (expected admissions). */
  const plannedAdmissions = new Map<number, number>();
  let returnRate = 0.95;
  /** The same for tickets no successor named, by their cohort's offset from the window they appear in (ledger.ts). */
  const reissueReturnRates = new Map<number, number>();
  let adopted = false;
  let lastWritten: SettingWrites = {};
  let lastWriteMs = 0;
  let lastFirmWritten = -Infinity;
  let lastPlan: WindowPlan[] = [];
  let lastPassMs = -Infinity;
  let lastText: string | null = null;
  let why = 'waiting for the first decision line';
  let mode: ModelSnapshot['mode'] = 'observing';

  const idleMs = (): number => targets.sessionDurationMinutes * 60_000;

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
  function arrivalRate(readSec: number, d: number): number {
    const w = Math.floor(readSec / d) * d;
    // The deny page's crowd coming back is forecast on its own: it is not a rate that goes on.
    const back = returnersBetween(returning, w - d, readSec) / (readSec - (w - d));
    return Math.max(0, recentRate((x) => ledger.arrivals.get(x) ?? 0, readSec, d) - back);
  }

  /** Tickets reissued a second (holders back after their grace window), by cohort offset (recentRate). */
  function reissueRates(readSec: number, d: number): Map<number, number> {
    const w = Math.floor(readSec / d) * d;
    const rates = new Map<number, number>();
    for (const k of new Set([...(ledger.reissues.get(w - d)?.keys() ?? []), ...(ledger.reissues.get(w)?.keys() ?? [])])) {
      rates.set(k, recentRate((x) => ledger.reissues.get(x)?.get(k) ?? 0, readSec, d));
    }
    return rates;
  }

  /**
   * Admissions wanted for window c: the target's share, divided by how far the last six queueing
   * windows' admissions came from what their chances were expected to admit, within the cap.
   */
  function wantedFor(nowMs: number, d: number): (c: number) => number {
    const perWindow = ((targets.newUsersPerMinute ?? 0) * d) / 60;
    const nowSec = Math.floor(nowMs / 1000);
    const current = Math.floor(nowSec / d) * d;
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
      planned += plan;
      got += ledger.windows.get(w)?.admissions ?? 0;
    }
    const bias = planned >= 3 * perWindow ? Math.min(1.5, Math.max(0.67, got / planned)) : 1;
    const corrected = Math.min(1.5 * perWindow, Math.max(0.5 * perWindow, perWindow / bias));
    const cap = targets.totalActiveUsers;
    if (cap === null) return () => corrected;
    const active = ledger.activeSessions(nowMs, idleMs()).total;
    let pending = 0;
    for (const [w, planned] of plannedAdmissions) {
      if (w + d <= nowSec) continue;
      pending += Math.max(0, planned - (w <= nowSec ? (ledger.windows.get(w)?.admissions ?? 0) : 0));
    }
    const headroom = cap - active - pending;
    return () => Math.max(0, Math.min(corrected, headroom));
  }

  function queueingPlan(nowMs: number, d: number): WindowPlan[] {
    const nowSec = Math.floor(nowMs / 1000);
    const current = Math.floor(nowSec / d) * d;
    const readSec = Math.floor(ledger.seenUntilMs(nowMs) / 1000);
    const input = {
      ledger,
      nowSec,
      d,
      wanted: wantedFor(nowMs, d),
      returnRate,
      reissueReturnRates,
      // Rates are measured up to where every POP's log has been read: lines come seconds late, and
      // counting the seconds not yet read as empty would halve a surge in its first moments.
      arrivalRate: arrivalRate(readSec, d),
      reissueRates: reissueRates(readSec, d),
      firm,
      returning,
      defaultChance: edgePct,
    };
    // One pass from the next window to the forecast's end; windows whose decision time has come are
    // fixed from it (each one's chance seen by the ones after it, as the edge will draw them).
    const plan = planWindows(input, current + d, current + forecastWindows * d);
    for (const p of plan) {
      if (p.start - lead > nowSec || firm.has(p.start)) continue;
      firm.set(p.start, p.pct);
      plannedAdmissions.set(p.start, p.expected);
    }
    return plan;
  }

  /** Admissions a minute the cursor should make: the target, within what the active cap leaves. */
  function wantedPerMinute(nowMs: number): number {
    const target = targets.newUsersPerMinute ?? 0;
    const cap = targets.totalActiveUsers;
    if (cap === null) return target;
    return Math.max(0, Math.min(target, cap - ledger.activeSessions(nowMs, idleMs()).total));
  }

  /** The cursor's part of a plan (cursor-plan.ts), or undefined to let the draw's law decide. */
  function queuePlan(nowMs: number, d: number, role: 'drain' | 'fifo'): SettingWrites | null | undefined {
    const seen = Math.floor(ledger.seenUntilMs(nowMs) / 1000);
    const step = cursor.step(nowMs, d, role, edgePct, wantedPerMinute(nowMs), seen, arrivalRate(seen, d));
    if (step === undefined) return undefined;
    mode = step.mode;
    why = step.why;
    return step.writes;
  }

  /** Is a window's decision due (its chance not fixed, its decision time come)? */
  function decisionDue(nowSec: number, d: number): boolean {
    const next = Math.floor(nowSec / d) * d + d;
    for (let c = next; c - lead <= nowSec; c += d) if (!firm.has(c)) return true;
    return false;
  }

  return {
    settings(values, nowMs) {
      const { config, problems: found } = parseConfig((k) => (Object.hasOwn(values, k) ? values[k]! : null));
      cursor.settings(config);
      queueAll = config.queueAll;
      targets = {
        newUsersPerMinute: config.control.newUsersPerMinute,
        totalActiveUsers: config.control.totalActiveUsers,
        sessionDurationMinutes: config.control.sessionDurationMinutes,
      };
      const nowSec = Math.floor(nowMs / 1000);
      if (edgePct <= 0 && config.allowPercentage > 0 && adopted && ledger.period !== null) {
        // The operator opened the room: everyone on the deny page comes back at its next check.
        returning = denyPageReturns(ledger.denials, ledger.period, nowSec);
      }
      edgePct = config.allowPercentage;
      problems = found
        .filter((p) => ['new_users_per_minute', 'total_active_users', 'session_duration', 'allow_schedule'].includes(p.key))
        .map((p) => `${p.key}: ${p.message}`);
      // Chances published (by an earlier run, say) whose decision time has passed may have reached
      // POPs already: they are honoured. Later entries are only a forecast.
      // Only on the first reading: after that the store holds this model's own forecasts.
      if (!adopted) for (const e of config.allowSchedule) if (e.start - lead <= nowSec) firm.set(e.start, e.pct);
      adopted = true;
    },

    observe(line) {
      ledger.observe(line);
      cursor.observe(line);
    },

    plan(nowMs, holding): SettingWrites | null {
      const d = ledger.period;
      const nowSec = Math.floor(nowMs / 1000);
      const role = d === null ? 'none' : cursor.role(nowSec, d);
      if (role === 'drain') drainSeenSec = nowSec;
      ledger.prune(nowMs, idleMs(), (closed) => {
        // While the pre-queue drains, tickets wait without drawing: their cohorts say nothing of returns.
        if (closed.exp <= drainSeenSec + (d ?? 0)) return;
        // The return rate of the tickets the plan follows from window to window: reissued ones (drawn
        // at once, most of them) have their own below, and would otherwise hide how many others vanish.
        let size = closed.size;
        let drawn = closed.drawn;
        for (const r of closed.reissued.values()) (size -= r.size), (drawn -= r.drawn);
        if (size >= 20) returnRate = Math.min(1, Math.max(0.3, 0.7 * returnRate + 0.3 * (drawn / size)));
        // Reissued tickets are held by those who came back late once already: many will again.
        for (const [k, r] of closed.reissued) {
          if (r.size < 10) continue;
          const before = reissueReturnRates.get(k) ?? 0.5;
          reissueReturnRates.set(k, Math.min(1, Math.max(0.05, 0.7 * before + 0.3 * (r.drawn / r.size))));
        }
      });
      for (const w of plannedAdmissions.keys()) if (d !== null && w < nowSec - 10 * d) plannedAdmissions.delete(w);
      for (const w of firm.keys()) if (d !== null && w < nowSec - 10 * d) firm.delete(w);
      if (d === null) {
        mode = 'observing';
        why = 'no decision line yet: the period and the crowd are unknown';
        return null;
      }
      if (targets.newUsersPerMinute === null) {
        mode = 'observing';
        why = problems.length > 0 ? `no usable target (${problems.join('; ')})` : 'new_users_per_minute is not set: observing only';
        return null;
      }
      if (holding) {
        why = 'holding: the log source is lagging or down, so the view may be stale';
        return null;
      }
      if (queueAll && role === 'none') {
        // Held by the operator: the draws wait, so the law plans nothing (a held window is no
        // shortfall to make up afterwards, at up to 1.5 times the target).
        mode = 'observing';
        why = 'queue_all: the operator holds the room; nobody new is admitted';
        return null;
      }
      if (edgePct <= 0) {
        mode = 'observing';
        why = 'allow_percentage is 0: the room denies everyone until the operator opens it';
        return null;
      }
      const current = Math.floor(nowSec / d) * d;
      const perWindow = (targets.newUsersPerMinute * d) / 60;
      if (role !== 'none') {
        const queued = queuePlan(nowMs, d, role);
        const end = role === 'drain' ? cursor.drainEndSec(nowSec, d) : null;
        if (queued !== undefined && (queued !== null || end === null || edgePct >= 100)) return queued;
        if (end !== null) {
          // The cursor has passed the start and the last of the pre-queue are coming in: plan the draw
          // that follows now, so its first windows have their chances when the edge stops holding
          // latecomers. Windows before that draw nobody (the edge holds them): firm at 0.
          for (let w = current - d; w + d <= end; w += d) if (!firm.has(w)) firm.set(w, 0);
        } else if (queued !== undefined) {
          return queued;
        }
      }
      if (edgePct >= 100) {
        mode = 'open';
        const lastWindow = ledger.windows.get(current - d)?.admissions ?? 0;
        const thisWindow = ledger.windows.get(current)?.admissions ?? 0;
        const elapsed = nowSec - current;
        const rate = Math.max(lastWindow / d, elapsed >= 5 ? thisWindow / elapsed : 0);
        const active = ledger.activeSessions(nowMs, idleMs()).total;
        const cap = targets.totalActiveUsers;
        if (rate * d < 0.9 * perWindow && (cap === null || active < 0.95 * cap)) {
          why = `open: ${Math.round(rate * 60)} admissions a minute, under the target`;
          return null;
        }
        why = cap !== null && active >= 0.95 * cap ? 'engaging: active sessions near the cap' : 'engaging: admissions reached the target';
        // Start queueing: new visitors wait for the draws; their cohorts get chances as they fill.
        const start = Math.max(1, Math.min(99, (100 * perWindow) / Math.max(1, rate * d)));
        const writes = { allow_percentage: fmt(Math.round(start * 100) / 100) };
        // First-come: the cursor takes over from the first queued visitor.
        if (role === 'fifo') {
          const seen = Math.floor(ledger.seenUntilMs(nowMs) / 1000);
          return { ...writes, ...cursor.plan(nowMs, d, wantedPerMinute(nowMs), seen, arrivalRate(seen, d), true) };
        }
        return writes;
      }
      mode = 'queueing';
      const readTo = ledger.seenUntilMs(nowMs);
      if (readTo - (ledger.firstMs ?? readTo) < 10_000 && returning.length === 0) {
        // A schedule from a few seconds of log would say 100 for every window, and the waiting pages
        // would promise that: nothing goes out until every POP's log reaches 10 s into the crowd.
        why = 'queueing: reading the first seconds of the crowd before planning';
        return null;
      }
      // The full pass reads every ticket (a second for a million): only when a window's chance is due,
      // or every 15 s for the forecast. Between, nothing changes that must go out.
      if (!decisionDue(nowSec, d) && nowMs - lastPassMs < 15_000) {
        // A decided window the writer could not send yet (spacing, a failed write) goes out as soon as it can.
        const unsent = lastText !== null && lastText !== lastWritten.allow_schedule && Math.max(...firm.keys()) > lastFirmWritten;
        return unsent ? { allow_schedule: lastText! } : null;
      }
      lastPassMs = nowMs;
      const plan = queueingPlan(nowMs, d);
      lastPlan = plan;
      const waiting = snapshots.countWaiting(nowMs, current).total;
      const recentFirm = [current - d, current].map((w) => firm.get(w));
      const active = ledger.activeSessions(nowMs, idleMs()).total;
      const cap = targets.totalActiveUsers;
      if (waiting === 0 && recentFirm.every((p) => p !== undefined && p >= 100) && (cap === null || active < 0.8 * cap)) {
        why = 'nobody waits and the target has room: opening the room';
        return { allow_percentage: '100', allow_schedule: '' };
      }
      const firmPct = firm.get(current + d) ?? firm.get(current);
      why = `queueing: ${waiting} waiting, next window at ${firmPct === undefined ? '?' : fmt(firmPct)}%`;
      const text = scheduleText(firm, plan, nowSec, d);
      lastText = text;
      const newestFirm = Math.max(...firm.keys());
      // A new firm window must go out; a forecast only once a minute, or sooner when it moved a lot
      // (a surge), since the waiting page's estimate reads it.
      const moved = forecastMoved(lastWritten.allow_schedule, text);
      const due = newestFirm > lastFirmWritten || nowMs - lastWriteMs >= refreshMs || (moved && nowMs - lastWriteMs >= 15_000);
      if (!due || text === lastWritten.allow_schedule) return null;
      return { allow_schedule: text };
    },

    written(values, ok, nowMs) {
      if (!ok) return;
      cursor.written(values, nowMs);
      lastWritten = { ...lastWritten, ...values };
      lastWriteMs = nowMs;
      if (values.allow_schedule !== undefined && firm.size > 0) lastFirmWritten = Math.max(...firm.keys());
      if (values.allow_percentage !== undefined) {
        edgePct = Number(values.allow_percentage);
        if (values.allow_schedule === '') firm.clear();
      }
    },

    snapshot(nowMs) {
      const state = { targets, mode, why, edgePct, firm, plan: lastPlan, idleMs: idleMs(), queue: cursor.snapshot() };
      return snapshots.snapshot(nowMs, state);
    },
  };
}
