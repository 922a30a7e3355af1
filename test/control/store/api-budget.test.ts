// The controller's one budget of API calls an hour: its spacing of writes, its count of the trailing
// hour, what it learns from the API's rate-limit headers, and its back-off on a 429. A fake clock.
import { describe, expect, it } from 'vitest';
import { ApiBudget, RESERVED_CALLS, type StoreCall } from '../../../control/store/api-budget.js';

const T0 = Date.UTC(2026, 10, 26, 10);

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

function budget(perHour = 300, readEveryMs = 60_000) {
  const logs: string[] = [];
  return { b: new ApiBudget({ perHour, readEveryMs, log: (m) => logs.push(m) }), logs };
}

/** Drives the budget for `seconds` like the controller: a read every minute, a write offered every second. */
function run(b: ApiBudget, seconds: number, from = T0, costOfWrite = 1): number[] {
  const writesAt: number[] = [];
  let lastRead = -Infinity;
  for (let s = 0; s < seconds; s++) {
    const now = from + s * 1000;
    if (now - lastRead >= b.readEveryMs && b.readAllowed(now)) {
      lastRead = now;
      b.record(call('read'), now);
    }
    if (b.writeWait(now, costOfWrite) === null) {
      b.noteWrite(now, costOfWrite);
      b.record(call('write', { calls: costOfWrite }), now);
      writesAt.push(now);
    }
  }
  return writesAt;
}

