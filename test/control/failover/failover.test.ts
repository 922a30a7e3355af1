// Restart and failover around the controller, on a fake clock: two controllers on one store file, the
// learning mode of a controller without state, lines replayed after a restart, the lease on what goes out.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FailoverController } from '../../../control/failover/failover-controller.js';
import { Failover } from '../../../control/failover/failover.js';
import { StateSaver, STATE_VERSION, type ControllerState } from '../../../control/failover/state-file.js';
import type { ControlModel, ModelSnapshot, SettingWrites } from '../../../control/types.js';
import type { ModelSaved } from '../../../control/model/index.js';
import { ApiBudget, type StoreCall, localStore, Writer, type Store } from '../../../control/store/index.js';
import { type RoomsPort, Rooms } from '../../../control/rooms/index.js';
import { storeFromSettings } from '../../../src/core/settings/index.js';
import { admittedLine } from '../lines.js';
import { basisSettings } from '../../../lib/status-basis.js';
import { setupItems } from '../../support/setup-items.js';

const T0 = Date.UTC(2026, 10, 26, 10); // a window boundary for d = 30

/** A model that plans what `next` says (nothing while holding) and counts what it saw. */
function fakeModel(next: (nowMs: number) => SettingWrites | null) {
  const seen = { lines: 0, written: [] as SettingWrites[] };
  const model: ControlModel = {
    settings() {},
    observe: () => void seen.lines++,
    observeOrigin: () => undefined,
    plan: (nowMs, ctx) => (ctx.holding ? null : next(nowMs)),
    written: (values) => void seen.written.push(values),
    snapshot: (nowMs) => ({ nowMs, mode: 'observing', why: '', minutes: [], pops: [] }) as unknown as ModelSnapshot,
    save: () => ({ version: 1, lines: seen.lines }) as unknown as ModelSaved,
  };
  return { model, seen };
}

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'failover-'));
  file = join(dir, 'config.json');
  await writeFile(
    file,
    JSON.stringify(
      storeFromSettings({ allow_percentage: '40', wait_period_duration: '30', new_users_per_minute: '60' }),
    ),
  );
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

/** A controller over the store file; `host`/`pid` tell two apart. */
function controller(o: {
  pid: number;
  startedMs: number;
  resume?: ControllerState | null;
  learn?: boolean;
  plan?: (nowMs: number) => SettingWrites | null;
  leaseSeconds?: number;
  saved?: ControllerState[];
  /** A store that writes a key a call (the Fastly CLI). */
  perKey?: string[][];
  rooms?: RoomsPort;
}) {
  const logs: string[] = [];
  const log = (m: string): void => void logs.push(m);
  const file0 = localStore(file);
  const store: Store =
    o.perKey === undefined
      ? file0
      : {
          name: 'per key',
          read: file0.read,
          callsFor: (v) => Object.keys(v).length,
          write: async (v) => (o.perKey!.push(Object.keys(v)), file0.write(v)),
        };
  const fake = fakeModel(o.plan ?? (() => null));
  const saver =
    o.saved === undefined ? null : new StateSaver(async (s) => void o.saved!.push(s as ControllerState), log);
  const budget = new ApiBudget({ perHour: 7200, readEveryMs: 60_000, log });
  const failover = new Failover({
    store: 'file test',
    leaseSeconds: o.leaseSeconds ?? 600,
    leadSeconds: 25,
    resume: o.resume ?? null,
    learn: o.learn,
    saver,
    budget,
    host: 'box',
    pid: o.pid,
    startedMs: o.startedMs,
    log,
  });
  const c = new FailoverController({
    ...(o.rooms === undefined ? { createModel: () => fake.model } : { rooms: o.rooms }),
    store,
    writer: new Writer(store, 0, log, budget),
    sourceName: 'test',
    lagLimitMs: 60_000,
    log,
    failover,
  });
  return { c, logs, fake, failover, budget };
}

const stored = async (): Promise<Record<string, string>> =>
  JSON.parse(await readFile(file, 'utf8')) as Record<string, string>;

