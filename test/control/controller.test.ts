// The controller process without its I/O: a fake store and clock, the real model and parser.
import { describe, expect, it } from 'vitest';
import { Controller } from '../../control/controller.js';
import { createControlModel } from '../../control/model/index.js';
import { localStore, Writer, type Store, ApiBudget, ApiError, type StoreCall } from '../../control/store/index.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SettingWrites } from '../../control/types.js';
import { storeFromSettings } from '../../src/core/settings/index.js';
import { decisionLine } from '../../src/core/log/log-line.js';
import { crowdSecond, TWO_ROOM_CROWD } from './crowd.js';
import { admittedLine } from './lines.js';

const T0 = Date.UTC(2026, 10, 24, 12);

function fakeStore(values: Record<string, string>) {
  const writes: Record<string, string>[] = [];
  let failing: string | null = null;
  const store: Store = {
    name: 'fake store',
    read: async () => ({ ...values }),
    async write(w) {
      if (failing !== null) throw new Error(failing);
      writes.push(w);
      for (const [k, v] of Object.entries(w)) {
        if (v === '') delete values[k];
        else values[k] = v;
      }
    },
  };
  return { store, writes, values, fail: (why: string | null) => (failing = why) };
}

const admitted = (ms: number, i: number): string => admittedLine(ms, i);

/** A store holding these service-wide settings (the one room, `default`, without routing). */
function setup(settings: Record<string, string>, minIntervalMs = 20_000, perHour = 300) {
  const fake = fakeStore(storeFromSettings(settings));
  const logs: string[] = [];
  const budget = new ApiBudget({ perHour, readEveryMs: 60_000, log: (m) => logs.push(m) });
  const writer = new Writer(fake.store, minIntervalMs, (m) => logs.push(m), budget);
  const controller = new Controller({
    createModel: () => createControlModel(),
    store: fake.store,
    writer,
    sourceName: 'test',
    lagLimitMs: 60_000,
    log: (m) => logs.push(m),
  });
  return { ...fake, logs, writer, controller };
}

/** One room's writes offered alone; whether they went out. */
async function offer(writer: Writer, writes: SettingWrites, nowMs: number, room = 'default'): Promise<boolean> {
  return (await writer.offer(new Map([[room, writes]]), {}, nowMs)).has(room);
}

