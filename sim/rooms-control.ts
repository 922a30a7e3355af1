// The controller of a service with several rooms, in the simulator, as `npm run control` runs it:
// ONE Controller over the whole store (service.ts's central store, in layout.ts's keys) and the one
// stream of decision lines, one model per room, every room's writes in one call within the write
// budget. The store the edge reads changes only through that controller's own Writer
// (`room.ID.allow_percentage`, `room.ID.live`), never through a room's flat view.
import type { VirtualClock } from './clock.js';
import { SimController, type ControlSpec, type ControlTrace } from './control.js';
import type { CrossRoomCheck } from './cross-room.js';
import type { Service } from './service.js';

export interface RoomControllers {
  /** A decision line a POP logged: it goes to the one controller, which gives it to the room it names. */
  line(pop: number, text: string, nowMs: number): void;
  start(fromMs: number, untilMs: number): void;
  /** After the run: the lines the controller could give no room it steers go into the cross-room check. */
  finish(): void;
  /** What the controller did for each room, by room. */
  readonly traces: ReadonlyMap<string, ControlTrace>;
}

export function roomControllers(
  service: Service,
  rooms: readonly string[],
  clock: VirtualClock,
  spec: ControlSpec,
  logDelays: readonly number[],
  check: CrossRoomCheck,
): RoomControllers {
  const controller = new SimController(
    { read: () => service.central(), write: (stored, nowMs) => service.publish(stored, nowMs) },
    clock,
    spec,
    logDelays,
    rooms,
  );
  return {
    line: (pop, text, nowMs) => controller.line(pop, text, nowMs),
    start: (fromMs, untilMs) => controller.start(fromMs, untilMs),
    finish() {
      // The controller's own counts, as of its last tick: lines of no room, and of a room the routing does not name.
      const known = new Set(rooms);
      const others = [...controller.roomLines].filter(([id]) => !known.has(id)).reduce((s, [, n]) => s + n, 0);
      check.figures.linesWithoutRoom = controller.unrouted + others;
    },
    traces: controller.traces,
  };
}
