// The controller of a service with several rooms, in the simulator. Until control/ steers every room
// from one stream, each room gets its own controller: the same Controller, model and Writer
// (control.ts), reading and writing that room's settings flat through the room's view of the store
// (service.ts: layout.ts's keys), fed the decision lines that name that room. This file is the seam:
// the multi-room controller replaces it with one SimController over the whole store and every line.
import type { VirtualClock } from './clock.js';
import { SimController, type ControlSpec, type ControlTrace } from './control.js';
import type { CrossRoomCheck } from './cross-room.js';
import type { Room } from './room.js';

export interface RoomControllers {
  /** A decision line a POP logged: it goes to the controller of the room it names. */
  line(pop: number, text: string, nowMs: number): void;
  start(fromMs: number, untilMs: number): void;
  /** What each room's controller did, by room. */
  readonly traces: ReadonlyMap<string, ControlTrace>;
}

export function roomControllers(rooms: ReadonlyMap<string, Room>, clock: VirtualClock, spec: ControlSpec, logDelays: readonly number[], check: CrossRoomCheck): RoomControllers {
  const controllers = new Map([...rooms].map(([id, room]) => [id, new SimController(room, clock, spec, logDelays)] as const));
  return {
    line(pop, text, nowMs) {
      const room = (JSON.parse(text) as { room?: unknown }).room;
      const controller = typeof room === 'string' ? controllers.get(room) : undefined;
      if (controller === undefined) check.figures.linesWithoutRoom++;
      else controller.line(pop, text, nowMs);
    },
    start(fromMs, untilMs) {
      for (const c of controllers.values()) c.start(fromMs, untilMs);
    },
    traces: new Map([...controllers].map(([id, c]) => [id, c.trace] as const)),
  };
}