describe('two controllers on one store', () => {
  it('the second refuses to write, naming the first, and takes over only once its heartbeat is older than the lease', async () => {
    const schedule = (nowMs: number): SettingWrites => ({
      allow_schedule: `${Math.floor(nowMs / 30_000) * 30 + 60}=25`,
    });
    const a = controller({ pid: 111, startedMs: T0, learn: false, plan: schedule, leaseSeconds: 120 });
    for (let t = 0; t < 5; t++) await a.c.tick(T0 + t * 1000);
    expect(JSON.parse((await stored()).controller!)).toMatchObject({
      host: 'box',
      pid: 111,
      lease: 120,
      beat: T0 / 1000 + 4,
    });

    const b = controller({
      pid: 222,
      startedMs: T0 + 5000,
      learn: false,
      plan: () => ({ allow_schedule: '1=99' }),
      leaseSeconds: 120,
    });
    for (let t = 5; t < 60; t++) {
      await a.c.tick(T0 + t * 1000);
      await b.c.tick(T0 + t * 1000 + 500);
    }
    // B wrote nothing: every schedule in the store is A's, and the heartbeat is A's.
    expect((await stored())['room.default.live']).not.toMatch(/=99/);
    expect(JSON.parse((await stored()).controller!).pid).toBe(111);
    expect(b.logs.filter((l) => /another controller/.test(l))).toEqual([
      `holding, writing nothing: another controller writes to this store: id ${a.failover.heartbeat.me.id} on host box, pid 111, controlling since 2026-11-26T10:00:00.000Z, its heartbeat 1 s old. This one writes nothing, and takes over only if that heartbeat gets older than its lease (120 s). Stop one of them`,
    ]);
    expect(b.c.snapshot(T0 + 60_000)).toMatchObject({
      holding: true,
      failover: { mode: 'standby', other: expect.stringMatching(/pid 111/) },
    });

    // A is killed at 60 s: B waits out the lease (120 s from A's last beat), then takes over.
    for (let t = 60; t < 178; t++) await b.c.tick(T0 + t * 1000 + 500);
    expect(JSON.parse((await stored()).controller!).pid).toBe(111);
    for (let t = 178; t < 182; t++) await b.c.tick(T0 + t * 1000 + 500);
    expect(JSON.parse((await stored()).controller!).pid).toBe(222);
    expect(b.logs.join('\n')).toMatch(
      /taking over from the controller id \w+ on host box, pid 111.*: its last heartbeat is 12\d s old, past its lease/,
    );
    expect(b.c.snapshot(T0 + 182_000)).toMatchObject({ holding: false, failover: { mode: 'active' } });
  });

  it("the one standing by never writes the state file: it is the active one's too", async () => {
    const aSaved: ControllerState[] = [];
    const bSaved: ControllerState[] = [];
    const a = controller({ pid: 111, startedMs: T0, learn: false, saved: aSaved });
    await a.c.tick(T0);
    const b = controller({ pid: 222, startedMs: T0 + 1000, learn: false, saved: bSaved });
    for (let t = 1; t < 60; t++) {
      await a.c.tick(T0 + t * 1000);
      await b.c.tick(T0 + t * 1000 + 500);
    }
    expect(b.c.snapshot(T0 + 60_000).failover?.mode).toBe('standby');
    expect(bSaved).toEqual([]);
    expect(aSaved.length).toBeGreaterThan(0);
  });

  it('when both start before either reads the other, the one started first keeps the service', async () => {
    const a = controller({ pid: 111, startedMs: T0, learn: false });
    const b = controller({ pid: 222, startedMs: T0 + 1000, learn: false });
    // B writes its beat first (A's first read came before it).
    await a.c.tick(T0 + 1000);
    await b.c.tick(T0 + 1100);
    for (let t = 2; t < 10; t++) {
      await a.c.tick(T0 + t * 1000);
      await b.c.tick(T0 + t * 1000 + 100);
    }
    expect(a.c.snapshot(T0 + 10_000).failover?.mode).toBe('active');
    expect(b.c.snapshot(T0 + 10_000).failover?.mode).toBe('standby');
  });
});

/** A controller ran on this store once and died long ago: its heartbeat is there, far past its lease. */
async function oldHeartbeat(): Promise<void> {
  const values = await stored();
  values.controller = JSON.stringify({
    id: 'dead0001',
    host: 'old',
    pid: 9,
    started: T0 / 1000 - 90_000,
    beat: T0 / 1000 - 86_400,
    lease: 600,
  });
  await writeFile(file, JSON.stringify(values));
}

