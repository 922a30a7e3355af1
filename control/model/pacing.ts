// When the model writes: the single owner of that decision. A window's chance is fixed at its
// deadline (its decision time, `leadSeconds` before it opens), with the most the log can tell by then;
// with writes spaced `writeIntervalMs` apart (the API budget), a write that goes out (a window due, or
// the forecast's refresh) also fixes every window whose decision time comes before the next write can go. A new firm window always goes out; a forecast alone once a minute, or
// sooner when it moved a lot; the queue's cursor every 30 s, or sooner when its speed changed. The
// writer (control/store/writer.ts) only sends what is due and spaces the calls by the budget.
import type { SettingWrites } from '../types.js';
import { forecastMoved } from './schedule-text.js';
import type { ModelState } from './state.js';

/** What pacing owns of the model's state: what went out and when, and the last full pass. */
export interface PacingState {
  /** Every setting as last written. */
  lastWritten: SettingWrites;
  lastWriteMs: number;
  /** The newest firm window the last written schedule carried. */
  lastFirmWritten: number;
  /** When the last full pass over the tickets ran, ms. */
  lastPassMs: number;
  /** The schedule text of the last pass, written or not. */
  lastText: string | null;
}

export const initialPacing = (): PacingState => ({
  lastWritten: {},
  lastWriteMs: 0,
  lastFirmWritten: Number.NEGATIVE_INFINITY,
  lastPassMs: Number.NEGATIVE_INFINITY,
  lastText: null,
});

/** The full pass over the tickets runs at least this often for the forecast, ms (else only when a decision is due). */
export const PASS_EVERY_MS = 15_000;
/** A forecast that moved by a quarter goes out once this long has passed since the last write, ms. */
const MOVED_AFTER_MS = 15_000;
/** A cursor line is rewritten at least this often: every 30 s (60 s let the minutes of a drain stray past ±10%; two keys, 240 API calls an hour). */
const CURSOR_REWRITE_MS = 30_000;
/** A cursor whose speed changed by more than 15% goes out once this long has passed since its last write, ms. */
const CURSOR_CHANGED_AFTER_MS = 20_000;

/**
 * The latest decision time (epoch s) the write now must cover: now, plus the spacing until the next
 * write the budget allows (0: every tick may write, and a window is fixed at its decision time).
 */
export function firmHorizonSec(nowMs: number, writeIntervalMs: number): number {
  // A window due exactly when the next write can go is fixed by that write.
  return writeIntervalMs > 0 ? Math.ceil((nowMs + writeIntervalMs) / 1000) - 1 : Math.floor(nowMs / 1000);
}

/** Is window `start`'s chance fixed by now (its decision time within the horizon)? */
export function firmNow(start: number, leadSeconds: number, horizonSec: number): boolean {
  return start - leadSeconds <= horizonSec;
}

/** Is a window's decision due: one not fixed yet whose decision time is within the horizon? */
export function decisionDue(
  firm: ReadonlyMap<number, number>,
  nowSec: number,
  d: number,
  leadSeconds: number,
  horizonSec: number,
): boolean {
  const next = Math.floor(nowSec / d) * d + d;
  for (let c = next; firmNow(c, leadSeconds, horizonSec); c += d) if (!firm.has(c)) return true;
  return false;
}

/**
 * Does the full pass (it reads every ticket: a second for a million) run now? Only when a window's
 * chance is due, or every PASS_EVERY_MS for the forecast: between, nothing changes that must go out.
 */
export function passDue(s: ModelState, nowMs: number, d: number, leadSeconds: number): boolean {
  const nowSec = Math.floor(nowMs / 1000);
  return decisionDue(s.draws.firm, nowSec, d, leadSeconds, nowSec) || nowMs - s.pacing.lastPassMs >= PASS_EVERY_MS;
}

/** Between passes: a decided window the writer could not send yet (spacing, a failed write) goes out as soon as it can. */
export function unsentSchedule(s: ModelState): SettingWrites | null {
  const unsent =
    s.pacing.lastText !== null &&
    s.pacing.lastText !== s.pacing.lastWritten.allow_schedule &&
    Math.max(...s.draws.firm.keys()) > s.pacing.lastFirmWritten;
  return unsent ? { allow_schedule: s.pacing.lastText! } : null;
}

/**
 * After a pass, the schedule `text` if it is due: a new firm window must go out; a forecast only once
 * every `refreshMs`, or sooner when it moved a lot (a surge), since the waiting page's estimate reads it.
 */
export function scheduleDue(s: ModelState, text: string, nowMs: number, refreshMs: number): SettingWrites | null {
  const newestFirm = Math.max(...s.draws.firm.keys());
  const moved = forecastMoved(s.pacing.lastWritten.allow_schedule, text);
  const due =
    newestFirm > s.pacing.lastFirmWritten ||
    nowMs - s.pacing.lastWriteMs >= refreshMs ||
    (moved && nowMs - s.pacing.lastWriteMs >= MOVED_AFTER_MS);
  if (!due || text === s.pacing.lastWritten.allow_schedule) return null;
  return { allow_schedule: text };
}

/** Is a cursor line due: none published, its rewrite time come, or its speed changed enough (cursor-plan.ts)? */
export function cursorDue(o: { force: boolean; published: boolean; sinceWriteMs: number; changed: boolean }): boolean {
  return (
    o.force ||
    !o.published ||
    o.sinceWriteMs >= CURSOR_REWRITE_MS ||
    (o.changed && o.sinceWriteMs >= CURSOR_CHANGED_AFTER_MS)
  );
}

/** What the writer sent (and the store now has): the ground for the next decisions of what is due. */
export function recordWritten(s: ModelState, values: SettingWrites, nowMs: number): void {
  s.pacing.lastWritten = { ...s.pacing.lastWritten, ...values };
  s.pacing.lastWriteMs = nowMs;
  if (values.allow_schedule !== undefined && s.draws.firm.size > 0)
    s.pacing.lastFirmWritten = Math.max(...s.draws.firm.keys());
  if (values.allow_percentage !== undefined) {
    s.settings.edgePct = Number(values.allow_percentage);
    if (values.allow_schedule === '') s.draws.firm.clear();
  }
}
