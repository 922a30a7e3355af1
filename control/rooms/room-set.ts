// Every room the controller steers, each with its own control model. A room appears when the routing
// in the store names it (no routing: the one room `default`) or when a decision line names it; it is
// never dropped (its model keeps its view). Only the rooms the routing names are steered: a room
// known only from lines (one the routing no longer names, or an id in a forged line) is observed on
// the dashboard and never written, so it spends neither the write budget nor the store's items, and
// at most MAX_LINE_ONLY_ROOMS of them are kept.
// Each model reads its room's settings merged as the edge merges them (src/core/layout.ts), and
// plans in its room's own settings' names; the writer turns them into store keys.
import { DEFAULT_ROOM, describeProblem } from '../../src/core/settings/index.js';
import { mergedSettings, storeRooms } from '../../lib/room-store.js';
import type { ConfigProblem } from '../../src/core/types.js';
import type { RoomsPort } from './port.js';
import type { ControlModel, DecisionLine, PlanContext, RoomView, SettingWrites } from '../types.js';

/** Rooms known only from lines that the controller keeps a model for; lines naming others are dropped. */
export const MAX_LINE_ONLY_ROOMS = 50;

const LINE_ONLY_WHY = 'the routing does not name this room: observed only, never written';

export class Rooms implements RoomsPort {
  /** Why the last plan failed (a model threw), or null: the controller holds while it is set, and goes on. */
  failure: string | null = null;
  /** What the failed plan threw (the planner thread passes it on whole). */
  planError: unknown = null;
  private readonly models = new Map<string, { model: ControlModel; lines: number }>();
  /** Lines no room decided, by reason: they are counted, never fed to a model. */
  readonly unrouted: Record<string, number> = {};
  private values: Readonly<Record<string, string>> | null = null;
  private valuesMs = 0;
  private readonly told = new Set<string>();
  /** The rooms the store's routing names, as last read: the only ones written (none before a read). */
  private steered = new Set<string>();
  /** Lines naming a room past the cap of line-only rooms: fed to no model. */
  untrackedLines = 0;

  constructor(
    private readonly createModel: (room: string) => ControlModel,
    private readonly log: (message: string) => void,
    /** Models restored from the state file, by room: there from the start, so every save keeps them. */
    restored: Readonly<Record<string, ControlModel>> = {},
  ) {
    for (const [id, model] of Object.entries(restored)) this.models.set(id, { model, lines: 0 });
  }

  get ids(): string[] {
    return [...this.models.keys()];
  }

  private room(id: string, nowMs: number): { model: ControlModel; lines: number } | null {
    let r = this.models.get(id);
    if (r === undefined) {
      // Before the first read every room is line-only: the cap waits for the routing.
      if (this.values !== null && !this.steered.has(id) && this.lineOnly().length >= MAX_LINE_ONLY_ROOMS) {
        if (this.untrackedLines === 0) {
          this.log(
            `decision lines name more than ${MAX_LINE_ONLY_ROOMS} rooms the routing does not name (the first left out: ${id}); their lines are left out. Check the routing (npm run tune -- --show) and what writes to the log`,
          );
        }
        this.untrackedLines++;
        return null;
      }
      r = { model: this.createModel(id), lines: 0 };
      this.models.set(id, r);
      // A room first seen in a line gets the settings read last, so its targets apply at once.
      if (this.values !== null) this.settingsOf(id, r.model, this.values, Math.max(nowMs, this.valuesMs));
    }
    return r;
  }

  private settingsOf(id: string, model: ControlModel, values: Readonly<Record<string, string>>, nowMs: number): void {
    const problems: ConfigProblem[] = [];
    const merged = mergedSettings(values, id, problems);
    for (const p of problems) {
      const text = `room ${id}: ${describeProblem(p)}`;
      if (!this.told.has(text)) this.log(text);
      this.told.add(text);
    }
    model.settings(merged.values, nowMs);
  }

  /** The store's values as read: every room it names is created, and every room's model gets its own merged settings. */
  settings(values: Readonly<Record<string, string>>, nowMs: number): void {
    this.values = values;
    this.valuesMs = nowMs;
    this.steered = new Set(storeRooms(values));
    for (const id of this.steered) this.room(id, nowMs);
    for (const [id, r] of this.models) this.settingsOf(id, r.model, values, nowMs);
  }

  observe(line: DecisionLine): void {
    if (line.room === null) {
      this.unrouted[line.reason] = (this.unrouted[line.reason] ?? 0) + 1;
      // The origin is every room's: its time on a bypassed request counts for each room's autopilot.
      if (line.originStatus !== undefined) for (const r of this.models.values()) r.model.observeOrigin(line);
      return;
    }
    const r = this.room(line.room, line.tsMs);
    if (r === null) return;
    r.lines++;
    r.model.observe(line);
  }

  /** Each room's writes now (rooms with nothing to write are left out). */
  plan(nowMs: number, ctx: PlanContext): Map<string, SettingWrites> {
    const plans = new Map<string, SettingWrites>();
    try {
      for (const [id, r] of this.models) {
        // A room the routing does not name plans as if holding: its view ages, nothing is written.
        const steered = this.steered.has(id);
        const writes = r.model.plan(nowMs, { ...ctx, holding: ctx.holding || !steered });
        if (!steered) continue;
        if (writes !== null && Object.keys(writes).length > 0) plans.set(id, writes);
      }
    } catch (error) {
      // A model that throws writes nothing: the controller holds and says why, and tries again next tick.
      this.planError = error;
      this.failure = `a plan failed (${String((error as Error)?.message ?? error).split('\n')[0]}): the controller holds until a plan succeeds`;
      return new Map();
    }
    this.failure = null;
    this.planError = null;
    return plans;
  }

  /** Each room's model as its save() gives it (null: a model without one), for the state file. */
  saved(): Record<string, unknown> {
    return Object.fromEntries([...this.models].map(([id, r]) => [id, r.model.save?.() ?? null]));
  }

  written(id: string, values: SettingWrites, ok: boolean, nowMs: number): void {
    this.models.get(id)?.model.written(values, ok, nowMs);
  }

  snapshot(nowMs: number): RoomView[] {
    // Before any room is known (no store read yet, no line), the one default room stands for the
    // service: a model made for the view alone, not kept (the routing may name no such room).
    if (this.models.size === 0)
      return [{ id: DEFAULT_ROOM, model: this.createModel(DEFAULT_ROOM).snapshot(nowMs), lines: 0 }];
    const lineOnly = new Set(this.values === null ? [] : this.lineOnly());
    // The routing's order (the steered rooms were read from it in that order), then rooms only lines named, as they appeared.
    const listed = this.values === null ? [] : [...this.steered];
    const order = [...listed.filter((id) => this.models.has(id)), ...this.ids.filter((id) => !listed.includes(id))];
    return order.map((id) => {
      const r = this.models.get(id)!;
      const model = r.model.snapshot(nowMs);
      return {
        id,
        model: lineOnly.has(id) ? { ...model, mode: 'observing' as const, why: LINE_ONLY_WHY } : model,
        lines: r.lines,
      };
    });
  }

  /** Rooms with a model that the routing, as last read, does not name. */
  private lineOnly(): string[] {
    return this.ids.filter((id) => !this.steered.has(id));
  }
}

/** The saved rooms' models, made (restored) now, so one that cannot be read fails the start. */
export function restoredModels(
  restore: Readonly<Record<string, unknown>>,
  make: (room: string, saved: unknown) => ControlModel,
): Record<string, ControlModel> {
  return Object.fromEntries(Object.entries(restore).map(([id, saved]) => [id, make(id, saved)]));
}
