// The figures of a run of several rooms: each room's as a room alone's (figures.ts, with its own
// controller's figures against its own target), the scheduled event's effect room by room, and the
// cross-room check.
import { eventStartMs } from './event-figures.js';
import type { EventEffect, RoomsFigures, ScenarioFigures } from './figure-types.js';
import type { RoomsRun, RunResult } from './run-types.js';

function beforeStart(result: RunResult, startMs: number): { admittedBefore: number; countdownAnswers: number } {
  const r = result.trace.reasons;
  return {
    admittedBefore: result.trace.admissionsMs.filter((t) => t < startMs).length,
    countdownAnswers: (r.get('prequeue_joined') ?? 0) + (r.get('prequeue_waiting') ?? 0),
  };
}

export function roomsFigures(run: RoomsRun, compute: (result: RunResult) => ScenarioFigures): RoomsFigures {
  const rooms = run.rooms.map(({ id, result }) => {
    const target = result.scenario.settings.new_users_per_minute;
    return { id, target: target === undefined ? null : Number(target), figures: compute(result) };
  });
  const withEvent = run.rooms.find((r) => eventStartMs(r.result.scenario.settings) !== null);
  let event: EventEffect | null = null;
  if (withEvent) {
    const startMs = eventStartMs(withEvent.result.scenario.settings)!;
    event = {
      room: withEvent.id,
      startMs,
      ...beforeStart(withEvent.result, startMs),
      others: run.rooms.filter((r) => r !== withEvent).map((r) => ({ room: r.id, ...beforeStart(r.result, startMs) })),
    };
  }
  return { rooms, event, crossRoom: run.crossRoom, routing: run.routing };
}
