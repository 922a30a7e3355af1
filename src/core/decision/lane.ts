// Priority lanes (docs/lanes.md): which lane a visit is in, and the chance a lane's draws use. A lane
// comes from a valid lane invitation, or from the visitor's token, which names it; a lane the room no
// longer declares is no lane. A room with lanes draws each lane at the controller's `lane_schedule`
// entry for the token's window, and at the room's own chance where the schedule says nothing (no
// controller, or none yet): without a controller, lanes change nobody's chance.
import { chanceFor } from './draw.js';
import { GENERAL_LANE, scheduleEntryAt } from '../settings/index.js';
import type { Config, Lane } from '../types.js';
import type { Usable } from './usable-token.js';

/** The room's lane `id`, or null when it declares none of that id. */
export function laneOf(config: Pick<Config, 'lanes'>, id: string | null | undefined): Lane | null {
  if (id === null || id === undefined) return null;
  const { lanes } = config;
  for (let i = 0; i < lanes.length; i++) if (lanes[i]!.id === id) return lanes[i]!;
  return null;
}

/**
 * The lane of a visit: a valid lane invitation's (checked against the room's lanes before it gets
 * here), else the one its token names while the room declares it; null is the general lane.
 */
export function visitLane(
  config: Pick<Config, 'lanes'>,
  inviteLane: string | null,
  usable: Usable | null,
): string | null {
  if (config.lanes.length === 0) return null;
  if (inviteLane !== null) return inviteLane;
  return laneOf(config, usable?.claims.lane)?.id ?? null;
}

/** The chance (0..100) of a draw of lane `lane` (null: the general lane) for the cohort of window `exp`. */
export function laneChance(
  config: Pick<Config, 'allowPercentage' | 'allowSchedule' | 'lanes' | 'laneSchedule'>,
  lane: string | null,
  exp: number,
): number {
  if (config.lanes.length === 0) return chanceFor(config, exp);
  const schedule = config.laneSchedule[lane ?? GENERAL_LANE];
  const entry = schedule === undefined ? null : scheduleEntryAt(schedule, exp);
  return entry?.pct ?? chanceFor(config, exp);
}

/**
 * The settings as a lane's visitor sees them: the lane's schedule in place of the room's, for the
 * page's estimate and the chance it states. The room's own when the lane has no schedule.
 */
export function laneView<C extends Pick<Config, 'allowSchedule' | 'lanes' | 'laneSchedule'>>(
  config: C,
  lane: string | null,
): C {
  if (config.lanes.length === 0) return config;
  const schedule = config.laneSchedule[lane ?? GENERAL_LANE];
  return schedule === undefined || schedule.length === 0 ? config : { ...config, allowSchedule: schedule };
}