describe('the controller process', () => {
  it('engages an open room that admits past the target, through the store', async () => {
    const { controller, writes, values } = setup({
      allow_percentage: '100',
      new_users_per_minute: '60',
      wait_period_duration: '30',
    });
    for (let i = 0; i < 100; i++) controller.line(admitted(T0 + i * 100, i), T0 + i * 100);
    await controller.tick(T0 + 10_000);
    expect(writes).toHaveLength(1);
    expect(Number(values['room.default.allow_percentage'])).toBeLessThan(100);
    expect(controller.snapshot(T0 + 10_000).source).toMatchObject({ state: 'ok', lines: 100, bad: 0 });
  });

  it('counts garbage and foreign lines and goes on', () => {
    const { controller, logs } = setup({ allow_percentage: '100' });
    controller.line('hello', T0);
    controller.line('{"wr":1,"ts":"nope"}', T0);
    controller.line(admitted(T0, 1), T0);
    expect(controller.snapshot(T0).source).toMatchObject({ lines: 1, bad: 1, foreign: 1 });
    expect(logs.join('\n')).toMatch(/skipped a decision line \(ts is missing/);
  });

  it("counts preview links' lines apart, never as the room's visitors", () => {
    const { controller } = setup({ allow_percentage: '100' });
    const preview = JSON.parse(admitted(T0, 1)) as Record<string, unknown>;
    Object.assign(preview, { decision: 'preview', outcome: 'preview', reason: 'preview', newTid: null, newDec: null });
    controller.line(JSON.stringify(preview), T0);
    controller.line(admitted(T0, 2), T0);
    expect(controller.snapshot(T0).source).toMatchObject({ lines: 1, previews: 1, bad: 0, foreign: 0 });
  });

  it('holds, and says so once, when lines arrive late; controls again once they arrive on time', async () => {
    const { controller, writes, logs } = setup({
      allow_percentage: '100',
      new_users_per_minute: '60',
      wait_period_duration: '30',
    });
    // Every line reaches the controller 90 s after the edge wrote it: the source lags.
    for (let s = 0; s < 30; s++) {
      for (let i = 0; i < 5; i++) controller.line(admitted(T0 + s * 1000 + i * 100, s * 5 + i), T0 + 90_000 + s * 1000);
      await controller.tick(T0 + 90_000 + s * 1000 + 500);
    }
    expect(writes).toEqual([]);
    expect(controller.snapshot(T0 + 120_000)).toMatchObject({ holding: true, source: { state: 'lagging' } });
    const holding = logs.filter((l) => l.startsWith('holding'));
    expect(holding).toEqual([
      'holding, writing nothing: the log source lags: its lines arrive 90 s after the room wrote them',
    ]);
    // Caught up: lines now arrive as they are written.
    controller.line(admitted(T0 + 121_000, 999), T0 + 121_000);
    await controller.tick(T0 + 121_500);
    await controller.tick(T0 + 122_500);
    expect(controller.snapshot(T0 + 122_500)).toMatchObject({ holding: false, source: { state: 'ok' } });
    expect(logs.filter((l) => l.startsWith('the view is current again'))).toHaveLength(1);
  });

  it('takes a room with no traffic for a quiet room, not a lagging source: no hold, no message', async () => {
    const { controller, logs } = setup({
      allow_percentage: '100',
      new_users_per_minute: '60',
      wait_period_duration: '30',
    });
    for (let i = 0; i < 20; i++) controller.line(admitted(T0 + i * 100, i), T0 + i * 100 + 50);
    // Then nothing for ten minutes, ticking every second: the source is open, the room is quiet.
    for (let t = 1; t <= 600; t++) await controller.tick(T0 + 2_000 + t * 1000);
    const snap = controller.snapshot(T0 + 602_000);
    expect(snap.holding).toBe(false);
    expect(snap.source.state).toBe('quiet');
    expect(logs.filter((l) => /holding|lag/.test(l))).toEqual([]);
  });

  it('holds while the source says it fails (fastly log-tail exited), saying so once, and controls again once it recovers', async () => {
    const { controller, writes, logs } = setup({
      allow_percentage: '100',
      new_users_per_minute: '60',
      wait_period_duration: '30',
    });
    for (let i = 0; i < 100; i++) controller.line(admitted(T0 + i * 100, i), T0 + i * 100);
    for (const [s, wait] of [
      [1, 1],
      [2, 2],
      [4, 4],
      [8, 8],
    ] as const) {
      controller.source(
        `fastly log-tail exited (1): ERROR: unrecoverable error, response code: 404.; restarting in ${wait} s`,
        false,
      );
      await controller.tick(T0 + 10_000 + s * 1000);
    }
    expect(writes).toEqual([]);
    expect(controller.snapshot(T0 + 18_000)).toMatchObject({ holding: true, source: { state: 'failing' } });
    expect(logs.filter((l) => l.startsWith('holding'))).toEqual([
      'holding, writing nothing: the log source fails: fastly log-tail exited (1): ERROR: unrecoverable error, response code: 404.; restarting in 1 s',
    ]);
    controller.source(null, false);
    await controller.tick(T0 + 19_000);
    expect(controller.snapshot(T0 + 19_000).holding).toBe(false);
    expect(logs.at(-2)).toBe('the view is current again: controlling');
  });

  it('holds, and says so, when the source dies; writes nothing then', async () => {
    const { controller, writes, logs } = setup({
      allow_percentage: '100',
      new_users_per_minute: '60',
      wait_period_duration: '30',
    });
    for (let i = 0; i < 100; i++) controller.line(admitted(T0 + i * 100, i), T0 + i * 100);
    controller.source('stdin closed', true);
    await controller.tick(T0 + 11_000);
    await controller.tick(T0 + 12_000);
    expect(writes).toEqual([]);
    expect(controller.snapshot(T0 + 12_000)).toMatchObject({
      holding: true,
      holdingWhy: expect.stringMatching(/down \(stdin closed\)/),
      source: { state: 'dead' },
    });
    expect(logs.filter((l) => l.startsWith('holding'))).toHaveLength(1);
  });

  it('reports a failed write, keeps going, and sends it again later', async () => {
    const { controller, fail, writes } = setup({
      allow_percentage: '100',
      new_users_per_minute: '60',
      wait_period_duration: '30',
    });
    for (let i = 0; i < 100; i++) controller.line(admitted(T0 + i * 100, i), T0 + i * 100);
    fail('API rate limit exceeded');
    await controller.tick(T0 + 10_000);
    expect(controller.snapshot(T0 + 10_000).lastWrite).toMatchObject({ ok: false, error: 'API rate limit exceeded' });
    fail(null);
    await controller.tick(T0 + 31_000);
    expect(writes).toHaveLength(1);
    expect(controller.snapshot(T0 + 31_000).writes).toMatchObject({ done: 1, failed: 1 });
  });

  it('holds when the settings cannot be read', async () => {
    const { controller, store } = setup({ allow_percentage: '100' });
    store.read = async () => {
      throw new Error('permission denied');
    };
    controller.line(admitted(T0, 1), T0);
    await controller.tick(T0 + 1000);
    expect(controller.snapshot(T0 + 1000).holdingWhy).toMatch(
      /cannot read the settings from fake store: permission denied/,
    );
  });
});

describe('the difficulty (proof_of_work = auto)', () => {
  /** A queueing room under a crowd of 20 a second for three minutes, on the API budget; every write call it made. */
  async function run(settings: Record<string, string>) {
    const t = setup(
      { wait_period_duration: '30', allow_percentage: '50', new_users_per_minute: '120', ...settings },
      0,
    );
    const seq = { n: 0 };
    for (let sec = 0; sec < 180; sec++) {
      const now = T0 + sec * 1000;
      for (const text of crowdSecond([{ id: 'default', path: '/', perSecond: 20, admittedPerSecond: 2 }], now, seq))
        t.controller.line(text, now);
      await t.controller.tick(now);
    }
    return t;
  }

  it('publishes proof_schedule in room.default.live with allow_schedule, in the same calls: not one more', async () => {
    const plain = await run({});
    const auto = await run({ proof_of_work: 'auto', proof_seconds: '20' });
    expect(plain.writes.length).toBeGreaterThan(3);
    expect(auto.writes.map((w) => Object.keys(w))).toEqual(plain.writes.map((w) => Object.keys(w)));
    const live = auto.writes
      .filter((w) => w['room.default.live'] !== undefined)
      .map((w) => JSON.parse(w['room.default.live']!) as Record<string, string>);
    expect(live.length).toBeGreaterThan(0);
    for (const v of live) {
      expect(Object.keys(v).sort()).toEqual(['allow_schedule', 'proof_schedule']);
      expect(v.proof_schedule!.split(',').map((e) => e.split('=')[0])).toEqual(
        v.allow_schedule!.split(',').map((e) => e.split('=')[0]),
      );
    }
    // A queue of minutes builds: the last schedule asks work of the windows to come, at most proof_seconds.
    const levels = live
      .at(-1)!
      .proof_schedule!.split(',')
      .map((e) => Number(e.split('=')[1]));
    expect(Math.max(...levels)).toBeGreaterThan(0);
    expect(Math.max(...levels)).toBeLessThanOrEqual(20);
    expect(auto.controller.snapshot(T0 + 180_000).rooms[0]!.model.proofSeconds).not.toBeNull();
    expect(plain.writes.some((w) => (w['room.default.live'] ?? '').includes('proof_schedule'))).toBe(false);
  });
});

describe('several rooms from one log stream', () => {
  const routing = JSON.stringify({
    rooms: [
      { id: 'shop', routes: ['/'] },
      { id: 'checkout', routes: ['/checkout'] },
      { id: 'blog', routes: ['/blog'] },
    ],
    default_room: 'shop',
  });
  function rooms() {
    const fake = fakeStore({
      routing,
      settings: JSON.stringify({ wait_period_duration: '30', allow_percentage: '100' }),
      // Each room its own target; the blog has none: it is watched, never steered.
      'room.shop': JSON.stringify({ new_users_per_minute: '600' }),
      'room.checkout': JSON.stringify({ new_users_per_minute: '60' }),
    });
    const logs: string[] = [];
    const writer = new Writer(fake.store, 0, (m) => logs.push(m));
    const controller = new Controller({
      createModel: () => createControlModel(),
      store: fake.store,
      writer,
      sourceName: 'test',
      lagLimitMs: 60_000,
      log: (m) => logs.push(m),
    });
    return { ...fake, logs, writer, controller };
  }
  const bypass = (ms: number): string =>
    decisionLine({
      nowMs: ms,
      pop: 'LHR',
      room: null,
      rule: 'webhooks',
      waitPeriodSeconds: 30,
      decision: 'allow',
      outcome: 'origin',
      reason: 'rule_bypass',
      kid: null,
      method: 'POST',
      path: '/webhooks',
      identity: null,
      status: 200,
    });

  it("steers each room to its own target and writes every room's change in one store write", async () => {
    const { controller, writes, values } = rooms();
    // 100 admissions in 10 s in checkout and the blog, past 60 a minute; 20 in the shop, under its 600.
    for (let i = 0; i < 100; i++) {
      controller.line(admittedLine(T0 + i * 100, i, 'LHR', 'checkout'), T0 + i * 100);
      if (i % 5 === 0) controller.line(admittedLine(T0 + i * 100, 1000 + i, 'LHR', 'shop'), T0 + i * 100);
      controller.line(admittedLine(T0 + i * 100, 2000 + i, 'LHR', 'blog'), T0 + i * 100);
    }
    await controller.tick(T0 + 10_000);
    expect(writes).toHaveLength(1);
    // Only checkout engages, under its own key; the operator's values are never rewritten.
    expect(Object.keys(writes[0]!)).toEqual(['room.checkout.allow_percentage']);
    expect(Number(values['room.checkout.allow_percentage'])).toBeLessThan(100);
    const snap = controller.snapshot(T0 + 10_000);
    expect(snap.rooms.map((r) => [r.id, r.model.mode, r.model.targets.newUsersPerMinute, r.lines])).toEqual([
      ['shop', 'open', 600, 20],
      ['checkout', 'open', 60, 100],
      ['blog', 'observing', null, 100],
    ]);
    // Now the shop passes its target too.
    for (let i = 0; i < 1200; i++)
      controller.line(admittedLine(T0 + 10_000 + i * 10, 3000 + i, 'LHR', 'shop'), T0 + 10_000 + i * 10);
    // The next write the budget allows: 15 s after the first.
    await controller.tick(T0 + 25_000);
    expect(writes).toHaveLength(2);
    expect(Object.keys(writes[1]!)).toContain('room.shop.allow_percentage');
    for (const key of writes.flatMap((w) => Object.keys(w)))
      expect(key).not.toMatch(/^(settings|routing|room\.[a-z]+)$/);
  });

  it('decides, writes and shows the same whether the lines carry a lang, a garbage one or none, but for the languages counted', async () => {
    const run = async (mark: (line: string, i: number) => string) => {
      const { controller, writes } = rooms();
      const seq = { n: 0 };
      let i = 0;
      for (let s = 0; s < 90; s++) {
        for (const l of crowdSecond(TWO_ROOM_CROWD, T0 + s * 1000, seq)) controller.line(mark(l, i++), T0 + s * 1000);
        if (s % 10 === 9) await controller.tick(T0 + (s + 1) * 1000);
      }
      // What the dashboard serves: the snapshot as JSON, the languages apart.
      const snap = controller.snapshot(T0 + 90_000);
      const languages = snap.rooms.filter((r) => r.lines > 0).map((r) => [r.id, r.languages]);
      const snapshot = JSON.stringify({ ...snap, rooms: snap.rooms.map((r) => ({ ...r, languages: undefined })) });
      return { writes, snapshot, languages };
    };
    const plain = await run((l) => l);
    expect(plain.writes.length).toBeGreaterThan(0);
    const tags = ['de-DE', 'ar-EG', 'en-US'];
    const tagged = await run((l, i) =>
      l.includes('"outcome":"origin"') ? l : l.replace(/}$/, `,"lang":"${tags[i % 3]}"}`),
    );
    const junk: unknown[] = [{}, 42, '<b>', 'x'.repeat(99), null, ['de-DE'], ''];
    const garbage = await run((l, i) => l.replace(/}$/, `,"lang":${JSON.stringify(junk[i % junk.length])}}`));
    for (const other of [tagged, garbage]) {
      expect(other.snapshot).toBe(plain.snapshot);
      expect(other.writes).toEqual(plain.writes);
    }
    expect(JSON.parse(garbage.snapshot).source).toMatchObject({ bad: 0 });
    expect(plain.languages.every(([, l]) => Array.isArray(l) && l.length === 0)).toBe(true);
    expect(garbage.languages).toEqual(plain.languages);
    // Each room's own answers, by the language each names.
    expect(tagged.languages.length).toBeGreaterThan(1);
    for (const [, rows] of tagged.languages as [string, { tag: string; session: number }[]][]) {
      expect(rows.map((r) => r.tag).sort()).toEqual([...tags].sort());
      expect(rows.every((r) => r.session > 0)).toBe(true);
    }
  });

  it('counts lines no room decided and feeds them to no model', async () => {
    const { controller, writes } = rooms();
    for (let i = 0; i < 500; i++) controller.line(bypass(T0 + i * 20), T0 + i * 20);
    await controller.tick(T0 + 10_000);
    const snap = controller.snapshot(T0 + 10_000);
    expect(snap.unrouted).toEqual({ rule_bypass: 500 });
    expect(snap.rooms.every((r) => r.lines === 0 && r.model.minutes.every((m) => m.admissions === 0))).toBe(true);
    expect(writes).toEqual([]);
  });

  it('takes a room first named by a line, with its settings merged as the edge does', async () => {
    const { controller, values } = rooms();
    values['room.sale'] = JSON.stringify({ new_users_per_minute: '30' });
    await controller.tick(T0);
    controller.line(admittedLine(T0 + 100, 1, 'LHR', 'sale'), T0 + 100);
    expect(controller.snapshot(T0 + 200).rooms.find((r) => r.id === 'sale')?.model.targets.newUsersPerMinute).toBe(30);
  });

  it('writes nothing for a room the routing does not name (a removed room, a forged line), and shows it as observed only', async () => {
    const { controller, writes, values } = rooms();
    // A service-wide target applies to every room, and `old` still has its own store values.
    values.settings = JSON.stringify({
      wait_period_duration: '30',
      allow_percentage: '100',
      new_users_per_minute: '60',
    });
    values['room.old'] = JSON.stringify({ new_users_per_minute: '60' });
    for (let i = 0; i < 100; i++) {
      controller.line(admittedLine(T0 + i * 100, i, 'LHR', 'old'), T0 + i * 100);
      controller.line(admittedLine(T0 + i * 100, 1000 + i, 'LHR', 'forged-1'), T0 + i * 100);
    }
    await controller.tick(T0 + 10_000);
    await controller.tick(T0 + 40_000);
    for (const key of writes.flatMap((w) => Object.keys(w))) expect(key).not.toMatch(/^room\.(old|forged-1)\./);
    expect(Object.keys(values).filter((k) => /^room\.(old|forged-1)\./.test(k))).toEqual([]);
    const snap = controller.snapshot(T0 + 40_000);
    for (const id of ['old', 'forged-1']) {
      const room = snap.rooms.find((r) => r.id === id);
      expect(room, id).toMatchObject({ lines: 100, model: { mode: 'observing' } });
      expect(room!.model.why, id).toMatch(/routing does not name/);
    }
    // The rooms the routing names are steered as before.
    for (let i = 0; i < 100; i++)
      controller.line(admittedLine(T0 + 40_000 + i * 100, 5000 + i, 'LHR', 'checkout'), T0 + 40_000 + i * 100);
    await controller.tick(T0 + 50_000);
    expect(Object.keys(values)).toContain('room.checkout.allow_percentage');
  });

  it('keeps at most 50 rooms known only from lines, and says once that lines name more', async () => {
    const { controller, logs } = rooms();
    await controller.tick(T0);
    for (let n = 0; n < 80; n++)
      for (let i = 0; i < 3; i++)
        controller.line(admittedLine(T0 + 100 + i, n * 10 + i, 'LHR', `forged-${n}`), T0 + 100 + i);
    await controller.tick(T0 + 1000);
    const ids = controller.snapshot(T0 + 1000).rooms.map((r) => r.id);
    expect(ids.slice(0, 3)).toEqual(['shop', 'checkout', 'blog']);
    expect(ids.length).toBe(3 + 50);
    const said = logs.filter((l) => /more than 50 rooms/.test(l));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/forged-50/);
  });
});

