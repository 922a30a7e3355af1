// A whole run on a fake clock against the room's real handler: minutes, totals and verdicts agree
// with what the browsers lived through.
import { describe, expect, it } from 'vitest';
import { runLoad } from '../../load/run.js';
import type { MinuteRow } from '../../load/tally.js';
import { FakeClock, fakeNet } from './fakes.js';

async function fakeRun(settings: Record<string, string>, extra: { minutes?: number; abortAtMs?: number } = {}) {
  const clock = new FakeClock();
  const net = fakeNet(clock, { wait_period_duration: '30', ...settings });
  const lines: MinuteRow[] = [];
  const stop = new AbortController();
  const running = runLoad({
    visitors: 60,
    shape: 'flash',
    ratePerMinute: null,
    flashSeconds: 10,
    minutes: extra.minutes ?? 4,
    seed: '3',
    tag: 't',
    send: net.send,
    clock,
    readTarget: async () => 10,
    onMinute: (row) => lines.push(row),
    signal: stop.signal,
  });
  if (extra.abortAtMs !== undefined) {
    await clock.advance(extra.abortAtMs);
    stop.abort();
  } else {
    await clock.advance((extra.minutes ?? 4) * 60_000);
  }
  return { result: await running, lines, net };
}

describe('runLoad', () => {
  it('reports every minute and adds up', async () => {
    const { result, lines, net } = await fakeRun({ allow_percentage: '20' });
    expect(lines.map((l) => l.minute)).toEqual([1, 2, 3, 4]);
    expect(result.rows).toEqual(lines);
    expect(result.rows[0]!.arrivals).toBe(60);
    expect(result.totals.requests).toBe(net.log.length);
    expect(result.totals.admissions).toBe(result.endState.admitted);
    expect(result.totals.admissions).toBeGreaterThan(10);
    // Each visitor is its own identity: sixty visitors, sixty tokens in the first minute.
    const firstTokens = new Set(net.log.filter((r) => r.cookie === null).map((r) => r.visitor));
    expect(firstTokens.size).toBe(60);
    const last = result.rows[result.rows.length - 1]!;
    expect(last.waiting).toBe(result.endState.waiting);
    expect(result.rows.every((r) => r.target === 10)).toBe(true);
    expect(result.verdicts.map((v) => v.minute)).toEqual([3, 4]);
    expect(result.errorCauses).toEqual({});
  });

  it('ends early on abort, with the minutes so far', async () => {
    const { result, lines } = await fakeRun({ allow_percentage: '20' }, { minutes: 10, abortAtMs: 90_000 });
    expect(lines.map((l) => l.minute)).toEqual([1]);
    expect(result.rows.map((r) => r.minute)).toEqual([1, 2]);
    expect(result.durationMs).toBe(90_000);
  });
});
