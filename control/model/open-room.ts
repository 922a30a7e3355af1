// The open room (allow_percentage 100): the model only watches the admission rate, and engages (a
// chance below 100) once it reaches the target or active sessions near the cap.
import type { SettingWrites } from '../types.js';
import { arrivalRate, wantedPerMinute, type ModelParts } from './draw-plan.js';
import { planRate } from './pace.js';
import { fmt } from './schedule-text.js';
import { idleMs } from './sessions.js';

/** The open room's step: null while it may stay open (s.status.why says why), else the writes that engage. */
export function openStep(m: ModelParts, nowMs: number, d: number, fifo: boolean): SettingWrites | null {
  const { s, ledger } = m;
  const nowSec = Math.floor(nowMs / 1000);
  const current = Math.floor(nowSec / d) * d;
  const perWindow = ((planRate(s) ?? 0) * d) / 60;
  s.status.mode = 'open';
  const lastWindow = ledger.windows.get(current - d)?.admissions ?? 0;
  const thisWindow = ledger.windows.get(current)?.admissions ?? 0;
  const elapsed = nowSec - current;
  const rate = Math.max(lastWindow / d, elapsed >= 5 ? thisWindow / elapsed : 0);
  const active = ledger.activeSessions(nowMs, idleMs(s)).total;
  const cap = s.settings.targets.totalActiveUsers;
  if (rate * d < 0.9 * perWindow && (cap === null || active < 0.95 * cap)) {
    s.status.why = `open: ${Math.round(rate * 60)} admissions a minute, under the target`;
    return null;
  }
  s.status.why =
    cap !== null && active >= 0.95 * cap
      ? 'engaging: active sessions near the cap'
      : 'engaging: admissions reached the target';
  // Start queueing: new visitors wait for the draws; their cohorts get chances as they fill.
  const start = Math.max(1, Math.min(99, (100 * perWindow) / Math.max(1, rate * d)));
  const writes = { allow_percentage: fmt(Math.round(start * 100) / 100) };
  // First-come: the cursor takes over from the first queued visitor.
  if (fifo) {
    const seen = Math.floor(ledger.seenUntilMs(nowMs) / 1000);
    return { ...writes, ...m.cursor.plan(nowMs, d, wantedPerMinute(m, nowMs), seen, arrivalRate(m, seen, d), true) };
  }
  return writes;
}
