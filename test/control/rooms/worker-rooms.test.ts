// The controller's rooms in a worker thread: the same plans as in its own thread, an event loop that
// answers while a plan runs, and a planner that dies or hangs making the controller hold, not crash.
import { afterEach, describe, expect, it } from 'vitest';
import { Controller } from '../../../control/controller.js';
import { startDashboard } from '../../../control/dashboard/index.js';
import { createControlModel } from '../../../control/model/index.js';
import type { RoomsPort } from '../../../control/rooms/port.js';
import { WorkerRooms } from '../../../control/rooms/worker-rooms.js';
import { Rooms } from '../../../control/rooms/room-set.js';
import { parseLogLine } from '../../../control/sources/index.js';
import { RoomsJson } from '../../../control/failover/index.js';
import { createOnceFailingModel } from '../fake-models.js';
import { Writer, type Store } from '../../../control/store/index.js';
import { storeFromSettings } from '../../../src/core/settings/index.js';
import { admittedLine } from '../lines.js';

const T0 = Date.UTC(2026, 10, 24, 12);
const SETTINGS = { allow_percentage: '100', new_users_per_minute: '60', wait_period_duration: '30' };
const FAKES = new URL('../fake-models.ts', import.meta.url);

const started: WorkerRooms[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((r) => r.close()));
});

async function workerRooms(options: Partial<Parameters<typeof WorkerRooms.start>[0]> = {}): Promise<WorkerRooms> {
  const rooms = await WorkerRooms.start({ log: () => {}, ...options });
  started.push(rooms);
  return rooms;
}

/** A controller over a fake store holding SETTINGS, with these rooms (default: in its own thread). */
function setup(rooms?: RoomsPort) {
  const values = storeFromSettings(SETTINGS);
  const writes: Record<string, string>[] = [];
  const store: Store = {
    name: 'fake store',
    read: async () => ({ ...values }),
    async write(w) {
      writes.push(w);
      for (const [k, v] of Object.entries(w)) {
        if (v === '') delete values[k];
        else values[k] = v;
      }
    },
  };
  const logs: string[] = [];
  const log = (m: string): void => void logs.push(m);
  const writer = new Writer(store, 20_000, log);
  const controller = new Controller({
    ...(rooms ? { rooms } : { createModel: () => createControlModel() }),
    store,
    writer,
    sourceName: 'test',
    lagLimitMs: 60_000,
    log,
  });
  return { controller, writes, logs };
}

/**
 * An open room admitting 10 a second for 10 s (600 a minute against a target of 60), then one a
 * second for a minute, a tick each second and the dashboard's view after it (as the simulator reads it).
 */
async function run(s: ReturnType<typeof setup>): Promise<void> {
  for (let i = 0; i < 100; i++) s.controller.line(admittedLine(T0 + i * 100, i), T0 + i * 100);
  for (let t = 10; t <= 70; t++) {
    s.controller.line(admittedLine(T0 + t * 1000 - 500, 1000 + t), T0 + t * 1000 - 500);
    await s.controller.tick(T0 + t * 1000);
    s.controller.snapshot(T0 + t * 1000);
  }
}

