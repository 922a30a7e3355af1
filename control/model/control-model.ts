// The control model: decision lines in, the chance of each coming window out. Pure: it reads time
// only from its arguments and does no I/O, so `npm run control` and the simulator run the same code.
//
// Modes follow the edge's master switch, allow_percentage: at 100 the room is open and the model
// only watches the admission rate, engaging (a chance below 100 and a schedule) once it reaches the
// target or active sessions near the cap (open-room.ts); between 0 and 100 it queues, and the model
// fixes each window's chance `leadSeconds` before the window opens (draw-plan.ts), or the queue's
// cursor leads (cursor-plan.ts); at 0 (the operator's deny) it only watches. This file only
// dispatches between them; pacing.ts decides when a write is due, history.ts records each tick.
import { parseConfig, problemText } from '../../src/core/settings/index.js';
import type { ControlModel, PlanContext, SettingWrites } from '../types.js';
import { pruneCohortDraws } from './cohort-draws.js';
import { CursorPlanner } from './cursor-plan.js';
import { arrivalRate, learnReturnRates, queueingStep, wantedPerMinute, type ModelParts } from './draw-plan.js';
import { History } from './history.js';
import { Ledger } from './ledger.js';
import { restoreLedger, saveLedger } from './ledger-saved.js';
import { openStep } from './open-room.js';
import { OriginHealth } from './origin-health.js';
import { paceStep } from './pace-step.js';
import { planRate } from './pace.js';
import { recordWritten } from './pacing.js';
import { adoptProofSchedule, withProofSchedule } from './proof-schedule.js';
import { observeDrawShare, pruneDrawShares } from './proof-share.js';
import { observeLanes, withLaneSchedule } from './lanes.js';
import { denyPageReturns } from './returning.js';
import { modelSnapshot } from './snapshot.js';
import { idleMs } from './sessions.js';
import { initialState, restoreState, saveState } from './state.js';
import { MODEL_SAVED_VERSION, type ModelSaved } from './saved.js';

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
  /** The state an earlier model saved (save()): this one goes on from it. A different version throws. */
  restore?: ModelSaved;
}

/** The settings whose problems leave the model without a usable target. */
const TARGET_KEYS = ['new_users_per_minute', 'total_active_users', 'session_duration', 'allow_schedule'];

/** The model as made here: its save() is the full ModelSaved (the ControlModel interface keeps it opaque). */
export type Model = Omit<ControlModel, 'save'> & { save(): ModelSaved };

export function createControlModel(options: ModelOptions = {}): Model {
  const ledger = new Ledger();
  // The queue's cursor: a scheduled event's pre-queue and first-come queues (docs/events.md).
  const lead = options.leadSeconds ?? 25;
  const m: ModelParts = {
    s: initialState(),
    ledger,
    history: new History(ledger),
    health: new OriginHealth(),
    cursor: new CursorPlanner(lead),
    lead,
    forecastWindows: options.forecastWindows ?? 20,
    refreshMs: options.forecastRefreshMs ?? 60_000,
  };
  if (options.restore !== undefined) restore(m, options.restore);
  const { s, cursor } = m;
  return {
    settings: (values, nowMs) => readSettings(m, values, nowMs),
    observe(line) {
      ledger.observe(line);
      // The origin's time and status on a forwarded request's line: what the autopilot steers by.
      m.health.observe(line);
      // The share of the chance the draws asked a proof got (proof-share.ts): what the plan makes up for.
      observeDrawShare(s.proof.draws, line, s.proof.freeShare);
      // The crowd's mix of priority lanes (lanes.ts): what each lane's chance is planned from.
      if (s.lanes.lanes.length > 0) observeLanes(s.lanes, line);
      // No place either: a token of the infinite queue never comes in, a check refused for hammering decided nothing.
      if (line.bot !== true && line.reason !== 'hammering') cursor.observe(line);
    },
    observeOrigin: (line) => m.health.observe(line),
    plan: (nowMs, ctx) => plan(m, nowMs, ctx),
    written(values, ok, nowMs) {
      if (!ok) return;
      cursor.written(values, nowMs);
      recordWritten(s, values, nowMs);
    },
    snapshot: (nowMs) => modelSnapshot(nowMs, s, ledger, m.history, cursor.snapshot()),
    save: () => ({
      version: MODEL_SAVED_VERSION,
      state: saveState(s),
      cursor: cursor.save(),
      history: m.history.save(),
      ledger: saveLedger(ledger),
    }),
  };
}

