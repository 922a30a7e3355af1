// The autopilot's settings (docs/control/auto.md): `target_mode`, the floor under the rate it chooses
// (`auto_floor_per_minute`; the ceiling is `new_users_per_minute`) and the origin's objective
// (`origin_latency_ms` at `origin_latency_percentile`, `origin_error_percent`). Read only by the
// controller; each problem names its key, as config.ts's do.
import type { Reader } from './config-reader.js';
import { declared } from './declared.js';
import type { PaceSettings } from '../types.js';

const NUMBER = /^(\d+(\.\d*)?|\.\d+)$/;

/** A decimal number from the declared least (above it when so declared) to the declared most; unusable: the default. */
function ranged(r: Reader, key: 'origin_latency_percentile' | 'origin_error_percent'): number {
  const { form, default: fallback } = declared[key];
  const value = r.raw(key);
  if (value === null) return Number(fallback);
  const n = NUMBER.test(value) ? Number(value) : Number.NaN;
  if (!(form.above ? n > form.min : n >= form.min) || !(n <= form.max)) {
    const least = form.above ? `above ${form.min}` : `at least ${form.min}`;
    r.problem(key, value, `must be a number ${least} and at most ${form.max}`, `using ${fallback}`);
    return Number(fallback);
  }
  return n;
}

/** The autopilot's part of ControlTargets; `ceiling` is new_users_per_minute as read (null: unset). */
export function parsePaceSettings(r: Reader, ceiling: number | null): PaceSettings {
  const mode = r.oneOf('target_mode');
  let floor = r.positive('auto_floor_per_minute');
  if (floor !== null && ceiling !== null && floor > ceiling) {
    r.problem(
      'auto_floor_per_minute',
      String(floor),
      `is above new_users_per_minute (${ceiling}), the ceiling`,
      'using a tenth of the ceiling',
    );
    floor = null;
  }
  const latencyMs = r.positive('origin_latency_ms') ?? Number(declared.origin_latency_ms.default);
  return {
    mode,
    floorPerMinute: floor,
    objective: {
      latencyMs,
      percentile: ranged(r, 'origin_latency_percentile'),
      errorShare: ranged(r, 'origin_error_percent') / 100,
    },
  };
}
