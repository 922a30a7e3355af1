// Reads `waiting_room_config` one key at a time: values trimmed, problems recorded against the key
// they came from, the documented default when a value is missing or unusable.
import { settingsTable } from './settings.js';
import type { ConfigProblem } from '../types.js';

export const defaults = Object.fromEntries(settingsTable.map((s) => [s.key, s.default])) as Record<string, string>;

export type Get = (key: string) => string | null;

/** A reader that trims values and records problems against the key they came from. */
export class Reader {
  readonly problems: ConfigProblem[] = [];
  constructor(private readonly get: Get) {}

  raw(key: string): string | null {
    const value = this.get(key);
    if (value === null || value === undefined) return null;
    const trimmed = String(value).trim();
    return trimmed === '' ? null : trimmed;
  }

  problem(key: string, value: string, message: string): void {
    this.problems.push({ key, value, message });
  }

  /**
   * Whole seconds from 1 to `max`: a window of 0 would divide by zero, a fraction would break the
   * windows, and the bound keeps every time the room computes (expiries, due times, stale times, each
   * a few periods past now) a safe integer. Anything else is unusable and gives the default.
   */
  seconds(key: string, max: number): number {
    const fallback = Number(defaults[key]);
    const value = this.raw(key);
    if (value === null) return fallback;
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) {
      this.problem(key, value, `must be a whole number of seconds from 1 to ${max}; using ${fallback}`);
      return fallback;
    }
    return Number(value);
  }

  /**
   * A schedule by window, `START=VALUE,...` (the controller's `allow_schedule` and `proof_schedule`):
   * [start, value] pairs sorted by start, with `start` whole epoch seconds and `value` a number from 0
   * to `max` (at most three whole digits); each entry that is not is skipped and reported, naming `unit`.
   */
  windowValues(key: string, max: number, unit: string): [number, number][] {
    const value = this.raw(key);
    if (value === null) return [];
    const entries: [number, number][] = [];
    for (const part of value.split(',')) {
      const item = part.trim();
      if (item === '') continue;
      const m = /^(\d{1,15})=(\d{1,3}(?:\.\d+)?)$/.exec(item);
      const start = m ? Number(m[1]) : Number.NaN;
      const n = m ? Number(m[2]) : Number.NaN;
      if (!Number.isSafeInteger(start) || !(n >= 0 && n <= max)) {
        this.problem(
          key,
          item.slice(0, 40),
          `each entry must be START=${unit} (epoch seconds = 0..${max}); ignoring this one`,
        );
        continue;
      }
      entries.push([start, n]);
    }
    return entries.sort((a, b) => a[0] - b[0]);
  }

  oneOf<T extends string>(key: string, allowed: readonly T[], caseInsensitive = true): T {
    const fallback = defaults[key] as T;
    const value = this.raw(key);
    if (value === null) return fallback;
    const found = allowed.find((a) => (caseInsensitive ? a.toLowerCase() === value.toLowerCase() : a === value));
    if (found === undefined) {
      this.problem(key, value, `must be one of ${allowed.join(', ')}; using ${fallback}`);
      return fallback;
    }
    return found;
  }
}
