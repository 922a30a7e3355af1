// The controller's rooms in a worker thread (planner-thread.ts), as the controller's thread sees them:
// it implements the same RoomsPort as the in-thread Rooms. Lines are batched (every BATCH_MS or
// BATCH_LINES lines, whichever first) and sent in order with the settings, plans and writes; a plan
// is answered with the writes and the rooms' view, which snapshot() returns until the next answer.
// The controller's thread never waits on a plan: it awaits the answer while its event loop goes on.
//
// A planner thread that dies (an uncaught error, out of memory) or does not answer a plan within
// planTimeoutMs sets `failure`: the controller holds, writes nothing, and says so; it never crashes.
import type { Worker } from 'node:worker_threads';
import { startTsWorker } from '../../lib/ts-worker.js';
import type { FromPlanner, PlannerData, PlannerView, ToPlanner } from './planner-thread.js';
import type { RoomsPort } from './port.js';
import { RoomsJson } from './rooms-json.js';
import type { DecisionLine, PlanContext, RoomView, SettingWrites } from '../types.js';

/** Lines wait at most this long (ms) before they go to the planner thread... */
export const BATCH_MS = 50;
/** ...or until this many have come. */
export const BATCH_LINES = 2_000;

export interface WorkerRoomsOptions {
  /** The model's options, as data (createControlModel's). */
  modelOptions?: unknown;
  /** Another model (tests): the URL of its module and the export that makes one from modelOptions. */
  modelModule?: URL;
  modelExport?: string;
  /** Saved models by room (the state file, after a restart): restored in the planner thread at its start. */
  restore?: Record<string, unknown>;
  log: (message: string) => void;
  /** A plan not answered within this many ms: the controller holds (default 30 s). */
  planTimeoutMs?: number;
}

const RESTART =
  'restart the controller (the same npm run control command), or add --in-thread to plan in its own thread';

interface Pending {
  resolve: (plans: Map<string, SettingWrites>) => void;
  timer: NodeJS.Timeout;
}

export class WorkerRooms implements RoomsPort {
  private view: PlannerView;
  private batch: (string | DecisionLine)[] = [];
  private batchTimer: NodeJS.Timeout | null = null;
  private readonly pending = new Map<number, Pending>();
  private readonly saving = new Map<number, (text: string) => void>();
  private nextId = 1;
  private dead: string | null = null;
  private planProblem: string | null = null;
  private closing = false;
  /** The rooms' saved state that came with this tick's plan, as JSON text; null: none came with it. */
  private lastSaved: string | null = null;
  /** The models' state is as of the plan, not of the save: the controller takes the POP times then. */
  readonly savedAtPlan = true;
  /** The state file asked for the rooms' state: the next plan brings it. */
  private saveWanted = true;
  /** How long the last plan took in the planner thread, ms; null before the first. */
  lastPlanMs: number | null = null;

  private constructor(
    private readonly worker: Worker,
    ready: PlannerView,
    private readonly o: WorkerRoomsOptions,
  ) {
    this.view = ready;
    worker.on('message', (m: FromPlanner) => this.answer(m));
    worker.on('error', (error) => this.died(`the planner thread failed: ${error.message}`));
    worker.on('exit', (code) => this.died(`the planner thread stopped (exit code ${code})`));
  }

  /** Starts the planner thread; resolves once its rooms are ready, rejects if it cannot start. */
  static start(o: WorkerRoomsOptions): Promise<WorkerRooms> {
    const data: PlannerData = {
      modelModule: (o.modelModule ?? new URL('../model/index.ts', import.meta.url)).href,
      modelExport: o.modelExport ?? 'createControlModel',
      modelOptions: o.modelOptions ?? {},
      ...(o.restore === undefined || Object.keys(o.restore).length === 0 ? {} : { restore: o.restore }),
    };
    const worker = startTsWorker(new URL('./planner-thread.ts', import.meta.url), { workerData: data });
    return new Promise((resolve, reject) => {
      const off = (): void => {
        worker.off('error', onError).off('exit', onExit).off('message', onMessage);
      };
      const onError = (error: Error): void => {
        off();
        void worker.terminate();
        reject(new Error(`the planner thread did not start: ${error.message}`));
      };
      const onExit = (code: number): void => {
        off();
        reject(new Error(`the planner thread did not start (exit code ${code})`));
      };
      const onMessage = (m: FromPlanner): void => {
        if (m.t === 'log') return o.log(m.message);
        if (m.t !== 'ready') return;
        // The rooms' own listeners go on before these go off, so no message falls between them.
        const rooms = new WorkerRooms(worker, m.view, o);
        off();
        // The controller's timers and servers keep the process alive; a caller that stops before close() is not held by the thread.
        worker.unref();
        resolve(rooms);
      };
      worker.on('error', onError).on('exit', onExit).on('message', onMessage);
    });
  }

