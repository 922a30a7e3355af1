// Priority lanes (docs/lanes.md): `lanes` declares a room's lanes and each one's share of the room's
// admissions, `lane_names` the name a page shows for each, and the controller's `lane_schedule` each
// lane's chance by window. Each problem names its key, as config.ts's do.
import type { Reader } from './config-reader.js';
import type { Config, Lane, ScheduleEntry } from '../types.js';

/** The lane of every visitor without a lane invitation: it gets the share the declared lanes leave. */
export const GENERAL_LANE = 'general';
/** At most this many declared lanes (the general one besides): their schedules fit `room.ID.live`. */
export const MAX_LANES = 5;
/** A lane id: a room id's alphabet (lower case, digits, `-`, `_`; at most 32 characters). */
export const LANE_ID = /^[a-z0-9](?:[a-z0-9_-]{0,30}[a-z0-9])?$/;

const NO_LANES = 'no lanes: every visitor waits in the general lane';

/** `lanes`: `ID:SHARE,...`, shares of the room's admissions in percent; the whole value or nothing. */
function parseLanes(r: Reader, fifo: boolean, prequeue: boolean): { id: string; share: number }[] {
  const key = 'lanes';
  const value = r.raw(key);
  if (value === null) return [];
  const lanes: { id: string; share: number }[] = [];
  for (const part of value.split(',')) {
    const item = part.trim();
    if (item === '') continue;
    const m = /^([^:]+):(\d{1,3}(?:\.\d{1,2})?)$/.exec(item);
    const id = m?.[1]?.trim() ?? '';
    const share = m ? Number(m[2]) : Number.NaN;
    const why =
      m === null || !LANE_ID.test(id)
        ? `each entry must be LANE:SHARE, a lane id (lower case, digits, - and _) and a percentage (members:30), not "${item.slice(0, 40)}"`
        : id === GENERAL_LANE
          ? `"${GENERAL_LANE}" is the lane of everyone else: it gets what the declared lanes leave`
          : !(share > 0 && share <= 100)
            ? `the share of ${id} must be above 0 and at most 100`
            : lanes.some((l) => l.id === id)
              ? `names ${id} twice`
              : null;
    if (why !== null) {
      r.problem(key, value.slice(0, 60), why, NO_LANES);
      return [];
    }
    lanes.push({ id, share });
  }
  const total = lanes.reduce((s, l) => s + l.share, 0);
  const refused =
    lanes.length > MAX_LANES
      ? `declares ${lanes.length} lanes; at most ${MAX_LANES} (their schedules must fit room.ID.live)`
      : total > 100.000001
        ? `the shares add up to ${Math.round(total * 100) / 100}, over 100`
        : fifo
          ? 'cannot be used with queueing_method=fifo: a place in the first-come line has no lane'
          : prequeue
            ? "cannot be used with event_prequeue_start: the pre-queue's shuffled line has no lanes"
            : null;
  if (refused !== null) {
    r.problem(key, value.slice(0, 60), refused, NO_LANES);
    return [];
  }
  return lanes;
}

/**
 * `lane_names`: `ID:NAME,...`, the name a page shows for a lane (the id when none). A name for a lane
 * `lanes` does not declare is kept for when it does: names can be written before the lanes.
 */
function parseLaneNames(r: Reader): Map<string, string> {
  const key = 'lane_names';
  const names = new Map<string, string>();
  const value = r.raw(key);
  if (value === null) return names;
  for (const part of value.split(',')) {
    const item = part.trim();
    if (item === '') continue;
    const at = item.indexOf(':');
    const id = at < 0 ? '' : item.slice(0, at).trim();
    const name = at < 0 ? '' : item.slice(at + 1).trim();
    if (!LANE_ID.test(id) || name === '' || name.length > 40 || name.includes(':')) {
      r.problem(
        key,
        item.slice(0, 40),
        'each entry must be LANE:NAME, a lane id and a name of 1 to 40 characters without , or :',
        'ignoring this one',
      );
      continue;
    }
    names.set(id, name);
  }
  return names;
}

/** `lane_schedule`: `LANE@START=PCT,...`, each lane's chances by window, for the declared lanes and the general one. */
function parseLaneSchedule(r: Reader, ids: readonly string[], maxEntries: number): Record<string, ScheduleEntry[]> {
  const key = 'lane_schedule';
  const out: Record<string, ScheduleEntry[]> = {};
  const value = r.raw(key);
  if (value === null) return out;
  for (const part of value.split(',')) {
    const item = part.trim();
    if (item === '') continue;
    const m = /^([^@]+)@(\d{1,15})=(\d{1,3}(?:\.\d+)?)$/.exec(item);
    const lane = m?.[1] ?? '';
    const start = m ? Number(m[2]) : Number.NaN;
    const pct = m ? Number(m[3]) : Number.NaN;
    if (!Number.isSafeInteger(start) || !(pct >= 0 && pct <= 100)) {
      r.problem(
        key,
        item.slice(0, 40),
        'each entry must be LANE@START=PCT (epoch seconds = 0..100)',
        'ignoring this one',
      );
      continue;
    }
    // A lane the room no longer declares: its visitors are in the general lane, its entries unused.
    if (lane !== GENERAL_LANE && !ids.includes(lane)) continue;
    (out[lane] ??= []).push({ start, pct });
  }
  for (const lane of Object.keys(out)) {
    const entries = out[lane]!.sort((a, b) => a.start - b.start);
    if (entries.length > maxEntries) out[lane] = entries.slice(-maxEntries);
  }
  return out;
}

/** The lanes' part of a Config. */
export function parseLaneSettings(
  r: Reader,
  fifo: boolean,
  prequeue: boolean,
  maxEntries: number,
): Pick<Config, 'lanes' | 'laneSchedule'> {
  const declaredLanes = parseLanes(r, fifo, prequeue);
  const ids = declaredLanes.map((l) => l.id);
  const names = parseLaneNames(r);
  const lanes: Lane[] = declaredLanes.map((l) => ({ ...l, name: names.get(l.id) ?? l.id }));
  return { lanes, laneSchedule: parseLaneSchedule(r, ids, maxEntries) };
}