describe('the API budget', () => {
  it('spaces writes by what the budget leaves after a read a minute: 300 an hour is a write every 15 s', () => {
    const { b } = budget();
    expect(b.writeIntervalMs(T0)).toBe(15_000);
    const writes = run(b, 3600);
    expect(writes).toHaveLength(240);
    expect(b.used(T0 + 3_599_000)).toEqual({ reads: 60, writes: 240, heartbeats: 0, logTails: 0 });
  });

  it('never spends more than its budget in any trailing hour, whatever else was read', () => {
    const { b, logs } = budget(120);
    // An operator who asks for a read every 5 s for the first ten minutes (SIGHUP in a loop).
    for (let s = 0; s < 600; s += 5) b.record(call('read'), T0 + s * 1000);
    const writes = run(b, 3600, T0 + 600_000);
    const all = [...writes];
    expect(b.used(T0 + 4_199_000).reads + b.used(T0 + 4_199_000).writes).toBeLessThanOrEqual(120);
    expect(all.length).toBeGreaterThan(0);
    expect(b.writeWait(T0 + 600_000 + 1000, 1) ?? '').not.toBe('');
    expect(logs).toEqual([]);
  });

  it("slows down when the token's remaining calls would not last to the reset (npm run tune spent them), and says so once", () => {
    const { b, logs } = budget();
    // Half an hour to the reset and 80 calls left: 30 go to reads, 20 are kept for the operator, 30 for writes.
    b.record(call('read', { remaining: 80, resetMs: T0 + 1_800_000 }), T0);
    expect(b.writeIntervalMs(T0)).toBe(60_000);
    const writes = run(b, 600, T0 + 1000);
    expect(writes.length).toBeLessThanOrEqual(10);
    expect(writes.length).toBeGreaterThanOrEqual(9);
    expect(logs.filter((l) => l.includes('calls left'))).toHaveLength(1);
    expect(logs[0]).toMatch(
      /the API token has \d+ calls left until .* \(another tool spends it too\): writing a call every [\d.]+ s instead of 15 s/,
    );
    // With plenty left, the budget's own spacing again.
    b.record(call('read', { remaining: 900, resetMs: T0 + 1_800_000 }), T0 + 700_000);
    expect(b.writeIntervalMs(T0 + 700_000)).toBe(15_000);
  });

  it('on a 429 calls nothing until the reset the headers name, says so once, then calls again', () => {
    const { b, logs } = budget();
    const reset = T0 + 300_000;
    b.record(call('write', { ok: false, status: 429, remaining: 0, resetMs: reset }), T0);
    b.record(call('read', { ok: false, status: 429, remaining: 0, resetMs: reset }), T0 + 1000);
    expect(b.backoff(T0 + 299_000)).toBe(reset);
    expect(b.writeWait(T0 + 299_000, 1)).toMatch(
      /rate limit is spent \(429\): backing off until 2026-11-26T10:05:00.000Z/,
    );
    expect(b.readAllowed(T0 + 299_000)).toBe(false);
    expect(b.status(T0 + 10_000, T0).backoffUntilMs).toBe(reset);
    expect(logs.filter((l) => l.includes('429'))).toEqual([
      expect.stringMatching(/answered 429 .*holding, until 2026-11-26T10:05:00.000Z \(its Fastly-RateLimit-Reset\)/),
    ]);
    expect(b.backoff(reset)).toBeNull();
    expect(b.writeWait(reset, 1)).toBeNull();
    expect(logs.at(-1)).toBe('the Fastly API rate limit has reset: calling it again');
  });

  it('without a reset header, backs off as Retry-After says, or 60 s', () => {
    const a = budget().b;
    a.record(call('read', { ok: false, status: 429, retryAfterMs: 20_000 }), T0);
    expect(a.backoff(T0)).toBe(T0 + 20_000);
    const c = budget().b;
    c.record(call('read', { ok: false, status: 429 }), T0);
    expect(c.backoff(T0)).toBe(T0 + 60_000);
  });

  it('gives the dashboard its figures', () => {
    const { b } = budget();
    run(b, 120);
    expect(b.status(T0 + 119_000, T0 + 60_000)).toMatchObject({
      perHour: 300,
      usedLastHour: { reads: 2, writes: 8, heartbeats: 0, logTails: 0 },
      remaining: null,
      backoffUntilMs: null,
      nextReadMs: T0 + 120_000,
      why: expect.stringMatching(/a write every 15 s \(300 calls an hour, --api-budget, less a read every 60 s\)/),
    });
  });

  it('counts each start of `fastly log-tail` as a call of its own kind, and spaces the writes to make room for them', () => {
    const { b } = budget();
    // A log-tail that keeps failing: restarted every 30 s for the last hour, 120 starts.
    for (let s = 0; s < 120; s++) b.record(call('log-tail', { status: null }), T0 + s * 30_000);
    const now = T0 + 3_590_000;
    expect(b.used(now)).toEqual({ reads: 0, writes: 0, heartbeats: 0, logTails: 120 });
    // (300 - 60 reads - 120 log-tail starts) writes an hour: one every 30 s, not 15.
    expect(b.writeIntervalMs(now)).toBe(30_000);
    expect(b.status(now, now).why).toMatch(
      /a write every 30 s \(300 calls an hour, --api-budget, less a read every 60 s and 120 log-tail starts in the last hour\)/,
    );
    // An hour later those starts have left the trailing hour: 15 s again.
    expect(b.writeIntervalMs(now + 3_600_000)).toBe(15_000);
  });

  it('lets a log-tail start go while the hour has room, and says until when it waits when it has none', () => {
    const { b } = budget(100);
    expect(b.callWait(T0)).toBeNull();
    for (let s = 0; s < 100; s++) b.record(call('write'), T0 + s * 1000);
    // The hour is spent: the next start waits until the first call leaves the trailing hour.
    expect(b.callWait(T0 + 200_000)).toEqual({
      untilMs: T0 + 3_600_000,
      why: 'the budget of 100 API calls an hour is spent for now (--api-budget)',
    });
    expect(b.callWait(T0 + 3_600_000)).toBeNull();
  });

  it("never lets a log-tail start take the token's last calls, kept for the operator, nor call during a 429's back-off", () => {
    const { b } = budget();
    const reset = T0 + 600_000;
    b.record(call('read', { remaining: RESERVED_CALLS + 1, resetMs: reset }), T0);
    expect(b.callWait(T0 + 1000)).toBeNull();
    b.record(call('log-tail', { status: null }), T0 + 1000);
    expect(b.callWait(T0 + 2000)).toEqual({
      untilMs: reset,
      why: `the API token has ${RESERVED_CALLS} calls left until its reset, all kept for the operator`,
    });
    expect(b.callWait(reset)).toBeNull();
    const c = budget().b;
    c.record(call('read', { ok: false, status: 429, retryAfterMs: 20_000 }), T0);
    expect(c.callWait(T0 + 1000)).toEqual({ untilMs: T0 + 20_000, why: 'the Fastly API rate limit is spent (429)' });
  });

  it('counts a log-tail start from the moment it goes, so a read in the gap before its outcome cannot take the hour past the budget', () => {
    const { b } = budget(10, 0);
    for (let s = 0; s < 9; s++) b.record(call('read'), T0 + s * 1000);
    const take = b.take(T0 + 10_000, 'log-tail');
    expect('go' in take).toBe(true);
    // The CLI runs; its outcome is not known yet, and the hour already holds its call.
    expect(b.used(T0 + 11_000)).toEqual({ reads: 9, writes: 0, heartbeats: 0, logTails: 1 });
    expect(b.readAllowed(T0 + 11_000)).toBe(false);
    expect(b.writeWait(T0 + 11_000, 1)).toMatch(/budget of 10 API calls an hour is spent/);
    // It ends naming a 429: the same call, not a second one, and the budget backs off.
    if ('go' in take) take.go.settle(call('log-tail', { ok: false, status: 429, retryAfterMs: 30_000 }), T0 + 12_000);
    expect(b.used(T0 + 12_000).logTails).toBe(1);
    expect(b.backoff(T0 + 12_000)).toBe(T0 + 42_000);
  });

  it('gives a log-tail start that waited for room the first call the hour frees, not a write or a read', () => {
    const { b } = budget(10, 0);
    for (let s = 0; s < 10; s++) b.record(call('write'), T0 + s * 1000);
    const waited = b.take(T0 + 60_000, 'log-tail');
    expect(waited).toEqual({
      wait: { untilMs: T0 + 3_600_000, why: 'the budget of 10 API calls an hour is spent for now (--api-budget)' },
    });
    // The first write leaves the hour: that call is the log-tail's, which waits for it.
    expect(b.writeWait(T0 + 3_600_000, 1)).toMatch(/budget of 10 API calls an hour is spent/);
    expect(b.readAllowed(T0 + 3_600_000)).toBe(false);
    expect('go' in b.take(T0 + 3_600_500, 'log-tail')).toBe(true);
    expect(b.used(T0 + 3_600_500)).toEqual({ reads: 0, writes: 9, heartbeats: 0, logTails: 1 });
    // Once the next write leaves, the writes go again.
    expect(b.writeWait(T0 + 3_601_000, 1)).toBeNull();
  });

  it('takes back a log-tail start that never ran (the CLI could not be spawned): no API call was made', () => {
    const { b } = budget(10, 0);
    const take = b.take(T0, 'log-tail');
    if ('go' in take) take.go.cancel();
    expect(b.used(T0).logTails).toBe(0);
  });

  it("keeps its trailing hour, its back-off and the token's figures across a restart (saved with the state)", () => {
    const { b } = budget();
    b.record(call('read', { remaining: 500, resetMs: T0 + 1_800_000 }), T0);
    b.record(call('write', { calls: 2 }), T0 + 1000);
    b.record(call('read', { ok: false, status: 429, retryAfterMs: 120_000 }), T0 + 2000);
    const saved = JSON.parse(JSON.stringify(b.saved(T0 + 3000))) as ReturnType<ApiBudget['saved']>;
    const { b: again, logs } = budget();
    // The new process made calls of its own before it read the state file (the store id).
    again.record(call('read'), T0 + 10_000);
    again.restore(saved, T0 + 10_000);
    expect(again.used(T0 + 10_000)).toEqual({ reads: 3, writes: 2, heartbeats: 0, logTails: 0 });
    expect(again.backoff(T0 + 10_000)).toBe(T0 + 122_000);
    // 500 as the API said, less the 2 + 1 calls after it, less the read since the start.
    expect(again.status(T0 + 10_000, T0 + 10_000).remaining).toBe(496);
    expect(logs).toEqual([
      expect.stringMatching(
        /^the state file says the Fastly API answered 429 before the restart: calling nothing, holding, until 2026-11-26T10:02:02.000Z/,
      ),
    ]);
    // Calls older than an hour are not restored.
    const { b: later } = budget();
    later.restore(saved, T0 + 3_601_500);
    expect(later.used(T0 + 3_601_500)).toEqual({ reads: 1, writes: 0, heartbeats: 0, logTails: 0 });
    expect(later.backoff(T0 + 3_601_500)).toBeNull();
  });
});
