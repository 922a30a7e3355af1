// The controller's journal into API calls a minute, what it published and the targets it wrote.
import { describe, expect, it } from 'vitest';
import { journalLine, newJournal, targetAt } from '../../report/journal.js';

const T0 = Date.UTC(2026, 10, 26, 10, 0, 0);
const entry = (s: number, f: Record<string, unknown>): string =>
  JSON.stringify({
    ts: new Date(T0 + s * 1000).toISOString(),
    kind: 'read',
    ok: true,
    status: 200,
    calls: 1,
    keys: [],
    rooms: {},
    remaining: 800,
    error: null,
    ...f,
  });

describe("the report reads the controller's journal", () => {
  it('counts reads, writes, heartbeats and log-tail starts a minute, the failed ones and the 429s, and the limit left', () => {
    const j = newJournal();
    for (const l of [
      entry(1, {}),
      entry(2, { kind: 'write', calls: 2, remaining: 797 }),
      entry(3, { kind: 'heartbeat', ok: false, status: 429, remaining: 0, error: 'rate limited' }),
      // A start of `fastly log-tail` (it turns the log stream on): a call, no rate-limit figure.
      entry(4, { kind: 'log-tail', status: null, remaining: null }),
      // The local store file: a write, but no API call.
      entry(61, { kind: 'write', calls: 0, status: null, remaining: null }),
    ])
      expect(journalLine(j, l)).toBe(true);
    expect(j.minutes.get(T0)).toEqual({
      read: 1,
      write: 2,
      heartbeat: 1,
      logTail: 1,
      writesMade: 1,
      failed: 1,
      limited: 1,
      remaining: 0,
    });
    expect(j.minutes.get(T0 + 60_000)).toMatchObject({ write: 0, writesMade: 1, remaining: null });
  });

  it('skips lines that are not journal lines, and counts them', () => {
    const j = newJournal();
    for (const l of ['not json', '[1]', '{"ts":"yesterday","kind":"read"}', entry(0, { kind: 'delete' }), ''])
      journalLine(j, l);
    expect(j.skipped).toBe(4);
    expect(j.minutes.size).toBe(0);
  });

  it('keeps the chance each window was published at (last write wins) and the targets written', () => {
    const j = newJournal();
    const w = T0 / 1000;
    journalLine(
      j,
      entry(0, {
        kind: 'write',
        rooms: { shop: { allow_schedule: `${w}=10,${w + 20}=20`, new_users_per_minute: '300' } },
      }),
    );
    journalLine(j, entry(30, { kind: 'write', rooms: { shop: { allow_schedule: `${w + 20}=25.5,${w + 40}=30` } } }));
    journalLine(j, entry(90, { kind: 'write', ok: false, rooms: { shop: { allow_schedule: `${w + 40}=99` } } }));
    expect([...j.schedules.get('shop')!]).toEqual([
      [w, 10],
      [w + 20, 25.5],
      [w + 40, 30],
    ]);
    expect(targetAt(j, 'shop', T0 + 120_000)).toBe(300);
    expect(targetAt(j, 'checkout', T0)).toBeNull();
  });
});
