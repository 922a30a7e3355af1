// The queue's cursor (docs/events.md): how fast it must move to pass the target's share of those
// waiting, what it publishes for the place in line, and how the model drives it through a
// scheduled start and a first-come room, on a fake clock with lines as the edge writes them.
import { describe, expect, it } from 'vitest';
import { createControlModel } from '../../../control/model/control-model.js';
import { countsText, cursorSpeed, QueueTracker } from '../../../control/model/queue.js';
import type { DecisionLine } from '../../../control/types.js';
import { LIVE, parsedLine } from '../lines.js';
import { parseConfig } from '../../../src/core/settings/index.js';

const D = 30;
const START = Date.UTC(2026, 0, 1, 1) / 1000; // a window boundary
const iso = (sec: number) => new Date(sec * 1000).toISOString();

const line = (partial: Partial<DecisionLine> & { tsMs: number; reason: string }): DecisionLine =>
  parsedLine({ decision: 'wait', outcome: 'keepwaiting', ...partial }, D);

const tid = (i: number) => `T${String(i).padStart(7, '0')}`;

describe('the cursor speed', () => {
  it('passes exactly the wanted number of known places in a minute', () => {
    const ahead = Array.from({ length: 1000 }, (_, i) => 100 + i * 0.5); // two places a position
    const speed = cursorSpeed({
      nowSec: 0,
      cursor: 100,
      wanted: 120,
      ahead,
      unknown: null,
      arrivals: null,
      limit: 1000,
    });
    const passed = ahead.filter((p) => p < 100 + speed * 60).length;
    expect(passed).toBe(120);
  });

  it('spreads a pre-queue whose places are not known yet over its second, uniformly', () => {
    const speed = cursorSpeed({
      nowSec: 0,
      cursor: START - 1,
      wanted: 300,
      ahead: [],
      unknown: { count: 3000, from: START - 1, to: START },
      arrivals: null,
      limit: START + 0.001,
    });
    // A tenth of the pre-queue a minute: a tenth of its second.
    expect(speed * 60).toBeCloseTo(0.1, 6);
  });

  it('forecasts first-come arrivals past what the log has shown, and keeps up with them when few wait', () => {
    const now = 1000;
    const busy = cursorSpeed({
      nowSec: now,
      cursor: 980,
      wanted: 240,
      ahead: Array.from({ length: 60 }, (_, i) => 980 + i / 3),
      arrivals: { perSecond: 8, knownTo: now },
      unknown: null,
      limit: now + 60,
    });
    // 60 known, then 180 more at 8 a second: 22.5 s of arrivals past the 20 s known.
    expect(980 + busy * 60).toBeCloseTo(now + 22.5, 6);
    const quiet = cursorSpeed({
      nowSec: now,
      cursor: 995,
      wanted: 240,
      ahead: [996, 997],
      arrivals: { perSecond: 1, knownTo: now },
      unknown: null,
      limit: now + 60,
    });
    expect(995 + quiet * 60).toBeCloseTo(now + 60, 6);
  });

  it('stands still when nothing is wanted (queue_all, a full cap)', () => {
    expect(
      cursorSpeed({ nowSec: 0, cursor: 5, wanted: 0, ahead: [6, 7], unknown: null, arrivals: null, limit: 100 }),
    ).toBe(0);
  });
});

describe('queue_counts', () => {
  it('counts who waits ahead of each position, ascending, in at most a hundred entries, scaled by who comes in', () => {
    const ahead = Array.from({ length: 5000 }, (_, i) => 100 + i / 10);
    const text = countsText({ cursor: 100, ahead, unknown: null, arrivals: null }, 0.8);
    const { config, problems } = parseConfig((k) =>
      k === 'queue_counts' ? text : k === 'allow_percentage' ? '50' : null,
    );
    expect(problems).toEqual([]);
    expect(config.queueCounts.length).toBeLessThanOrEqual(100);
    expect(config.queueCounts[0]).toEqual({ pos: 100, count: 0 });
    expect(config.queueCounts.at(-1)!.count).toBe(4000);
  });

  it('adds the arrivals still to come after the last known place, at their rate', () => {
    const text = countsText({ cursor: 0, ahead: [1, 2, 3], unknown: null, arrivals: { perSecond: 2, knownTo: 10 } }, 1);
    const entries = text.split(',').map((e) => e.split('=').map(Number) as [number, number]);
    expect(entries.at(-2)).toEqual([10, 3]);
    expect(entries.at(-1)).toEqual([3610, 3 + 7200]);
  });
});

