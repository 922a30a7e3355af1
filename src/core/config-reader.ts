// Reads `waiting_room_config` one key at a time: values trimmed, problems recorded against the key
// they came from, the documented default when a value is missing or unusable.
import { settingsTable } from './settings.js';
import type { ConfigProblem } from './types.js';

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

