// The planner thread's entry (worker-rooms.ts starts it): every room and its control model live
// here, so a plan over millions of tickets runs while the controller's own thread goes on reading the
// log, answering the dashboard and writing the store. Messages come in the order the controller sent
// them (lines, settings, plan, written), so a plan sees every line observed before it was asked for.
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { parseLogLine } from '../sources/index.js';
import { restoredModels, Rooms } from './room-set.js';
import type { ControlModel, DecisionLine, PlanContext, RoomView, SettingWrites } from '../types.js';

/** What the planner thread is started with (structured-cloneable). */
export interface PlannerData {
  /** URL of the module that makes a room's model (default: control/model/index.ts). */
  modelModule: string;
  /** Its export: a function of `modelOptions` that returns a new ControlModel. */
  modelExport: string;
  /** The model's options, as data (e.g. { leadSeconds: 25 }). */
  modelOptions: unknown;
  /** Saved models by room (the state file, after a restart): made at once, so one that cannot be read fails the start. */
  restore?: Record<string, unknown>;
}

export type ToPlanner =
  /** Lines as the source gave them (already found to be decision lines), or parsed when there was no text. */
  | { t: 'lines'; lines: (string | DecisionLine)[] }
  | { t: 'settings'; values: Record<string, string>; nowMs: number }
  /** `save`: send the rooms' saved state with the answer (the state file asked for it). */
  | { t: 'plan'; id: number; nowMs: number; ctx: PlanContext; save?: boolean }
  | { t: 'written'; room: string; writes: SettingWrites; ok: boolean; nowMs: number }
  /** The rooms' saved state now, after every line sent before it (shutdown). */
  | { t: 'save'; id: number };

/** The rooms' view as the dashboard reads it. */
export interface PlannerView {
  rooms: RoomView[];
  unrouted: Record<string, number>;
}

export type FromPlanner =
  | { t: 'ready'; view: PlannerView }
  | { t: 'log'; message: string }
  /** `saved`: the rooms' saved models as JSON text, encoded here (a string crosses threads at a fraction of an object's cost). */
  | { t: 'planned'; id: number; plans: [string, SettingWrites][]; view: PlannerView; planMs: number; saved?: string }
  | { t: 'failed'; id: number; error: string; view: PlannerView }
  | { t: 'saved'; id: number; saved: string };

async function main(): Promise<void> {
  const port = parentPort!;
  const data = workerData as PlannerData;
  const module = (await import(data.modelModule)) as Record<string, unknown>;
  const factory = module[data.modelExport];
  if (typeof factory !== 'function') throw new Error(`${data.modelModule} has no function ${data.modelExport}`);
  const send = (message: FromPlanner): void => port.postMessage(message);
  const make = factory as (options: unknown) => ControlModel;
  const options = (data.modelOptions ?? {}) as Record<string, unknown>;
  const restored = restoredModels(data.restore ?? {}, (_id, saved) => make({ ...options, restore: saved }));
  const rooms = new Rooms(
    () => make(options),
    (message) => send({ t: 'log', message }),
    restored,
  );
  let lastNowMs = Date.now();
  const view = (nowMs: number): PlannerView => ({ rooms: rooms.snapshot(nowMs), unrouted: { ...rooms.unrouted } });

  port.on('message', (m: ToPlanner) => {
    switch (m.t) {
      case 'lines':
        for (const line of m.lines) {
          if (typeof line !== 'string') rooms.observe(line);
          else {
            // The controller's thread found it a usable line at its arrival: no clock check again.
            const verdict = parseLogLine(line, Number.POSITIVE_INFINITY);
            if (verdict.kind === 'decision') rooms.observe(verdict.line);
          }
        }
        return;
      case 'settings':
        rooms.settings(m.values, m.nowMs);
        return;
      case 'written':
        rooms.written(m.room, m.writes, m.ok, m.nowMs);
        return;
      case 'save':
        send({ t: 'saved', id: m.id, saved: JSON.stringify(rooms.saved()) });
        return;
      case 'plan': {
        lastNowMs = m.nowMs;
        const started = performance.now();
        try {
          const plans = rooms.plan(m.nowMs, m.ctx);
          if (rooms.planError !== null) throw rooms.planError;
          const planMs = performance.now() - started;
          send({
            t: 'planned',
            id: m.id,
            plans: [...plans],
            view: view(m.nowMs),
            planMs,
            ...(m.save === true ? { saved: JSON.stringify(rooms.saved()) } : {}),
          });
        } catch (error) {
          send({ t: 'failed', id: m.id, error: String((error as Error)?.stack ?? error), view: view(lastNowMs) });
        }
      }
    }
  });
  send({ t: 'ready', view: view(lastNowMs) });
}

// An error here (the model's module missing, a model that throws outside a plan) ends the thread:
// the controller's side sees it and holds.
void main().catch((error: unknown) => {
  throw error;
});
