// The controller's journal: one JSON line per API call or local write, appended, with what each room's
// keys said, so `npm run report` and an operator can read back every call of an event.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { journalLine, openJournal, roomsOf } from '../../../control/store/journal.js';
import { localStore } from '../../../control/store/writer.js';
import type { StoreCall } from '../../../control/store/api-budget.js';

const dir = mkdtempSync(join(tmpdir(), 'wr-journal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const T0 = Date.UTC(2026, 10, 26, 10);

const write: StoreCall = {
  kind: 'write',
  calls: 1,
  ok: true,
  status: 200,
  keys: ['room.shop.live', 'room.shop.allow_percentage', 'room.blog.live'],
  values: {
    'room.shop.live': '{"allow_schedule":"1800000000=12","queue_cursor":"1800000000:30"}',
    'room.shop.allow_percentage': '40',
    'room.blog.live': '',
  },
  remaining: 812,
  resetMs: null,
  retryAfterMs: null,
  error: null,
};

describe('the journal', () => {
  it("names each room's settings a write carried, as the spec's line", () => {
    expect(journalLine(write, T0)).toEqual({
      ts: '2026-11-26T10:00:00.000Z',
      kind: 'write',
      ok: true,
      status: 200,
      calls: 1,
      keys: ['room.shop.live', 'room.shop.allow_percentage', 'room.blog.live'],
      rooms: {
        shop: { allow_schedule: '1800000000=12', queue_cursor: '1800000000:30', allow_percentage: '40' },
        blog: { live: '' },
      },
      remaining: 812,
      error: null,
    });
    expect(roomsOf({ controller: '{"id":"ab12cd34"}', settings: '{}' })).toEqual({});
  });

  it('appends one line per call to the file, and a local write too', async () => {
    const file = join(dir, 'journal.jsonl');
    const journal = openJournal(file, () => {});
    journal.append(write, T0);
    journal.append(
      {
        ...write,
        kind: 'read',
        keys: [],
        values: undefined,
        ok: false,
        status: 429,
        remaining: 0,
        error: 'the Fastly API answered 429',
      },
      T0 + 1000,
    );
    const config = join(dir, 'config.json');
    writeFileSync(config, '{}');
    const store = localStore(config, (c) => journal.append(c, T0 + 2000));
    await store.write({ 'room.default.allow_percentage': '30' });
    await journal.close();
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.ts, l.kind, l.ok, l.status, l.calls])).toEqual([
      ['2026-11-26T10:00:00.000Z', 'write', true, 200, 1],
      ['2026-11-26T10:00:01.000Z', 'read', false, 429, 1],
      ['2026-11-26T10:00:02.000Z', 'write', true, null, 0],
    ]);
    expect(lines[2]!.rooms).toEqual({ default: { allow_percentage: '30' } });
  });

  it('says once that it cannot write the file, and the controller goes on', async () => {
    const logs: string[] = [];
    const journal = openJournal(join(dir, 'no-such-dir', 'journal.jsonl'), (m) => logs.push(m));
    journal.append(write, T0);
    await journal.close();
    journal.append(write, T0);
    expect(logs).toEqual([
      expect.stringMatching(
        /^cannot write the journal .*no-such-dir\/journal.jsonl \(ENOENT.*\); controlling without it$/,
      ),
    ]);
  });
});

describe("each room's target in the journal", () => {
  it('rides the first write after the controller reads it, and the first after it changes, and the report reads it', async () => {
    const { journalTargets } = await import('../../../control/store/journal-targets.js');
    const { newJournal, journalLine: reportLine, targetAt } = await import('../../../report/journal.js');
    const settings = (n: string) => ({
      routing: JSON.stringify({
        rooms: [
          { id: 'shop', routes: ['/'] },
          { id: 'checkout', routes: ['/checkout'] },
        ],
        default_room: 'shop',
      }),
      settings: JSON.stringify({ allow_percentage: '50' }),
      'room.shop': JSON.stringify({ new_users_per_minute: n }),
    });
    const targets = journalTargets();
    targets.read(settings('120'));
    const first = targets.withTargets(journalLine(write, T0));
    expect(first.rooms.shop).toMatchObject({ new_users_per_minute: '120', allow_schedule: '1800000000=12' });
    // checkout has no target: it is said as none ('') only once it had one.
    expect(first.rooms.checkout).toBeUndefined();
    expect(targets.withTargets(journalLine(write, T0 + 1000)).rooms.shop!.new_users_per_minute).toBeUndefined();
    targets.read(settings('200'));
    const changed = targets.withTargets(journalLine(write, T0 + 120_000));
    expect(changed.rooms.shop!.new_users_per_minute).toBe('200');

    const j = newJournal();
    for (const line of [first, changed]) reportLine(j, JSON.stringify(line));
    expect(targetAt(j, 'shop', T0 + 30_000)).toBe(120);
    expect(targetAt(j, 'shop', T0 + 300_000)).toBe(200);
  });
});

describe("each room's lanes in the journal", () => {
  it('ride the first write after they are read, and the first after they change, and the report reads them', async () => {
    const { journalTargets } = await import('../../../control/store/journal-targets.js');
    const { newJournal, journalLine: reportLine } = await import('../../../report/journal.js');
    const settings = (lanes: string) => ({
      settings: JSON.stringify({ allow_percentage: '50', new_users_per_minute: '120', lanes }),
    });
    const targets = journalTargets();
    targets.read(settings('members:30'));
    const first = targets.withTargets(journalLine(write, T0));
    expect(first.rooms.default).toMatchObject({ lanes: 'members:30' });
    expect(targets.withTargets(journalLine(write, T0 + 1000)).rooms.default?.lanes).toBeUndefined();
    targets.read(settings('members:30,presale:20'));
    const changed = targets.withTargets(journalLine(write, T0 + 60_000));
    expect(changed.rooms.default!.lanes).toBe('members:30,presale:20');
    const j = newJournal();
    for (const line of [first, changed]) reportLine(j, JSON.stringify(line));
    expect(j.lanes.get('default')).toBe('members:30,presale:20');
  });
});

describe("an autopilot's rate in the journal", () => {
  it('rides every write line of a room in target_mode=auto, with its state and objective, and none of a manual room', async () => {
    const { journalTargets } = await import('../../../control/store/journal-targets.js');
    const targets = journalTargets();
    let rate = 240;
    targets.pacedBy(
      () =>
        new Map([
          [
            'shop',
            {
              state: 'raising' as const,
              why: 'raised',
              ratePerMinute: rate,
              floorPerMinute: 60,
              ceilingPerMinute: 600,
              objective: { latencyMs: 800, percentile: 90, errorShare: 0.01 },
              latencyMs: 300,
              errorShare: 0,
              requests: 500,
            },
          ],
          ['checkout', null],
        ]),
    );
    const first = targets.withTargets(journalLine(write, T0));
    expect(first.rooms.shop).toMatchObject({
      target_mode: 'auto',
      pace_rate: '240',
      pace_state: 'raising',
      origin_latency_ms: '800',
      origin_latency_percentile: '90',
      origin_error_percent: '1',
    });
    expect(first.rooms.checkout).toBeUndefined();
    rate = 0;
    expect(targets.withTargets(journalLine(write, T0 + 20_000)).rooms.shop!.pace_rate).toBe('0');
  });
});
