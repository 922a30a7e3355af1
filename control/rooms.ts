// Every room the controller steers, each with its own control model. A room appears when the routing
// in the store names it (no routing: the one room `default`) or when a decision line names it; it is
// never dropped (its model keeps its view). A store value of a room the routing does not name is
// left alone: no request reaches that room.
// Each model reads its room's settings merged as the edge merges them (src/core/layout.ts), and
// plans in its room's own settings' names; the writer turns them into store keys.
import { parseRouting } from '../src/core/routing.js';
import { DEFAULT_ROOM, mergeRoomSettings, readRoomRaws, ROUTING_KEY } from '../src/core/layout.js';
import { describeProblem } from '../src/core/config.js';
import type { ConfigProblem } from '../src/core/types.js';
import type { ControlModel, DecisionLine, RoomView, SettingWrites } from './types.js';

/** The rooms the store's routing names (without routing, the one room `default`; an unusable one names none). */
export function roomsInStore(values: Readonly<Record<string, string>>): string[] {
  const routing = Object.hasOwn(values, ROUTING_KEY) ? values[ROUTING_KEY]! : null;
  return [...new Set(parseRouting(routing).routing?.roomIds ?? [])];
}

export class Rooms {
  private readonly models = new Map<string, { model: ControlModel; lines: number }>();
  /** Lines no room decided, by reason: they are counted, never fed to a model. */
  readonly unrouted: Record<string, number> = {};
  private values: Readonly<Record<string, string>> | null = null;
  private valuesMs = 0;
  private readonly told = new Set<string>();

  constructor(
    private readonly createModel: (room: string) => ControlModel,
    private readonly log: (message: string) => void,
  ) {}

  get ids(): string[] {
    return [...this.models.keys()];
  }

  private room(id: string, nowMs: number): { model: ControlModel; lines: number } {
    let r = this.models.get(id);
    if (r === undefined) {
      r = { model: this.createModel(id), lines: 0 };
      this.models.set(id, r);
      // A room first seen in a line gets the settings read last, so its targets apply at once.
      if (this.values !== null) this.settingsOf(id, r.model, this.values, Math.max(nowMs, this.valuesMs));
    }
    return r;
  }

  private settingsOf(id: string, model: ControlModel, values: Readonly<Record<string, string>>, nowMs: number): void {
    const problems: ConfigProblem[] = [];
    const merged = mergeRoomSettings(id, readRoomRaws((k) => (Object.hasOwn(values, k) ? values[k]! : null), id), problems);
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
    for (const id of roomsInStore(values)) this.room(id, nowMs);
    for (const [id, r] of this.models) this.settingsOf(id, r.model, values, nowMs);
  }

  observe(line: DecisionLine): void {
    if (line.room === null) {
      this.unrouted[line.reason] = (this.unrouted[line.reason] ?? 0) + 1;
      return;
    }
    const r = this.room(line.room, line.tsMs);
    r.lines++;
    r.model.observe(line);
  }

  /** Each room's writes now (rooms with nothing to write are left out). */
  plan(nowMs: number, holding: boolean): Map<string, SettingWrites> {
    const plans = new Map<string, SettingWrites>();
    for (const [id, r] of this.models) {
      const writes = r.model.plan(nowMs, holding);
      if (writes !== null && Object.keys(writes).length > 0) plans.set(id, writes);
    }
    return plans;
  }

  written(id: string, values: SettingWrites, ok: boolean, nowMs: number): void {
    this.models.get(id)?.model.written(values, ok, nowMs);
  }

  snapshot(nowMs: number): RoomView[] {
    // Before any room is known (no store read yet, no line), the one default room stands for the service.
    if (this.models.size === 0) this.room(DEFAULT_ROOM, nowMs);
    // The routing's order, then rooms only lines named, as they appeared.
    const listed = this.values === null ? [] : roomsInStore(this.values);
    const order = [...listed.filter((id) => this.models.has(id)), ...this.ids.filter((id) => !listed.includes(id))];
    return order.map((id) => {
      const r = this.models.get(id)!;
      return { id, model: r.model.snapshot(nowMs), lines: r.lines };
    });
  }
}
