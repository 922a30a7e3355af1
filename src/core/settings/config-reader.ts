// Reads `waiting_room_config` one key at a time: values trimmed, problems recorded against the key
// they came from, the declared default when a value is missing or unusable. The readers of the
// common forms (declared.ts) take their range or choices from the setting's declaration.
import { type ChoiceOf, type ChoiceSetting, declared, type SettingOf } from './declared.js';
import { type SettingProblem, settingProblem } from './problem.js';

/** Each declared setting's default, by name. */
export const defaults: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(declared).map(([key, d]) => [key, d.default]),
);

export type Get = (key: string) => string | null;

/** A reader that trims values and records problems against the key they came from. */
export class Reader {
  readonly problems: SettingProblem[] = [];
  constructor(private readonly get: Get) {}

  raw(key: string): string | null {
    const value = this.get(key);
    if (value === null || value === undefined) return null;
    const trimmed = String(value).trim();
    return trimmed === '' ? null : trimmed;
  }

  /** A problem with `key`'s value: what it must be (`reason`), and what the room does instead. */
  problem(key: string, value: string, reason: string, instead: string): void {
    this.problems.push(settingProblem(key, value, reason, instead));
  }

  /** `true` or `false`, any case. */
  boolean(key: SettingOf<'boolean'>): boolean {
    const fallback = declared[key].default === 'true';
    const value = this.raw(key);
    if (value === null) return fallback;
    if (/^true$/i.test(value)) return true;
    if (/^false$/i.test(value)) return false;
    this.problem(key, value, 'must be true or false', `using ${fallback}`);
    return fallback;
  }

  /**
   * Whole seconds from 1 to the declared most: a window of 0 would divide by zero, a fraction would
   * break the windows, and the bound keeps every time the room computes (expiries, due times, stale
   * times, each a few periods past now) a safe integer. Anything else is unusable and gives the default.
   */
  seconds(key: SettingOf<'whole'>): number {
    const d = declared[key];
    const max = d.form.max;
    const fallback = Number(d.default);
    const value = this.raw(key);
    if (value === null) return fallback;
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) {
      this.problem(key, value, `must be a whole number of seconds from 1 to ${max}`, `using ${fallback}`);
      return fallback;
    }
    return Number(value);
  }

  /** A number above 0 (decimals allowed, or whole when so declared) up to the declared most, or null when unset; anything else is a problem and null. */
  positive(key: SettingOf<'number'> | SettingOf<'whole'>): number | null {
    const form = declared[key].form;
    const integer = form.type === 'whole';
    const value = this.raw(key);
    if (value === null) return null;
    const n = /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
    if (!(n > 0 && n <= form.max) || (integer && !Number.isInteger(n))) {
      this.problem(
        key,
        value,
        `must be a ${integer ? 'whole ' : ''}number above 0 and at most ${form.max}`,
        'ignoring it',
      );
      return null;
    }
    return n;
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
          `each entry must be START=${unit} (epoch seconds = 0..${max})`,
          'ignoring this one',
        );
        continue;
      }
      entries.push([start, n]);
    }
    return entries.sort((a, b) => a[0] - b[0]);
  }

  /** One of the declared choices, any case; anything else is the default. */
  oneOf<K extends ChoiceSetting>(key: K): ChoiceOf<K> {
    const d = declared[key];
    const allowed: readonly string[] = d.form.values;
    const fallback = d.default as ChoiceOf<K>;
    const value = this.raw(key);
    if (value === null) return fallback;
    const found = allowed.find((a) => a.toLowerCase() === value.toLowerCase());
    if (found === undefined) {
      this.problem(key, value, `must be one of ${allowed.join(', ')}`, `using ${fallback}`);
      return fallback;
    }
    return found as ChoiceOf<K>;
  }
}
