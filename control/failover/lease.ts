// The lease on a published schedule (docs/control/failover.md#restarting-it-safely): every allow_schedule the
// controller writes reaches at least the lease ahead, and its last entry, at the lease's end, is the
// room's fallback chance. The edge keeps the last entry once past the schedule (src/core/decision/draw.ts
// chanceFor), so a controller that dies leaves each room on its forecast until the lease runs out,
// then on a known chance: `fallback_percentage` if the operator set one, else the lowest chance of
// the forecast it last published (the slowest pace it planned, so the origin is not flooded).
import { CONFIG_STORE_VALUE_LIMIT } from '../../src/core/settings/index.js';
import { parseScheduleText } from '../model/index.js';

/**
 * The lowest chance above 0 among the entries from the window of `nowSec` on (null: none). A window
 * at 0 is one the controller holds on purpose (a pre-queue draining): falling back to 0 would leave a
 * dead controller's room admitting nobody, for ever.
 */
export function lowestForecast(text: string, nowSec: number, d: number): number | null {
  const current = Math.floor(nowSec / d) * d;
  const ahead = parseScheduleText(text)
    .filter((e) => e.start >= current)
    .map((e) => Number(e.pct))
    .filter((p) => p > 0);
  return ahead.length === 0 ? null : Math.min(...ahead);
}

/** The first window start at or after `nowSec + leaseSeconds`: where the fallback entry goes. */
export const leaseEnd = (nowSec: number, d: number, leaseSeconds: number): number =>
  Math.ceil((nowSec + leaseSeconds) / d) * d;

/**
 * `text` (the model's schedule) with the lease: entries at or past the lease's end dropped, and one
 * entry at its end with the fallback chance (`fallback` if set, else the forecast's lowest). Entries
 * of a text too long for a Config Store value lose decimals until it fits. An empty text (no
 * schedule: the room open) stays empty.
 */
export function withLease(
  text: string,
  nowSec: number,
  d: number,
  leaseSeconds: number,
  fallback: number | null,
): string {
  if (text.trim() === '') return text;
  const end = leaseEnd(nowSec, d, leaseSeconds);
  const entries = parseScheduleText(text).filter((e) => e.start < end);
  const kept = entries.map((e) => `${e.start}=${e.pct}`).join(',');
  const low = fallback ?? lowestForecast(kept, nowSec, d) ?? Number(entries.at(-1)?.pct ?? 0);
  entries.push({ start: end, pct: String(Math.round(low * 1e6) / 1e6) });
  for (const decimals of [6, 4, 2, 0]) {
    const out = entries.map((e) => `${e.start}=${Number(Number(e.pct).toFixed(decimals))}`).join(',');
    if (out.length <= CONFIG_STORE_VALUE_LIMIT || decimals === 0) return out;
  }
  /* c8 ignore next */
  return text;
}

/** The window start of a schedule's last entry (its lease's end), or null without one. */
export function lastEntryStart(text: string): number | null {
  const entries = parseScheduleText(text);
  return entries.length === 0 ? null : entries.at(-1)!.start;
}
