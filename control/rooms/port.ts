// What the controller asks of its rooms (control/rooms/room-set.ts): lines in, the store's settings in, each
// room's writes out, and the dashboard's view. The rooms run either in the controller's own thread
// (room-set.ts: the simulator, tests, `npm run control -- --in-thread`) or in a worker thread
// (worker-rooms.ts: `npm run control`), so that a plan over millions of tickets never stops the
// event loop that reads the log, answers the dashboard and writes the store.
import type { RoomsJson } from './rooms-json.js';
import type { DecisionLine, PlanContext, RoomView, SettingWrites } from '../types.js';

export interface RoomsPort {
  /**
   * One decision line, in the order the source gave them; `text`, the line as the source gave it,
   * when there is one: the planner thread is sent the text rather than the parsed line (a string is
   * copied to another thread at a fraction of an object's cost) and parses it again.
   */
  observe(line: DecisionLine, text?: string): void;
  /** The store's values as read (every room's model gets its own merged settings). */
  settings(values: Readonly<Record<string, string>>, nowMs: number): void;
  /** Each room's writes now (rooms with nothing to write are left out), after every line observed so far. */
  plan(nowMs: number, ctx: PlanContext): Promise<Map<string, SettingWrites>> | Map<string, SettingWrites>;
  /** What the writer wrote for a room (ok or not). */
  written(room: string, writes: SettingWrites, ok: boolean, nowMs: number): void;
  /** Every room's view; in a worker, the one that came with the last plan's answer. */
  snapshot(nowMs: number): RoomView[];
  /** Lines no room decided, by reason. */
  readonly unrouted: Readonly<Record<string, number>>;
  /**
   * Why the rooms cannot plan now (the worker thread died or its plan failed), or null: the
   * controller holds while it is set, and says so.
   */
  readonly failure: string | null;
  /**
   * Every room's model's saved state, by room, for the state file: in this thread, as of now; from the
   * planner thread, as of this tick's plan (JSON text), or null when this tick's plan did not bring it.
   */
  saved(): Record<string, unknown> | RoomsJson | null;
  /** The rooms' state after every line observed so far, when it comes from another thread (shutdown's last save). */
  saveNow?(): Promise<RoomsJson | null>;
  /** True when saved() is as of the plan (the planner thread): the POP times saved with it are taken just before the plan. */
  readonly savedAtPlan?: boolean;
  /** Stops the worker thread, if any. */
  close?(): Promise<void>;
}