describe('the writer', () => {
  it('says a failure once while it keeps failing for the same reason, and again when that changes', async () => {
    const { writer, fail, logs } = setup({});
    fail('API rate limit exceeded');
    for (let i = 0; i < 5; i++) await offer(writer, { allow_percentage: String(10 + i) }, T0 + i * 60_000);
    expect(logs.filter((l) => l.includes('failed'))).toHaveLength(1);
    expect(writer.failed).toBe(5);
    fail('token expired');
    await offer(writer, { allow_percentage: '20' }, T0 + 300_000);
    fail(null);
    await offer(writer, { allow_percentage: '21' }, T0 + 360_000);
    fail('API rate limit exceeded');
    await offer(writer, { allow_percentage: '22' }, T0 + 420_000);
    expect(logs.filter((l) => l.includes('failed') || l.includes('succeeds again'))).toEqual([
      expect.stringMatching(/failed \(API rate limit exceeded\); it carried room.default.allow_percentage;/),
      expect.stringMatching(/failed \(token expired\)/),
      expect.stringMatching(/succeeds again, after 1 failed write since/),
      expect.stringMatching(/failed \(API rate limit exceeded\)/),
    ]);
  });

  it('tries a write that keeps failing again after 10 s, 20, 40, then every 60 s, and summarizes the failure every 10 minutes', async () => {
    const { writer, fail, logs } = setup({}, 0);
    fail('the Fastly API answered 400 (Bad request)');
    const tried: number[] = [];
    for (let s = 0; s < 1200; s++) {
      const before = writer.failed;
      await offer(writer, { allow_percentage: String(s % 90) }, T0 + s * 1000);
      if (writer.failed > before) tried.push(s);
    }
    // The first retry waits for the budget's spacing too (15 s here), then 20, 40 and every 60 s.
    expect(tried.slice(0, 7)).toEqual([0, 15, 35, 75, 135, 195, 255]);
    expect(tried).toHaveLength(22);
    expect(logs.filter((l) => l.includes('answered 400'))).toEqual([
      expect.stringMatching(
        /^write to fake store failed \(.*\); it carried room.default.allow_percentage; .*trying again in 10 s/,
      ),
      expect.stringMatching(
        /^write to fake store still fails the same way: 13 failed writes since 2026-11-24T12:00:00.000Z/,
      ),
    ]);
    fail(null);
    await offer(writer, { allow_percentage: '5' }, T0 + 1_260_000);
    expect(logs.at(-1)).toMatch(/succeeds again, after 22 failed writes since 2026-11-24T12:00:00.000Z/);
  });

  it('refuses a value the room would not use, naming the key', async () => {
    const { writer, writes } = setup({});
    expect(await offer(writer, { allow_schedule: 'garbage' }, T0)).toBe(false);
    expect(writes).toEqual([]);
    expect(writer.lastWrite?.error).toMatch(/allow_schedule/);
  });

  it('spaces its writes, and names the minimum interval when that is what holds them back', async () => {
    const { writer, writes, logs } = setup({});
    expect(await offer(writer, { allow_percentage: '10' }, T0)).toBe(true);
    expect(await offer(writer, { allow_percentage: '20' }, T0 + 5000)).toBe(false);
    expect(await offer(writer, { allow_percentage: '30' }, T0 + 20_000)).toBe(true);
    expect(writes).toEqual([{ 'room.default.allow_percentage': '10' }, { 'room.default.allow_percentage': '30' }]);
    expect(writer.deferred).toBe(1);
    expect(logs.filter((l) => l.includes('held back'))).toEqual([
      expect.stringMatching(/--min-write-interval asks for 20 s between calls/),
    ]);
  });

  it("spends at most its budget of calls an hour, all rooms' writes in each call, and says once that it holds writes back", async () => {
    const { writer, writes, logs } = setup({}, 0, 300);
    const all = (i: number) =>
      new Map([
        ['shop', { allow_percentage: String(10 + (i % 50)) }],
        ['checkout', { allow_percentage: String(60 - (i % 50)) }],
        ['blog', { allow_percentage: '5' }],
      ]);
    // Every room offers a change every second for an hour, on a fake clock: 300 calls less a read a minute.
    for (let s = 0; s < 3600; s++) await writer.offer(all(s), {}, T0 + s * 1000);
    expect(writes).toHaveLength(240);
    // Each call carries every room's newest writes.
    expect(writes[1]).toEqual({
      'room.shop.allow_percentage': '25',
      'room.checkout.allow_percentage': '45',
      'room.blog.allow_percentage': '5',
    });
    expect(writer.deferred).toBe(3600 - 240);
    expect(logs.filter((l) => l.includes('held back'))).toEqual([
      expect.stringMatching(/allows a write every 15 s \(300 calls an hour, --api-budget, less a read every 60 s\)/),
    ]);
  });

  it('counts a write that costs several calls (the CLI, key by key) against the budget', async () => {
    const { writer, writes, store } = setup({}, 0, 300);
    store.callsFor = (values) => Object.keys(values).length;
    const three = new Map([
      ['a', { allow_percentage: '10' }],
      ['b', { allow_percentage: '20' }],
      ['c', { allow_percentage: '30' }],
    ]);
    expect((await writer.offer(three, {}, T0)).size).toBe(3);
    expect((await writer.offer(three, {}, T0 + 44_000)).size).toBe(0);
    expect((await writer.offer(three, {}, T0 + 45_000)).size).toBe(3);
    expect(writes).toHaveLength(2);
  });

  it('writes a local store file whenever asked, spaced by --min-write-interval alone: its writes cost no API call', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wr-writer-'));
    try {
      const file = join(dir, 'config.json');
      writeFileSync(file, '{}');
      const budget = new ApiBudget({ perHour: 300, readEveryMs: 0, log: () => {} });
      const free = new Writer(localStore(file), 0, () => {}, budget);
      expect(free.intervalMs(T0)).toBe(0);
      for (let s = 0; s < 5; s++)
        expect(await offer(free, { allow_percentage: String(10 + s) }, T0 + s * 1000)).toBe(true);
      const spaced = new Writer(localStore(file), 3000, () => {}, budget);
      const went: number[] = [];
      for (let s = 0; s < 7; s++)
        if (await offer(spaced, { allow_percentage: String(20 + s) }, T0 + s * 1000)) went.push(s);
      expect(went).toEqual([0, 3, 6]);
      expect(JSON.parse(readFileSync(file, 'utf8'))['room.default.allow_percentage']).toBe('26');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("changes the room's live value, keeping what it does not write", async () => {
    const { writer, writes } = setup({});
    const current = {
      'room.shop.live': JSON.stringify({ allow_schedule: '1800000000=10', queue_cursor: '1800000000:30' }),
    };
    await writer.offer(new Map([['shop', { allow_schedule: '1800000030=12' }]]), current, T0);
    expect(writes).toEqual([
      { 'room.shop.live': JSON.stringify({ allow_schedule: '1800000030=12', queue_cursor: '1800000000:30' }) },
    ]);
  });

  it("puts proof_schedule in the room's live value beside allow_schedule, in the same one call, never in the operator's settings", async () => {
    const { writer, writes } = setup({});
    const current = {
      'room.shop': JSON.stringify({ proof_of_work: 'auto' }),
      'room.shop.live': JSON.stringify({ allow_schedule: '1800000000=10' }),
    };
    await writer.offer(
      new Map([['shop', { allow_schedule: '1800000030=12', proof_schedule: '1800000030=13' }]]),
      current,
      T0,
    );
    expect(writes).toEqual([
      { 'room.shop.live': JSON.stringify({ allow_schedule: '1800000030=12', proof_schedule: '1800000030=13' }) },
    ]);
  });
});

/** A store like Fastly's: read once a minute, each call reported to the budget as the real store does. */
function apiSetup(settings: Record<string, string>) {
  const t = setup(settings, 0);
  const reads: number[] = [];
  let readFails: Error | null = null;
  let writeFails: { error: Error; call?: Partial<StoreCall> } | null = null;
  let now = T0;
  const report = (kind: StoreCall['kind'], o: Partial<StoreCall> = {}) =>
    t.writer.budget.record(
      {
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
      },
      now,
    );
  const inner = t.store;
  const store: Store = {
    name: 'fake Fastly store',
    readEveryMs: 60_000,
    async read() {
      reads.push(now);
      if (readFails !== null) {
        report('read', { ok: false, status: 503 });
        throw readFails;
      }
      report('read');
      return inner.read();
    },
    async write(values) {
      if (writeFails !== null) {
        report('write', { ok: false, ...writeFails.call });
        throw writeFails.error;
      }
      report('write');
      return inner.write(values);
    },
  };
  const writer = new Writer(store, 0, (m) => t.logs.push(m), t.writer.budget);
  const controller = new Controller({
    createModel: () => createControlModel(),
    store,
    writer,
    sourceName: 'test',
    lagLimitMs: 60_000,
    log: (m) => t.logs.push(m),
  });
  /** Ticks every second over [from, to) s after T0, with a crowd admitted past the target. */
  const run = async (from: number, to: number) => {
    for (let sec = from; sec < to; sec++) {
      now = T0 + sec * 1000;
      for (let i = 0; i < 5; i++) controller.line(admitted(now - 500 + i * 100, sec * 5 + i), now);
      await controller.tick(now);
    }
  };
  return {
    ...t,
    controller,
    reads,
    run,
    failReads: (e: Error | null) => (readFails = e),
    failWrites: (e: Error | null, call?: Partial<StoreCall>) => (writeFails = e === null ? null : { error: e, call }),
  };
}

describe('the controller on the API budget', () => {
  it("holds the operator's reads to the budget too: a SIGHUP with the hour spent waits for the hour to free a call", async () => {
    const t = apiSetup({ allow_percentage: '100', new_users_per_minute: '60', wait_period_duration: '30' });
    await t.run(0, 2);
    t.writer.budget.record(
      {
        kind: 'write',
        calls: 300,
        ok: true,
        status: 200,
        keys: [],
        remaining: null,
        resetMs: null,
        retryAfterMs: null,
        error: null,
      },
      T0 + 2000,
    );
    t.controller.requestRead('SIGHUP');
    await t.run(2, 120);
    expect(t.reads.map((ms) => (ms - T0) / 1000)).toEqual([0]);
  });

  it('reads at start and once a minute, not every tick and not after its own writes', async () => {
    const t = apiSetup({ allow_percentage: '100', new_users_per_minute: '60', wait_period_duration: '30' });
    await t.run(0, 600);
    expect(t.reads.map((ms) => (ms - T0) / 1000)).toEqual([0, 60, 120, 180, 240, 300, 360, 420, 480, 540]);
    expect(t.writes.length).toBeGreaterThan(0);
    const api = t.controller.snapshot(T0 + 599_000).api;
    expect(api).toMatchObject({
      perHour: 300,
      usedLastHour: { reads: 10, writes: t.writes.length, heartbeats: 0 },
      backoffUntilMs: null,
      nextReadMs: T0 + 600_000,
    });
  });

  it('reads right after a write whose outcome is unknown (a timeout, a 5xx), not after a refused one', async () => {
    const t = apiSetup({ allow_percentage: '100', new_users_per_minute: '60', wait_period_duration: '30' });
    t.failWrites(new ApiError('the Fastly API did not answer within 30 s (PATCH /items)', null, true), {
      status: null,
    });
    await t.run(0, 12);
    const failedAt = t.controller.snapshot(T0 + 12_000).lastWrite!.atMs;
    expect(t.reads.map((ms) => ms - T0)).toEqual([0, failedAt - T0 + 1000]);
    const refused = apiSetup({ allow_percentage: '100', new_users_per_minute: '60', wait_period_duration: '30' });
    refused.failWrites(new ApiError('the Fastly API answered 400', 400, false), { status: 400 });
    await refused.run(0, 30);
    expect(refused.reads).toEqual([T0]);
  });

  it("reads at the next tick when the operator asks (SIGHUP, the dashboard's POST /api/read)", async () => {
    const t = apiSetup({ allow_percentage: '100' });
    await t.run(0, 10);
    t.controller.requestRead('SIGHUP');
    await t.run(10, 20);
    expect(t.reads.map((ms) => (ms - T0) / 1000)).toEqual([0, 10]);
  });

  it('on a 429 holds and calls nothing until the reset the API named, says so once, then writes again', async () => {
    const t = apiSetup({ allow_percentage: '100', new_users_per_minute: '60', wait_period_duration: '30' });
    const reset = T0 + 300_000;
    t.failWrites(new ApiError('the Fastly API answered 429', 429, false), {
      status: 429,
      remaining: 0,
      resetMs: reset,
    });
    await t.run(0, 12);
    const limitedAt = t.controller.snapshot(T0 + 12_000).lastWrite!.atMs;
    t.failWrites(null);
    const readsBefore = t.reads.length;
    await t.run(12, 299);
    expect(t.reads).toHaveLength(readsBefore);
    expect(t.writes).toEqual([]);
    const snap = t.controller.snapshot(T0 + 298_000);
    expect(snap).toMatchObject({
      holding: true,
      holdingWhy: expect.stringMatching(/rate limit is spent \(429\): calling nothing until 12:05:00 UTC/),
      api: { backoffUntilMs: reset },
    });
    expect(t.logs.filter((l) => l.includes('429'))).toEqual([
      expect.stringMatching(
        /answered 429 \(its rate limit is spent\): calling nothing, holding, until 2026-11-24T12:05:00.000Z/,
      ),
      expect.stringMatching(/^holding, writing nothing: the Fastly API rate limit is spent/),
    ]);
    expect(limitedAt).toBeLessThan(reset);
    await t.run(300, 340);
    expect(t.reads.length).toBeGreaterThan(readsBefore);
    expect(t.writes.length).toBeGreaterThan(0);
    expect(t.controller.snapshot(T0 + 340_000).holding).toBe(false);
  });

  it('a read that fails keeps the values read last, goes on controlling while they are fresh, and tries again after 10 s, 20, 40, then every 60 s', async () => {
    const t = apiSetup({ allow_percentage: '100', new_users_per_minute: '60', wait_period_duration: '30' });
    await t.run(0, 60);
    t.failReads(new ApiError('the Fastly API answered 503 to GET /items (upstream): a fault at Fastly', 503, true));
    await t.run(60, 90);
    expect(t.reads.map((ms) => (ms - T0) / 1000)).toEqual([0, 60, 70]);
    const snap = t.controller.snapshot(T0 + 90_000);
    expect(snap.holding).toBe(false);
    expect(snap.rooms[0]!.model.targets.newUsersPerMinute).toBe(60);
    // Still failing two read intervals after the last good one: the settings may be stale, so it holds.
    await t.run(90, 181);
    expect(t.controller.snapshot(T0 + 181_000)).toMatchObject({
      holding: true,
      holdingWhy: expect.stringMatching(/cannot read the settings from fake Fastly store: the Fastly API answered 503/),
    });
    expect(t.controller.snapshot(T0 + 181_000).rooms[0]!.model.targets.newUsersPerMinute).toBe(60);
    // A 5xx outage spends a read a minute, not 360 an hour.
    await t.run(181, 400);
    expect(t.reads.map((ms) => (ms - T0) / 1000)).toEqual([0, 60, 70, 90, 130, 190, 250, 310, 370]);
  });
});