describe('a controller without state (learning mode)', () => {
  it('controls from the start on a store no controller has written (no heartbeat): nothing published to learn from', async () => {
    const { c, logs } = controller({ pid: 1, startedMs: T0, plan: () => ({ allow_schedule: `${T0 / 1000 + 90}=30` }) });
    await c.tick(T0 + 500);
    expect(c.snapshot(T0 + 500).failover?.mode).toBe('active');
    expect(logs).toContain(
      'no controller has written this store before (no heartbeat): nothing published to learn from, controlling from the start',
    );
    expect(JSON.parse((await stored())['room.default.live']!).allow_schedule).toMatch(
      new RegExp(`^${T0 / 1000 + 90}=30,`),
    );
  });

  it('writes nothing to the rooms for its learning period, and says so with the seconds left', async () => {
    await oldHeartbeat();
    const { c, logs, fake } = controller({
      pid: 1,
      startedMs: T0,
      plan: () => ({ allow_schedule: `${T0 / 1000 + 90}=30` }),
    });
    const before = (await stored())['room.default.live'];
    for (let t = 0; t < 60; t++) {
      c.line(admittedLine(T0 + t * 1000, t), T0 + t * 1000 + 200);
      await c.tick(T0 + t * 1000 + 500);
    }
    expect((await stored())['room.default.live']).toBe(before);
    expect(fake.seen.lines).toBe(60);
    const snap = c.snapshot(T0 + 59_500);
    expect(snap).toMatchObject({ holding: true, failover: { mode: 'learning', learningSecondsLeft: 1 } });
    expect(snap.holdingWhy).toMatch(
      /^learning: no state to resume from, so the edge keeps what is published while the controller watches the crowd, 1 s left$/,
    );
    expect(logs.filter((l) => /learning/.test(l))).toEqual([
      'learning mode: no state file to resume from; the edge keeps what is published while the controller watches the crowd for 60 s before changing anything',
      'holding, writing nothing: learning: no state to resume from, so the edge keeps what is published while the controller watches the crowd, 60 s left',
    ]);
    await c.tick(T0 + 60_500);
    expect(logs).toContain('learning done: controlling');
    expect(JSON.parse((await stored())['room.default.live']!).allow_schedule).toMatch(
      new RegExp(`^${T0 / 1000 + 90}=30,\\d+=30$`),
    );
  });

  it("learns at least until the published schedule's fixed chances run out", async () => {
    const store = storeFromSettings({
      allow_percentage: '40',
      wait_period_duration: '30',
      new_users_per_minute: '60',
      allow_schedule: `${T0 / 1000 + 90}=12,${T0 / 1000 + 300}=20`,
    });
    await writeFile(file, JSON.stringify(store));
    await oldHeartbeat();
    // At T0 + 70 s the window at T0 + 90 s is fixed (25 s ahead): learning lasts until it opens.
    const { c } = controller({ pid: 1, startedMs: T0 + 70_000 });
    await c.tick(T0 + 70_000);
    expect(c.snapshot(T0 + 70_000).failover).toMatchObject({ mode: 'learning', learningSecondsLeft: 60 });
    const late = controller({ pid: 2, startedMs: T0 + 66_000 + 1 });
    await late.c.tick(T0 + 66_000);
    expect(late.c.snapshot(T0 + 66_000).failover).toMatchObject({ learningSecondsLeft: 60 });
  });
});

