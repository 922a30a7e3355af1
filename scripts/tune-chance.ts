// The chance a room's draws use now, and where it comes from, for `npm run tune`: the edge's own
// choice (src/core/decision/chance-now.ts, as the start banner and the JSON answer read it), so the tool and
// the room cannot disagree. A controller's schedule is told in times of day: the
// entry in force, when the schedule was written, and when it falls to its last entry, the fallback.
import { chanceNow } from '../src/core/decision/index.js';
import { CONTROLLER_KEY, liveKey, SETTINGS_KEY } from '../src/core/settings/index.js';
import type { Config } from '../src/core/types.js';
import { DEFAULT_LEASE_SECONDS, parseBeat } from '../control/failover/index.js';
import type { StoreData } from '../lib/json-store.js';
import { roomSettings, settingSources } from '../lib/room-store.js';
import { timeOfDay } from './tune-clock.js';
import { LOCAL_TUNE, scopeLabel } from './tune-scope.js';

/** `2.39%`, `0.125%`: two decimals, more below 1%. */
const percent = (p: number): string => `${Number(p >= 1 ? p.toFixed(2) : p.toPrecision(3))}%`;

/** `room shop's own allow_percentage (room.shop.allow_percentage)`, `the service-wide allow_percentage (settings)`. */
function percentageSource(from: string | undefined): string {
  if (from === undefined) return 'allow_percentage, unset (everyone in)';
  return `${from === SETTINGS_KEY ? 'the service-wide' : scopeLabel(from)} allow_percentage (${from})`;
}

/**
 * When the controller wrote a schedule: its last entry sits at the first window a lease and a margin
 * (a minute, or a window when longer) after the write (control/failover/failover.ts), so the write was that
 * long before it, to within a window. The lease is the heartbeat's, else the controller's default.
 */
function writtenAbout(lastStart: number, d: number, store: StoreData): number {
  const lease = parseBeat(store[CONTROLLER_KEY])?.lease ?? DEFAULT_LEASE_SECONDS;
  return lastStart - lease - Math.max(60, d);
}

/** `chance now: ...` for one room at `nowMs`. */
export function chanceNowLine(store: StoreData, room: string, nowMs: number): string {
  const { config } = roomSettings(store, room);
  const from = settingSources(store, room).allow_percentage;
  const schedule = config.allowSchedule;
  const scheduleKey = settingSources(store, room).allow_schedule ?? liveKey(room);
  const unused = schedule.length > 0 ? "; the controller's schedule is not used" : '';
  const pctText =
    from === undefined
      ? 'allow_percentage'
      : `${from === SETTINGS_KEY ? 'the service-wide' : scopeLabel(from)} allow_percentage`;
  if (config.allowPercentage <= 0)
    return `chance now: none: ${pctText} is 0${from === undefined ? '' : ` (${from})`}, every visitor is turned away${unused}`;
  if (config.queueAll) return `chance now: none: queue_all is true, nobody new is let in${unused}`;
  if (config.allowPercentage >= 100)
    return `chance now: everyone in: ${pctText} is 100${from === undefined ? '' : ` (${from})`}${unused}`;
  if (config.queueingMethod === 'fifo')
    return `chance now: no draw: queueing_method fifo lets visitors in by their place in line (the controller's queue_cursor)`;
  return scheduleText(store, config, nowMs, from, scheduleKey);
}

function scheduleText(
  store: StoreData,
  config: Config,
  nowMs: number,
  from: string | undefined,
  scheduleKey: string,
): string {
  const nowSec = Math.floor(nowMs / 1000);
  const d = config.waitPeriodSeconds;
  // The cohort drawn now, as the edge draws it: the banner and the JSON answer read the same function.
  const { percentage: chance, entryStart } = chanceNow(config, nowSec);
  const schedule = config.allowSchedule;
  const entry = entryStart === null ? null : schedule.find((e) => e.start === entryStart)!;
  const at = (sec: number, seconds = true): string => timeOfDay(sec, nowSec, seconds);
  if (entry === null) {
    const starts =
      schedule.length === 0 ? '' : `; the controller's schedule (${scheduleKey}) starts ${at(schedule[0]!.start)}`;
    return `chance now: ${percent(chance)}, ${percentageSource(from)}${starts}`;
  }
  const last = schedule[schedule.length - 1]!;
  const written = `the controller's schedule (${scheduleKey}) written about ${at(writtenAbout(last.start, d, store), false)}`;
  const fallback = config.control.fallbackPercentage !== null && config.control.fallbackPercentage === last.pct;
  if (entry === last && schedule.length > 1) {
    const back = `${LOCAL_TUNE} allow_schedule= (then ${percentageSource(from).replace(/ \([^)]*\)$/, '')}, ${percent(config.allowPercentage)})`;
    return `chance now: ${percent(chance)}, the last entry of ${written}, which ended ${at(last.start)}: the room stays on it${fallback ? ' (fallback_percentage)' : ''} until it is cleared: ${back}`;
  }
  const falls = fallback
    ? `fallback_percentage ${percent(last.pct)}`
    : config.control.fallbackPercentage === null
      ? `${percent(last.pct)}, the lowest chance of its forecast (fallback_percentage is unset)`
      : `${percent(last.pct)}, its last entry`;
  return `chance now: ${percent(chance)}, from ${written}: the entry for ${at(entry.start)}; it ends ${at(last.start)}, then falls to ${falls}`;
}
