// The text of `allow_schedule` the control model writes, and when a new forecast is worth a write.
import type { WindowPlan } from './plan.js';

const clampPct = (p: number): number => Math.min(100, Math.max(0, p));
/** Six decimals: finer than any gap between two tickets' numbers the controller can tell apart. */
export const fmt = (p: number): string => String(Math.round(clampPct(p) * 1e6) / 1e6);

/** Did any window's chance move by more than a quarter (relative) between two schedule texts? */
export function forecastMoved(before: string | undefined, after: string): boolean {
  if (before === undefined || before === '') return true;
  const old = new Map(before.split(',').map((e) => e.split('=') as [string, string]));
  for (const entry of after.split(',')) {
    const [w, p] = entry.split('=') as [string, string];
    const was = old.get(w);
    if (was === undefined) continue;
    const a = Number(was);
    const b = Number(p);
    if (Math.abs(a - b) > 0.25 * Math.max(a, b, 1)) return true;
  }
  return false;
}

/** `allow_schedule`'s text: recent firm windows (late tabs still draw them) and the plan ahead. */
export function scheduleText(
  firm: ReadonlyMap<number, number>,
  plan: readonly WindowPlan[],
  nowSec: number,
  d: number,
): string {
  const current = Math.floor(nowSec / d) * d;
  const entries = new Map<number, number>();
  // Recent firm windows stay listed: late tabs still draw them in the window after.
  for (const [w, pct] of firm) if (w >= current - 2 * d) entries.set(w, pct);
  for (const p of plan) entries.set(p.start, p.pct);
  return [...entries]
    .sort((a, b) => a[0] - b[0])
    .map(([w, pct]) => `${w}=${fmt(pct)}`)
    .join(',');
}

export interface ScheduleEntryText {
  start: number;
  pct: string;
}

/** A schedule's `START=VALUE` entries, each value as written, sorted by start; entries without both are left out. */
export const parseScheduleText = (text: string): ScheduleEntryText[] =>
  text
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '')
    .map((e) => {
      const [start, pct] = e.split('=') as [string, string];
      return { start: Number(start), pct };
    })
    .filter((e) => Number.isSafeInteger(e.start) && e.pct !== undefined && e.pct !== '')
    .sort((a, b) => a.start - b.start);