describe('a restarted controller', () => {
  it('skips the lines the log source gives again that it counted before, counting each line once', async () => {
    const saved: ControllerState[] = [];
    const first = controller({ pid: 1, startedMs: T0, learn: false, saved });
    for (let i = 0; i < 20; i++)
      first.c.line(admittedLine(T0 + i * 1000, i, i % 2 ? 'LHR' : 'FRA'), T0 + i * 1000 + 100);
    await first.c.tick(T0 + 20_000);
    expect(saved).toHaveLength(1);
    expect(saved[0]!.pops).toEqual({ FRA: T0 + 18_000, LHR: T0 + 19_000 });
    expect(saved[0]!.rooms).toEqual({ default: { version: 1, lines: 20 } });
    // kill -9; the new process resumes, and its source replays the last 10 s, then goes on.
    const second = controller({ pid: 2, startedMs: T0 + 25_000, resume: saved[0]!, saved });
    for (let i = 10; i < 30; i++)
      second.c.line(admittedLine(T0 + i * 1000, i, i % 2 ? 'LHR' : 'FRA'), T0 + 25_000 + i * 10);
    await second.c.tick(T0 + 26_000);
    expect(second.fake.seen.lines).toBe(10);
    const snap = second.c.snapshot(T0 + 26_000);
    expect(snap.source.lines).toBe(10);
    expect(snap.failover).toMatchObject({ mode: 'active', replayed: 10, heartbeatId: first.failover.heartbeat.me.id });
    expect(second.logs.filter((l) => /counted before its restart/.test(l))).toHaveLength(1);
    // Its own heartbeat from before the restart is no other controller: it writes at once.
    expect(snap.holding).toBe(false);
  });

  it("keeps the API budget's calls of the trailing hour and a 429's back-off in force, so a crash loop cannot overspend", async () => {
    const saved: ControllerState[] = [];
    const first = controller({ pid: 1, startedMs: T0, learn: false, saved });
    await first.c.tick(T0);
    // What a start on Fastly spends (the store id, a read, a log-tail start), then a 429 that names a reset.
    const call = (kind: StoreCall['kind'], o: Partial<StoreCall> = {}): StoreCall => ({
      kind,
      calls: 1,
      ok: true,
      status: 200,
      keys: [],
      remaining: null,
      resetMs: null,
      retryAfterMs: null,
      error: null,
      ...o,
    });
    first.budget.record(call('read', { calls: 2 }), T0 + 1000);
    first.budget.record(call('read', { remaining: 300, resetMs: T0 + 1_800_000 }), T0 + 1000);
    first.budget.record(call('log-tail', { status: null }), T0 + 2000);
    first.budget.record(call('write', { ok: false, status: 429, remaining: 0, resetMs: T0 + 600_000 }), T0 + 3000);
    // Nothing else changed: the budget's calls alone make the next save due.
    await first.c.tick(T0 + 12_000);
    expect(saved).toHaveLength(2);
    // The budget itself: on a local file the dashboard shows none.
    const before = first.budget.status(T0 + 12_000, T0);
    expect(before.usedLastHour).toEqual({ reads: 3, writes: 1, heartbeats: 0, logTails: 1 });
    // kill -9, and a restart from the state file.
    const second = controller({ pid: 2, startedMs: T0 + 20_000, resume: saved.at(-1)!, saved });
    await second.c.tick(T0 + 20_000);
    const after = second.c.snapshot(T0 + 20_000);
    expect(second.budget.status(T0 + 20_000, T0).usedLastHour).toEqual(before.usedLastHour);
    expect(second.budget.status(T0 + 20_000, T0).backoffUntilMs).toBe(T0 + 600_000);
    expect(after.holdingWhy).toMatch(/^the Fastly API rate limit is spent \(429\): calling nothing until 10:10:00 UTC/);
    expect(second.logs).toContain(
      'the state file says the Fastly API answered 429 before the restart: calling nothing, holding, until 2026-11-26T10:10:00.000Z; another tool on the same token may have spent it: check with `fastly` what else runs, or lower --api-budget',
    );
    // A --fresh start reads no state: it starts counting from zero.
    const fresh = controller({ pid: 3, startedMs: T0 + 20_000, resume: null });
    expect(fresh.budget.status(T0 + 20_000, T0).usedLastHour).toEqual({
      reads: 0,
      writes: 0,
      heartbeats: 0,
      logTails: 0,
    });
  });

  it('keeps the restored rooms in its saves before any line or read names them', async () => {
    const state: ControllerState = {
      version: STATE_VERSION,
      savedAtMs: T0,
      store: 'file test',
      heartbeatId: 'abcd0123',
      lastWrite: null,
      pops: {},
      rooms: { shop: { version: 1, lines: 5 } },
    };
    const saved: ControllerState[] = [];
    const { c } = controller({ pid: 2, startedMs: T0 + 5000, resume: state, saved });
    await c.tick(T0 + 5000);
    expect(Object.keys(saved[0]!.rooms).sort()).toEqual(['default', 'shop']);
  });

  it("saves, at shutdown, whatever the state file's clock, with every line counted so far", async () => {
    const saved: ControllerState[] = [];
    const { c } = controller({ pid: 1, startedMs: T0, learn: false, saved });
    await c.tick(T0);
    c.line(admittedLine(T0 + 1000, 1, 'LHR'), T0 + 1100);
    await c.tick(T0 + 2000);
    expect(saved).toHaveLength(1);
    await c.finalSave(T0 + 3000);
    expect(saved.map((s) => [s.savedAtMs, s.pops])).toEqual([
      [T0, {}],
      [T0 + 3000, { LHR: T0 + 1000 }],
    ]);
  });

  it("with the models in another thread, saves the POP times of the moment of the plan the models' state came with", async () => {
    const saved: ControllerState[] = [];
    const inner = new Rooms(
      () => fakeModel(() => null).model,
      () => {},
    );
    let c: FailoverController | null = null;
    // Rooms whose state is as of the plan; a line arrives while the plan runs (it waits on another thread).
    const rooms: RoomsPort = {
      observe: (line) => inner.observe(line),
      settings: (v, now) => inner.settings(v, now),
      written: () => {},
      snapshot: (now) => inner.snapshot(now),
      unrouted: {},
      failure: null,
      savedAtPlan: true,
      async plan(nowMs) {
        const state = inner.saved();
        c!.line(admittedLine(nowMs - 100, 9, 'FRA'), nowMs);
        this.saved = () => state;
        return new Map();
      },
      saved: () => null,
    };
    const made = controller({ pid: 1, startedMs: T0, learn: false, saved, rooms });
    c = made.c;
    c.line(admittedLine(T0 - 500, 1, 'LHR'), T0);
    await c.tick(T0);
    expect(saved[0]!.pops).toEqual({ LHR: T0 - 500 });
  });

  it('counts a line its POP gave late (another host) that the state had not counted, skipping the replayed ones', async () => {
    const saved: ControllerState[] = [];
    const first = controller({ pid: 1, startedMs: T0, learn: false, saved });
    for (let i = 1; i <= 10; i++) first.c.line(admittedLine(T0 + i * 1000, i), T0 + i * 1000 + 100);
    await first.c.tick(T0 + 11_000);
    // kill -9. The log source gives the last seconds again, and a line of 8.5 s from another host, late, for the first time.
    const second = controller({ pid: 2, startedMs: T0 + 15_000, resume: saved[0]!, saved });
    for (const [ms, i] of [
      [9000, 9],
      [10_000, 10],
      [8500, 99],
      [11_000, 11],
    ] as const)
      second.c.line(admittedLine(T0 + ms, i), T0 + 15_000);
    await second.c.tick(T0 + 15_000);
    expect(second.fake.seen.lines).toBe(2);
    expect(second.c.snapshot(T0 + 15_000).failover).toMatchObject({ replayed: 2 });
  });

  it('learns again, counting the replayed lines itself, when the state holds no model state', async () => {
    const state: ControllerState = {
      version: STATE_VERSION,
      savedAtMs: T0,
      store: 'file test',
      heartbeatId: 'abcd0123',
      lastWrite: null,
      pops: { LHR: T0 + 20_000 },
      rooms: { default: null },
    };
    const { c, fake, logs } = controller({ pid: 2, startedMs: T0 + 25_000, resume: state });
    for (let i = 10; i < 20; i++) c.line(admittedLine(T0 + i * 1000, i), T0 + 25_000);
    await c.tick(T0 + 25_500);
    expect(fake.seen.lines).toBe(10);
    expect(c.snapshot(T0 + 25_500).failover).toMatchObject({ mode: 'learning', replayed: 0 });
    expect(logs[0]).toMatch(/it holds no model state, so the models learn again$/);
  });

  it('learns again from a state older than the lease', async () => {
    const state: ControllerState = {
      version: STATE_VERSION,
      savedAtMs: T0,
      store: 'file test',
      heartbeatId: 'abcd0123',
      lastWrite: null,
      pops: { LHR: T0 },
      rooms: { default: { version: 1 } },
    };
    const { c, failover, logs } = controller({ pid: 2, startedMs: T0 + 601_000, resume: state });
    expect(failover.savedRooms()).toEqual([]);
    c.line(admittedLine(T0 - 1000, 1), T0 + 601_000);
    await c.tick(T0 + 601_000);
    expect(c.snapshot(T0 + 601_000).failover).toMatchObject({ mode: 'learning', replayed: 0, heartbeatId: 'abcd0123' });
    expect(logs[0]).toMatch(/it is older than the lease \(600 s\), so the models learn again$/);
  });

  it('refuses a state file its model cannot read, at start', () => {
    const state: ControllerState = {
      version: STATE_VERSION,
      savedAtMs: T0,
      store: 'file test',
      heartbeatId: 'abcd0123',
      lastWrite: null,
      pops: {},
      rooms: { default: { version: 99 } },
    };
    const failover = new Failover({
      store: 'file test',
      leaseSeconds: 600,
      leadSeconds: 25,
      resume: state,
      saver: null,
      startedMs: T0,
      log: () => {},
    });
    const store = localStore(file);
    const make = (): FailoverController =>
      new FailoverController({
        createModel: (_room, restore) => {
          if (restore !== undefined) throw new Error('the saved model is version 99; this controller reads version 1');
          return fakeModel(() => null).model;
        },
        store,
        writer: new Writer(store, 0, () => {}),
        sourceName: 'test',
        lagLimitMs: 60_000,
        log: () => {},
        failover,
      });
    expect(make).toThrow('the saved model is version 99; this controller reads version 1');
  });
});