/** The room's settings as the store has them: targets, the edge's chance, what was published before this run. */
function readSettings(m: ModelParts, values: Readonly<Record<string, string>>, nowMs: number): void {
  const { s, ledger, cursor, lead } = m;
  const { config, problems } = parseConfig((k) => (Object.hasOwn(values, k) ? values[k]! : null));
  cursor.settings(config);
  s.settings.queueAll = config.queueAll;
  s.settings.targets = {
    newUsersPerMinute: config.control.newUsersPerMinute,
    totalActiveUsers: config.control.totalActiveUsers,
    sessionDurationMinutes: config.control.sessionDurationMinutes,
  };
  const nowSec = Math.floor(nowMs / 1000);
  if (s.settings.edgePct <= 0 && config.allowPercentage > 0 && s.settings.adopted && ledger.period !== null) {
    // The operator opened the room: everyone on the deny page comes back at its next check.
    s.returns.returning = denyPageReturns(ledger.denials, ledger.period, nowSec);
  }
  s.settings.edgePct = config.allowPercentage;
  s.settings.pace = config.control.pace;
  s.settings.problems = problems.filter((p) => p.key !== null && TARGET_KEYS.includes(p.key)).map(problemText);
  // Chances published (by an earlier run, say) whose decision time has passed may have reached
  // POPs already: they are honoured. Later entries are only a forecast.
  // Only on the first reading: after that the store holds this model's own forecasts.
  if (!s.settings.adopted)
    for (const e of config.allowSchedule) if (e.start - lead <= nowSec) s.draws.firm.set(e.start, e.pct);
  // The same for difficulties whose windows' tokens may carry their puzzle (proof-schedule.ts).
  if (!s.settings.adopted) adoptProofSchedule(s, config.proofSchedule, nowSec, config.waitPeriodSeconds, lead);
  s.settings.adopted = true;
  s.proof.settings = { auto: config.proofOfWork === 'auto', maxSeconds: config.proofSeconds };
  s.proof.asked = config.proofOfWork !== 'off';
  s.proof.freeShare = config.proofFreeShare;
  s.lanes.lanes = config.lanes.map((l) => ({ id: l.id, share: l.share }));
}

/** The tick's writes: the mode's step, the proof of work's difficulty riding them, and the tick's history point. */
function plan(m: ModelParts, nowMs: number, ctx: PlanContext): SettingWrites | null {
  const { s, ledger, lead } = m;
  const d = ledger.period;
  // The autopilot first: the rate it chooses is the target the step plans for (pace-step.ts).
  if (d !== null) paceStep(m, nowMs, d);
  const planned = step(m, nowMs, ctx);
  // The difficulty rides the schedule's writes (proof-schedule.ts), from the crowd each window draws
  // as planned; a window the plan does not cover (a recent firm one) reads those waiting now, once.
  let waitingNow: number | undefined;
  const crowdAt = (w: number, d: number): number =>
    s.draws.lastPlan.find((p) => p.start === w)?.drawing ??
    (waitingNow ??= ledger.waiting(Math.floor(nowMs / 1000 / d) * d).total);
  const writes =
    d === null
      ? planned
      : withLaneSchedule(
          s.lanes,
          withProofSchedule(s, planned, {
            nowMs,
            writeIntervalMs: ctx.writeIntervalMs,
            d,
            lead,
            crowdAt: (w) => crowdAt(w, d),
          }),
          // Each lane's share of the window's chance rides the same write (lanes.ts).
          { nowMs, d, firm: s.draws.firm, lastWritten: s.pacing.lastWritten },
        );
  // Every tick, whether or not a dashboard looks: past minutes keep their counts.
  m.history.record(nowMs, {
    targets: s.settings.targets,
    firm: s.draws.firm,
    edgePct: s.settings.edgePct,
    idleMs: idleMs(s),
    rate: planRate(s),
    origin: (minute) => m.health.minute(minute, s.settings.pace.objective.percentile),
  });
  return writes;
}

/** Forgets what is older than ten windows: the fixed chances, their plans and shares, the difficulties, the draws' shares. */
function pruneOld(m: ModelParts, nowSec: number, d: number): void {
  const { s } = m;
  for (const map of [s.draws.plannedAdmissions, s.draws.firm, s.draws.firmShare, s.proof.firm])
    for (const w of map.keys()) if (w < nowSec - 10 * d) map.delete(w);
  pruneDrawShares(s.proof.draws, Math.floor(nowSec / d) * d, d);
  pruneCohortDraws(s.draws.cohorts, nowSec - 10 * d);
}

