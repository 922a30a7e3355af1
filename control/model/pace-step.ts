// The autopilot's tick inside the control model: what the law (pace.ts) reads of the ledger and the
// origin's health, as far as every POP's log has been read, for a room in `target_mode = auto`.
import type { ModelParts } from './draw-plan.js';
import { paceTick, READ_SPAN_MS, VISIT_MS } from './pace.js';

/** Admissions a minute over the last `spanMs` of log read (whole windows, at least one). */
function admittedPerMinute(m: ModelParts, readMs: number, d: number, spanMs: number): number {
  const last = Math.floor(readMs / 1000 / d) * d - d;
  const windows = Math.max(1, Math.floor(spanMs / 1000 / d));
  let admitted = 0;
  for (let i = 0; i < windows; i++) admitted += m.ledger.windows.get(last - i * d)?.admissions ?? 0;
  return (admitted * 60) / (windows * d);
}

/** Moves the autopilot's rate when a tick is due; nothing in manual mode or without a ceiling. */
export function paceStep(m: ModelParts, nowMs: number, d: number): void {
  const { s, ledger, health } = m;
  health.prune(nowMs);
  const ceiling = s.settings.targets.newUsersPerMinute;
  if (s.settings.pace.mode !== 'auto' || ceiling === null) return;
  const readMs = Math.floor(ledger.seenUntilMs(nowMs) / 1000) * 1000;
  paceTick(s.pace, {
    nowMs,
    settings: s.settings.pace,
    ceiling,
    reading: health.reading(readMs - READ_SPAN_MS, readMs, s.settings.pace.objective.percentile),
    admittedPerMinute: admittedPerMinute(m, readMs, d, 60_000),
    visitPerMinute: admittedPerMinute(m, readMs, d, VISIT_MS),
    waiting: m.history.now().waiting.total,
  });
}