describe('the rooms in a worker thread', () => {
  it("write what the rooms in the controller's own thread write, for the same lines", async () => {
    const inThread = setup();
    const inWorker = setup(await workerRooms());
    await run(inThread);
    await run(inWorker);
    // The model engaged (a chance below 100 and a schedule): the comparison is not of two silences.
    expect(inThread.writes.length).toBeGreaterThan(1);
    expect(inWorker.writes).toEqual(inThread.writes);
    const view = (s: ReturnType<typeof setup>) => s.controller.snapshot(T0 + 70_000).rooms;
    expect(view(inWorker)).toEqual(view(inThread));
    expect(inWorker.controller.snapshot(T0 + 70_000).holding).toBe(false);
  });

  it('leave the dashboard answering while a plan runs', async () => {
    const gate = new SharedArrayBuffer(8);
    const flags = new Int32Array(gate);
    const s = setup(await workerRooms({ modelModule: FAKES, modelExport: 'createGatedModel', modelOptions: { gate } }));
    const dashboard = await startDashboard(0, () => s.controller.snapshot(T0));
    try {
      s.controller.line(admittedLine(T0, 1), T0);
      let planned = false;
      const tick = s.controller.tick(T0 + 1000).then(() => (planned = true));
      // The plan has started in the planner thread, and waits at its gate: this loop's timers still fire.
      while (Atomics.load(flags, 1) === 0) await new Promise((r) => setTimeout(r, 5));
      const answer = await fetch(`${dashboard.url}api/snapshot`);
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { source: { lines: number } }).source.lines).toBe(1);
      expect(planned).toBe(false);
      Atomics.store(flags, 0, 1);
      Atomics.notify(flags, 0);
      await tick;
      expect(planned).toBe(true);
    } finally {
      Atomics.store(flags, 0, 1);
      Atomics.notify(flags, 0);
      dashboard.server.close();
    }
  });

  it('make the controller hold and say so when the planner thread dies, never crash', async () => {
    const s = setup(await workerRooms({ modelModule: FAKES, modelExport: 'createBrokenModel' }));
    s.controller.line(admittedLine(T0, 1), T0);
    await s.controller.tick(T0 + 1000);
    await s.controller.tick(T0 + 2000);
    const snap = s.controller.snapshot(T0 + 2000);
    expect(snap.holding).toBe(true);
    expect(snap.holdingWhy).toMatch(
      /^the planner thread failed: the model broke on a line: restart the controller .*--in-thread/,
    );
    expect(s.logs).toContain(`holding, writing nothing: ${snap.holdingWhy}`);
    // Lines go on arriving and being counted; nothing is written.
    s.controller.line(admittedLine(T0 + 2500, 2), T0 + 2500);
    await s.controller.tick(T0 + 3000);
    expect(s.controller.snapshot(T0 + 3000).source.lines).toBe(2);
    expect(s.writes).toEqual([]);
  });

  it('make the controller hold while a plan fails, and go on once one succeeds', async () => {
    const s = setup(await workerRooms({ modelModule: FAKES, modelExport: 'createOnceFailingModel' }));
    await s.controller.tick(T0 + 1000);
    await s.controller.tick(T0 + 2000);
    expect(s.logs).toContain(
      'holding, writing nothing: a plan failed in the planner thread (Error: the plan broke once): the controller holds until a plan succeeds',
    );
    await s.controller.tick(T0 + 3000);
    expect(s.controller.snapshot(T0 + 3000).holding).toBe(false);
    expect(s.logs).toContain('the view is current again: controlling');
  });

  it('make the controller hold while a plan fails in its own thread too (--in-thread), and go on', async () => {
    const s = setup(
      new Rooms(
        () => createOnceFailingModel(),
        () => {},
      ),
    );
    await s.controller.tick(T0 + 1000);
    await s.controller.tick(T0 + 2000);
    expect(s.logs).toContain(
      'holding, writing nothing: a plan failed (the plan broke once): the controller holds until a plan succeeds',
    );
    await s.controller.tick(T0 + 3000);
    expect(s.controller.snapshot(T0 + 3000).holding).toBe(false);
  });

  it("give the rooms' saved state only as of this tick's plan, restored rooms included, else none (the next plan brings it)", async () => {
    const shop = createControlModel().save();
    const rooms = await workerRooms({ restore: { shop } });
    expect(rooms.saved()).toBeNull();
    await rooms.plan(T0, { holding: true, writeIntervalMs: 0 });
    const first = rooms.saved();
    expect(first).toBeInstanceOf(RoomsJson);
    expect(Object.keys(JSON.parse((first as RoomsJson).text) as object)).toEqual(['shop']);
    // Asked again without a plan between: nothing of another moment.
    expect(rooms.saved()).toBeNull();
    await rooms.plan(T0 + 1000, { holding: true, writeIntervalMs: 0 });
    expect(rooms.saved()).toBeInstanceOf(RoomsJson);
    // A plan the state file did not ask for brings none.
    await rooms.plan(T0 + 2000, { holding: true, writeIntervalMs: 0 });
    expect(rooms.saved()).toBeNull();
    const verdict = parseLogLine(admittedLine(T0 + 2500, 1, 'LHR', 'shop'), T0 + 2600);
    if (verdict.kind === 'decision') rooms.observe(verdict.line);
    const now = await rooms.saveNow();
    expect(Object.keys(JSON.parse(now!.text) as object)).toEqual(['shop']);
  });

  it('make the controller hold while a plan goes unanswered, and go on once it answers', async () => {
    const gate = new SharedArrayBuffer(8);
    const flags = new Int32Array(gate);
    const s = setup(
      await workerRooms({
        modelModule: FAKES,
        modelExport: 'createGatedModel',
        modelOptions: { gate },
        planTimeoutMs: 100,
      }),
    );
    try {
      await s.controller.tick(T0 + 1000);
      await s.controller.tick(T0 + 2000);
      expect(s.controller.snapshot(T0 + 2000).holdingWhy).toMatch(
        /^the planner thread has not answered a plan for 0.1 s \(.*\): restart/,
      );
      Atomics.store(flags, 0, 1);
      Atomics.notify(flags, 0);
      await s.controller.tick(T0 + 3000);
      await s.controller.tick(T0 + 4000);
      expect(s.controller.snapshot(T0 + 4000).holding).toBe(false);
    } finally {
      Atomics.store(flags, 0, 1);
      Atomics.notify(flags, 0);
    }
  });
});
