// Priority lanes in the report (docs/lanes.md): each room's admissions by lane, minute by minute, from
// the decision lines' `lane` (absent: the general lane), against each lane's share as the controller's
// journal says the room declared it (`lanes`).
import { GENERAL_LANE } from '../src/core/settings/index.js';

/** Room -> minute start (ms) -> lane -> admissions. */
export type LaneAdmissions = Map<string, Map<number, Map<string, number>>>;

/** Counts one admission of `lane` (undefined: the general lane) in `room` at `minute`. */
export function countLaneAdmission(
  tally: LaneAdmissions,
  room: string,
  minute: number,
  lane: string | undefined,
): void {
  let byMinute = tally.get(room);
  if (byMinute === undefined) tally.set(room, (byMinute = new Map()));
  let byLane = byMinute.get(minute);
  if (byLane === undefined) byMinute.set(minute, (byLane = new Map()));
  const id = lane ?? GENERAL_LANE;
  byLane.set(id, (byLane.get(id) ?? 0) + 1);
}

/** A room's lanes in the report: each lane's share (null: unknown) and admissions, and each minute's. */
export interface RoomLanes {
  lanes: { id: string; share: number | null; admissions: number }[];
  minutes: { startMs: number; admissions: number; byLane: Record<string, number> }[];
}

/** `members:30,presale:20` into its lanes' shares, the general lane the rest (the journal's `lanes`). */
export function laneShares(text: string | undefined): Map<string, number> {
  const shares = new Map<string, number>();
  if (text === undefined) return shares;
  for (const entry of text.split(',')) {
    const m = /^\s*([a-z0-9_-]+)\s*:\s*(\d+(?:\.\d+)?)\s*$/.exec(entry);
    if (m !== null) shares.set(m[1]!, Number(m[2]));
  }
  if (shares.size > 0) shares.set(GENERAL_LANE, Math.max(0, 100 - [...shares.values()].reduce((s, x) => s + x, 0)));
  return shares;
}

/** The room's lanes over `span` (minute starts), or null when no admission of the log named a lane. */
export function roomLanes(
  byMinute: ReadonlyMap<number, ReadonlyMap<string, number>> | undefined,
  span: readonly number[],
  declared: string | undefined,
): RoomLanes | null {
  if (byMinute === undefined) return null;
  const shares = laneShares(declared);
  const ids = new Set<string>(shares.keys());
  for (const byLane of byMinute.values()) for (const id of byLane.keys()) ids.add(id);
  if ([...ids].every((id) => id === GENERAL_LANE)) return null;
  ids.add(GENERAL_LANE);
  // The declared lanes in their order, then any other the lines named, the general lane last.
  const order = [...ids].sort(
    (a, b) =>
      Number(a === GENERAL_LANE) - Number(b === GENERAL_LANE) || Number(!shares.has(a)) - Number(!shares.has(b)),
  );
  const minutes = span.map((startMs) => {
    const byLane: Record<string, number> = {};
    for (const id of order) byLane[id] = byMinute.get(startMs)?.get(id) ?? 0;
    return { startMs, admissions: Object.values(byLane).reduce((s, x) => s + x, 0), byLane };
  });
  return {
    lanes: order.map((id) => ({
      id,
      share: shares.get(id) ?? null,
      admissions: minutes.reduce((s, m) => s + m.byLane[id]!, 0),
    })),
    minutes,
  };
}

const percent = (part: number, whole: number): string => (whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)}%`);

/** The lanes' words and table for a room's section, or null without lanes. */
export function lanesText(
  lanes: RoomLanes | null,
  hhmm: (ms: number) => string,
): { summary: string; caption: string; head: string[]; rows: string[][] } | null {
  if (lanes === null) return null;
  const total = lanes.lanes.reduce((s, l) => s + l.admissions, 0);
  const summary = `Admissions by lane: ${lanes.lanes
    .map(
      (l) =>
        `${l.id} ${l.admissions.toLocaleString('en-US')} (${percent(l.admissions, total)}${l.share === null ? '' : ` against a share of ${l.share}%`})`,
    )
    .join(', ')}. A lane with fewer visitors than its share takes what it can and leaves the rest to the others.`;
  return {
    summary,
    caption: 'Admissions by lane, minute by minute (the share of the minute, and the lane share set)',
    head: ['minute (UTC)', 'admitted', ...lanes.lanes.map((l) => (l.share === null ? l.id : `${l.id} (${l.share}%)`))],
    rows: lanes.minutes
      .filter((m) => m.admissions > 0)
      .map((m) => [
        hhmm(m.startMs),
        m.admissions.toLocaleString('en-US'),
        ...lanes.lanes.map((l) => `${m.byLane[l.id]!} (${percent(m.byLane[l.id]!, m.admissions)})`),
      ]),
  };
}