describe('what goes out', () => {
  it('carries the lease on each schedule and the heartbeat in the same call, and the model is told its own text', async () => {
    const text = `${T0 / 1000 + 60}=30,${T0 / 1000 + 90}=10,${T0 / 1000 + 120}=20`;
    const { c, fake } = controller({ pid: 1, startedMs: T0, learn: false, plan: () => ({ allow_schedule: text }) });
    await c.tick(T0 + 1000);
    const after = await stored();
    expect(JSON.parse(after['room.default.live']!).allow_schedule).toBe(`${text},${T0 / 1000 + 690}=10`);
    expect(JSON.parse(after.controller!)).toMatchObject({ pid: 1, beat: T0 / 1000 + 1, lease: 600 });
    expect(fake.seen.written).toEqual([{ allow_schedule: text }]);
  });

  it("dates the room's status basis with each write of its live value, in that value: no call of its own (docs/status.md)", async () => {
    const text = `${T0 / 1000 + 60}=30`;
    const calls: string[][] = [];
    let plan: SettingWrites = { allow_schedule: text };
    const { c, fake } = controller({ pid: 1, startedMs: T0, learn: false, perKey: calls, plan: () => plan });
    await c.tick(T0 + 1000);
    const after = await stored();
    const basis = JSON.parse(JSON.parse(after['room.default.live']!).status_basis);
    expect(basis).toEqual({ at: T0 / 1000 + 1, settings: basisSettings(after, 'default') });
    expect(basis.settings).toMatchObject({ allow_percentage: '40', new_users_per_minute: '60' });
    expect(calls.flat().sort()).toEqual(['controller', 'room.default.live']);
    expect(fake.seen.written).toEqual([{ allow_schedule: text }]);
    // A write of allow_percentage alone leaves the live value, and its basis, as they were.
    plan = { allow_percentage: '100' };
    await c.tick(T0 + 2000);
    expect((await stored())['room.default.live']).toBe(after['room.default.live']);
  });

  it('replaces the basis a new service is set up with (fastly.toml, dated 0) at its first write of the live value', async () => {
    await writeFile(file, JSON.stringify(setupItems()));
    const text = `${T0 / 1000 + 60}=30`;
    const { c } = controller({ pid: 1, startedMs: T0, learn: false, plan: () => ({ allow_schedule: text }) });
    await c.tick(T0 + 1000);
    const after = await stored();
    const live = JSON.parse(after['room.main.live']!);
    expect(Object.keys(live).sort()).toEqual(['allow_schedule', 'status_basis']);
    expect(live.allow_schedule).toMatch(new RegExp(`^${text},`));
    expect(JSON.parse(live.status_basis)).toEqual({ at: T0 / 1000 + 1, settings: basisSettings(setupItems(), 'main') });
  });

  it('with a store that writes a key a call (the CLI), sends the heartbeat only every lease/3, not with every write', async () => {
    const calls: string[][] = [];
    const { c } = controller({
      pid: 1,
      startedMs: T0,
      learn: false,
      leaseSeconds: 90,
      perKey: calls,
      plan: (now) => ({ allow_schedule: `${Math.floor(now / 30_000) * 30 + 60}=${(now / 1000) % 50}` }),
    });
    for (let t = 0; t <= 70; t++) await c.tick(T0 + t * 1000);
    const beats = calls.filter((keys) => keys.includes('controller')).length;
    expect(calls.length).toBeGreaterThan(20);
    expect(beats).toBe(3);
  });

  it('writes the heartbeat on its own every lease/3 when nothing else goes out', async () => {
    const { c } = controller({ pid: 1, startedMs: T0, learn: false, leaseSeconds: 90 });
    const beats: number[] = [];
    for (let t = 0; t <= 120; t++) {
      await c.tick(T0 + t * 1000);
      beats.push(JSON.parse((await stored()).controller!).beat - T0 / 1000);
    }
    expect([...new Set(beats)]).toEqual([0, 30, 60, 90, 120]);
  });
});