  get failure(): string | null {
    return this.dead ?? this.planProblem;
  }

  get unrouted(): Readonly<Record<string, number>> {
    return this.view.unrouted;
  }

  observe(line: DecisionLine, text?: string): void {
    if (this.dead !== null) return;
    this.batch.push(text ?? line);
    if (this.batch.length >= BATCH_LINES) this.flush();
    else this.batchTimer ??= setTimeout(() => this.flush(), BATCH_MS);
  }

  settings(values: Readonly<Record<string, string>>, nowMs: number): void {
    this.flush();
    this.send({ t: 'settings', values: { ...values }, nowMs });
  }

  plan(nowMs: number, ctx: PlanContext): Promise<Map<string, SettingWrites>> {
    this.lastSaved = null;
    if (this.dead !== null) return Promise.resolve(new Map());
    this.flush();
    const id = this.nextId++;
    return new Promise((resolve) => {
      const limit = this.o.planTimeoutMs ?? 30_000;
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.planProblem = `the planner thread has not answered a plan for ${Math.round(limit / 100) / 10} s (a plan that long, or lines coming faster than it reads them): ${RESTART}`;
        resolve(new Map());
      }, limit);
      this.pending.set(id, { resolve, timer });
      // The rooms' saved state rides on the answer only when the state file asked for it since.
      this.send({ t: 'plan', id, nowMs, ctx, ...(this.saveWanted ? { save: true } : {}) });
      this.saveWanted = false;
    });
  }

  written(room: string, writes: SettingWrites, ok: boolean, nowMs: number): void {
    this.send({ t: 'written', room, writes, ok, nowMs });
  }

  snapshot(): RoomView[] {
    return this.view.rooms;
  }

  /**
   * The rooms' state that came with this tick's plan, or null when it did not ask for it: then the next
   * plan brings it (the state file waits a tick rather than save models of another moment).
   */
  saved(): RoomsJson | null {
    if (this.lastSaved === null) {
      this.saveWanted = true;
      return null;
    }
    const text = this.lastSaved;
    this.lastSaved = null;
    return new RoomsJson(text);
  }

  /** The rooms' state now, after every line observed so far (shutdown's last save); null if the thread does not answer. */
  saveNow(): Promise<RoomsJson | null> {
    if (this.dead !== null) return Promise.resolve(null);
    this.flush();
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.saving.delete(id);
        resolve(null);
      }, this.o.planTimeoutMs ?? 30_000);
      this.saving.set(id, (text) => {
        clearTimeout(timer);
        resolve(new RoomsJson(text));
      });
      this.send({ t: 'save', id });
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.batchTimer !== null) clearTimeout(this.batchTimer);
    await this.worker.terminate();
  }

  private flush(): void {
    if (this.batchTimer !== null) clearTimeout(this.batchTimer);
    this.batchTimer = null;
    if (this.batch.length === 0) return;
    const lines = this.batch;
    this.batch = [];
    this.send({ t: 'lines', lines });
  }

  private send(message: ToPlanner): void {
    if (this.dead === null) this.worker.postMessage(message);
  }

  private answer(m: FromPlanner): void {
    if (m.t === 'log') return this.o.log(m.message);
    if (m.t === 'ready') return;
    if (m.t === 'saved') {
      this.saving.get(m.id)?.(m.saved);
      this.saving.delete(m.id);
      return;
    }
    this.view = m.view;
    // A late answer (after its timeout) still says the thread is alive, and brings its view.
    if (m.t === 'planned') {
      this.planProblem = null;
      this.lastPlanMs = m.planMs;
      if (m.saved !== undefined && this.pending.has(m.id)) this.lastSaved = m.saved;
    } else {
      this.planProblem = `a plan failed in the planner thread (${m.error.split('\n')[0]}): the controller holds until a plan succeeds`;
    }
    const p = this.pending.get(m.id);
    if (p === undefined) return;
    this.pending.delete(m.id);
    clearTimeout(p.timer);
    p.resolve(m.t === 'planned' ? new Map(m.plans) : new Map());
  }

  private died(why: string): void {
    if (this.closing || this.dead !== null) return;
    this.dead = `${why}: ${RESTART}`;
    this.batch = [];
    if (this.batchTimer !== null) clearTimeout(this.batchTimer);
    this.batchTimer = null;
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.resolve(new Map());
    }
    this.pending.clear();
  }
}
