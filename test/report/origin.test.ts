// The origin's minutes from the decision log: requests, time to headers at a percentile and errors
// per room, a request no room decided counted for every room, and unreadable fields left out and counted.
import { describe, expect, it } from 'vitest';
import { LogAggregator } from '../../report/aggregate.js';
import { minuteOfRequests, originLine } from './origin-lines.js';

const T0 = Date.UTC(2026, 10, 26, 10, 0, 0);
const M1 = T0 + 60_000;

function read(lines: string[], room?: string) {
  const a = new LogAggregator({ nowMs: T0 + 3_600_000, ...(room === undefined ? {} : { room }) });
  for (const l of lines) a.line(l);
  return a.finish();
}

describe("the report's origin figures", () => {
  it("counts each minute's requests and errors, and keeps their times for any percentile", () => {
    const log = read([
      // 10:00: 90 quick answers and 10 slow ones; 10:01: a 503, a 429, a timeout, a refused connection, a 404.
      ...minuteOfRequests(T0, 100, 0, (i) => (i < 90 ? 100 : 2_000)),
      ...minuteOfRequests(
        M1,
        5,
        100,
        () => 300,
        (i) => [503, 429, 'timeout', 'refused', 404][i]!,
      ),
    ]);
    const shop = log.origin.rooms.get('shop')!;
    const first = shop.get(T0)!;
    expect(first).toMatchObject({ requests: 100, errors: 0 });
    expect(first.times.quantile(0.9)).toBeCloseTo(100, -1);
    expect(first.times.quantile(0.95)).toBeCloseTo(2_000, -2);
    const second = shop.get(M1)!;
    // A 404 is the origin's answer, not an error; a refused connection is an error with no time.
    expect(second).toMatchObject({ requests: 5, errors: 4 });
    expect(second.times.count).toBe(4);
    expect(log.origin.unreadable).toBe(0);
  });

  it('counts a request no room decided for every room, and none for a room the report leaves out', () => {
    const lines = [
      ...minuteOfRequests(
        T0,
        2,
        0,
        () => 50,
        () => 200,
        'shop',
      ),
      ...minuteOfRequests(
        T0,
        3,
        10,
        () => 50,
        () => 200,
        'checkout',
      ),
      originLine(T0 + 1_000, 99, null, 900, 502),
    ];
    const all = read(lines).origin.rooms;
    expect(all.get('shop')!.get(T0)).toMatchObject({ requests: 3, errors: 1 });
    expect(all.get('checkout')!.get(T0)).toMatchObject({ requests: 4, errors: 1 });
    const one = read(lines, 'checkout').origin.rooms;
    expect([...one.keys()]).toEqual(['checkout']);
    expect(one.get('checkout')!.get(T0)).toMatchObject({ requests: 4, errors: 1 });
  });

  it('skips and counts a line whose origin fields are garbage, and still counts its admission', () => {
    const garbage: [unknown, unknown][] = [
      ['fast', 200],
      [-5, 200],
      [12.5, 200],
      [40, 999],
      [40, 'exploded'],
      [40, null],
      [{ ms: 1 }, [200]],
    ];
    const log = read([
      ...minuteOfRequests(T0, 2, 0, () => 40),
      ...garbage.map(([ms, status], i) => originLine(T0 + 5_000 + i, 50 + i, 'shop', ms, status)),
      // Not JSON at all after the marker: the whole line is unusable, as before.
      '{"wr":1,"originMs":',
    ]);
    expect(log.origin.unreadable).toBe(garbage.length);
    expect(log.origin.rooms.get('shop')!.get(T0)).toMatchObject({ requests: 2, errors: 0 });
    expect(log.rooms.get('shop')!.get(T0)!.admissions).toBe(2 + garbage.length);
    expect(log.lines.bad).toBe(1);
  });

  it('has no origin figures for a log from before the edge wrote them', () => {
    const lines = minuteOfRequests(T0, 3, 0, () => 40).map((l) => l.replace(/,"originMs".*\}$/, '}'));
    expect(lines[0]).not.toContain('originMs');
    const log = read(lines);
    expect(log.origin.rooms.size).toBe(0);
    expect(log.rooms.get('shop')!.get(T0)!.admissions).toBe(3);
  });
});