describe('the tracker', () => {
  it('forgets a place once its admission is logged, and counts who came in among those passed', () => {
    const t = new QueueTracker();
    for (let i = 0; i < 40; i++) t.observe(line({ tsMs: START * 1000, reason: 'queue_waiting', pos: START + i }), null);
    expect(t.ahead(START, START * 1000, D)).toHaveLength(40);
    // The cursor passes the first 30; 20 of them come in, 10 never come back.
    expect(t.ahead(START + 30, START * 1000 + 1000, D)).toHaveLength(10);
    for (let i = 0; i < 20; i++)
      t.observe(
        line({
          tsMs: START * 1000 + 5000,
          reason: 'cursor_passed',
          decision: 'allow',
          outcome: 'origin',
          pos: START + i,
        }),
        null,
      );
    for (let i = 30; i < 40; i++)
      t.observe(line({ tsMs: START * 1000 + 60_000, reason: 'queue_waiting', pos: START + i }), null);
    t.ahead(START + 30, START * 1000 + (2 * D + 12) * 1000, D);
    expect(t.survival()).toBeCloseTo(20 / 30, 6);
  });

  it('counts the pre-queue by its tokens, one per identity, however often each checks', () => {
    const t = new QueueTracker();
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 50; i++)
        t.observe(
          line({
            tsMs: (START - 600 + round * 100) * 1000,
            reason: 'prequeue_waiting',
            outcome: 'prequeue',
            dec: 'pre',
            tid: tid(i),
          }),
          START,
        );
    }
    expect(t.prequeueSize((START - 300) * 1000)).toBe(50);
  });
});

describe('the model through a scheduled start', () => {
  const settings = {
    wait_period_duration: String(D),
    allow_percentage: '100',
    new_users_per_minute: '300',
    event_prequeue_start: iso(START - 3600),
    event_start: iso(START),
  };

  it("publishes the pre-queue's cursor before the start, at a tenth of a 3,000-strong pre-queue a minute", () => {
    const model = createControlModel({ leadSeconds: 25 });
    model.settings(settings, (START - 600) * 1000);
    for (let i = 0; i < 3000; i++)
      model.observe(
        line({
          tsMs: (START - 200) * 1000,
          reason: 'prequeue_joined',
          outcome: 'prequeue',
          decision: 'start',
          newDec: 'pre',
          newTid: tid(i),
          newExp: START,
        }),
      );
    expect(model.plan((START - 100) * 1000, LIVE)).toBeNull();
    const writes = model.plan((START - 25) * 1000, LIVE)!;
    const [at, pos, speed] = writes.queue_cursor!.split(':').map(Number);
    expect(at).toBe(START);
    expect(pos).toBe(START - 1);
    expect(speed! * 60).toBeCloseTo(0.1, 6);
    expect(writes.queue_counts).toMatch(new RegExp(`^${START - 1}\\.000000=0,`));
  });

  it('holds the cursor under queue_all', () => {
    const model = createControlModel({ leadSeconds: 25 });
    model.settings({ ...settings, queue_all: 'true' }, (START - 600) * 1000);
    for (let i = 0; i < 100; i++)
      model.observe(
        line({
          tsMs: (START - 200) * 1000,
          reason: 'prequeue_joined',
          outcome: 'prequeue',
          newDec: 'pre',
          newTid: tid(i),
          newExp: START,
        }),
      );
    const writes = model.plan((START - 20) * 1000, LIVE)!;
    expect(Number(writes.queue_cursor!.split(':')[2])).toBe(0);
  });
});

describe('the draw under queue_all', () => {
  it('plans no window while the operator holds the room, so none counts as a shortfall afterwards', () => {
    const model = createControlModel({ leadSeconds: 25 });
    const t0 = START * 1000;
    model.settings(
      { wait_period_duration: String(D), allow_percentage: '20', new_users_per_minute: '60', queue_all: 'true' },
      t0,
    );
    for (let i = 0; i < 200; i++)
      model.observe(
        line({
          tsMs: t0 + i * 100,
          reason: 'queue_all',
          decision: 'start',
          outcome: 'startwaiting',
          newDec: 'wait',
          newTid: tid(i),
          newExp: START + 2 * D,
        }),
      );
    expect(model.plan(t0 + 25_000, LIVE)).toBeNull();
    expect(model.snapshot(t0 + 25_000).why).toMatch(/queue_all/);
  });
});
