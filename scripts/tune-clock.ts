// Times as `npm run tune` prints them: times of day in UTC (with the date when it is not today's),
// and ages in the largest unit that fits, never raw epoch seconds.

const pad = (n: number): string => String(n).padStart(2, '0');

/** `07:05:20 UTC`, or `2026-12-04 07:05:20 UTC` when `sec` falls on another day than `nowSec`. */
export function timeOfDay(sec: number, nowSec: number, withSeconds = true): string {
  const at = new Date(sec * 1000);
  const day = at.toISOString().slice(0, 10);
  const clock = `${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}${withSeconds ? `:${pad(at.getUTCSeconds())}` : ''}`;
  return `${day === new Date(nowSec * 1000).toISOString().slice(0, 10) ? '' : `${day} `}${clock} UTC`;
}

/** `42 s`, `5 min`, `3 h`, `2 days`: how long `seconds` is, rounded down to its largest unit. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 120) return `${s} s`;
  if (s < 2 * 3600) return `${Math.floor(s / 60)} min`;
  if (s < 2 * 86_400) return `${Math.floor(s / 3600)} h`;
  return `${Math.floor(s / 86_400)} days`;
}