/** The mode's step: observing, the cursor, the open room's watch, or the queueing room's draw plan. */
function step(m: ModelParts, nowMs: number, ctx: PlanContext): SettingWrites | null {
  const { s, ledger, cursor } = m;
  const d = ledger.period;
  const nowSec = Math.floor(nowMs / 1000);
  const role = d === null ? 'none' : cursor.role(nowSec, d);
  if (role === 'drain') s.returns.drainSeenSec = nowSec;
  ledger.prune(nowMs, idleMs(s), (closed) => learnReturnRates(s, closed, d));
  if (d !== null) pruneOld(m, nowSec, d);
  const observing = (why: string): null => ((s.status.mode = 'observing'), (s.status.why = why), null);
  if (d === null) return observing('no decision line yet: the period and the crowd are unknown');
  if (s.settings.targets.newUsersPerMinute === null) {
    return observing(
      s.settings.problems.length > 0
        ? `no usable target (${s.settings.problems.join('; ')})`
        : s.settings.pace.mode === 'auto'
          ? 'target_mode is auto, and new_users_per_minute, its ceiling, is not set: observing only'
          : 'new_users_per_minute is not set: observing only',
    );
  }
  if (ctx.holding) {
    s.status.why = 'holding: the log source is lagging or down, so the view may be stale';
    return null;
  }
  // Held by the operator: the draws wait, so the law plans nothing (a held window is no shortfall
  // to make up afterwards, at up to 1.5 times the target).
  if (s.settings.queueAll && role === 'none')
    return observing('queue_all: the operator holds the room; nobody new is admitted');
  if (s.settings.edgePct <= 0)
    return observing('allow_percentage is 0: the room denies everyone until the operator opens it');
  if (role !== 'none') {
    const queued = cursorStep(m, nowMs, d, role);
    if (queued !== undefined) return queued;
  }
  if (s.settings.edgePct >= 100) return openStep(m, nowMs, d, role === 'fifo');
  return queueingStep(m, nowMs, d, ctx.writeIntervalMs);
}

/**
 * While the queue's cursor leads (a pre-queue draining, a first-come room): its writes, or undefined
 * to let the open room's watch or the draw plan decide.
 */
function cursorStep(m: ModelParts, nowMs: number, d: number, role: 'drain' | 'fifo'): SettingWrites | null | undefined {
  const { s, cursor } = m;
  const nowSec = Math.floor(nowMs / 1000);
  const queued = queuePlan(m, nowMs, d, role);
  const end = role === 'drain' ? cursor.drainEndSec(nowSec, d) : null;
  if (queued !== undefined && (queued !== null || end === null || s.settings.edgePct >= 100)) return queued;
  if (end === null) return queued;
  // The cursor has passed the start and the last of the pre-queue are coming in: plan the draw
  // that follows now, so its first windows have their chances when the edge stops holding
  // latecomers. Windows before that draw nobody (the edge holds them): firm at 0.
  const current = Math.floor(nowSec / d) * d;
  for (let w = current - d; w + d <= end; w += d) if (!s.draws.firm.has(w)) s.draws.firm.set(w, 0);
  return undefined;
}

/** The cursor's part of a plan (cursor-plan.ts), or undefined to let the draw's law decide. */
function queuePlan(m: ModelParts, nowMs: number, d: number, role: 'drain' | 'fifo'): SettingWrites | null | undefined {
  const { s, ledger, cursor } = m;
  const seen = Math.floor(ledger.seenUntilMs(nowMs) / 1000);
  const pct = s.settings.edgePct;
  const step = cursor.step(nowMs, d, role, pct, wantedPerMinute(m, nowMs), seen, arrivalRate(m, seen, d));
  if (step === undefined) return undefined;
  s.status.mode = step.mode;
  s.status.why = step.why;
  return step.writes;
}

function restore(m: ModelParts, saved: ModelSaved): void {
  if (saved?.version !== MODEL_SAVED_VERSION) {
    throw new Error(
      `the saved control model is version ${String(saved?.version)}; this controller reads version ${MODEL_SAVED_VERSION} only`,
    );
  }
  m.s = restoreState(saved.state);
  m.cursor.restore(saved.cursor);
  m.history.restore(saved.history);
  if (saved.ledger !== null) restoreLedger(m.ledger, saved.ledger);
}
