// The queue's cursor under a sampled log (log_sample_rate, docs/control/log.md#sampling-the-log): the edge
// logs a waiting decision only when one of its tokens is in the sample, weighted 1/rate, and every
// admission. The same crowd is fed to one model unsampled and to another through the sample: what
// they publish (the cursor's speed, the pre-queue's pace, the counts) must agree within a few %.
import { describe, expect, it } from 'vitest';
import { createControlModel } from '../../../control/model/control-model.js';
import { countsText, cursorSpeed, QueueTracker } from '../../../control/model/queue.js';
import type { DecisionLine } from '../../../control/types.js';
import { inLogSample, isWaitingDecision } from '../../../src/core/log/log-sample.js';
import { tokenIds } from '../../support/token-ids.js';
import { LIVE, parsedLine } from '../lines.js';

const D = 30;
const T0 = 1_800_000_000 - (1_800_000_000 % D); // a window boundary
const RATE = 0.1;
const iso = (sec: number) => new Date(sec * 1000).toISOString();

/** What the edge logs of `line` at sample rate `rate`: the line with its weight, or null (left out). */
function edge(line: DecisionLine, rate: number): DecisionLine | null {
  if (!isWaitingDecision(line.outcome, line.dec, line.newDec)) return line;
  const sampled = [line.tid, line.newTid].some((id) => id !== null && inLogSample(id, rate));
  return sampled ? { ...line, weight: 1 / rate } : null;
}

/**
 * A first-come crowd of `n` arriving evenly over `spanSec` from T0, each with a place (its arrival)
 * and a token; those who arrived in the first half have checked once since and renewed to a new token
 * (a new id, the same place). The first `admitted` places were passed by the cursor and let in.
 */
function fifoCrowd(n: number, spanSec: number, admitted: number): DecisionLine[] {
  const first = tokenIds(n, 11);
  const second = tokenIds(n, 23);
  const lines: DecisionLine[] = [];
  for (let i = 0; i < n; i++) {
    const pos = T0 + (spanSec * (i + 0.5)) / n;
    const at = Math.floor(pos);
    const exp = Math.floor(at / D) * D + 2 * D;
    lines.push(
      parsedLine({ tsMs: at * 1000, reason: 'no_token', newTid: first[i]!, newExp: exp, newDec: 'wait', pos }, D),
    );
    if (i < admitted) {
      lines.push(
        parsedLine(
          {
            tsMs: (at + D) * 1000,
            reason: 'cursor_passed',
            decision: 'allow',
            outcome: 'origin',
            tid: first[i]!,
            exp,
            dec: 'wait',
            newTid: second[i]!,
            newExp: at + 3600,
            newDec: 'allow',
            pos,
          },
          D,
        ),
      );
    } else if (pos < T0 + spanSec / 2) {
      lines.push(
        parsedLine(
          {
            tsMs: (at + D) * 1000,
            reason: 'queue_waiting',
            decision: 'wait',
            outcome: 'keepwaiting',
            tid: first[i]!,
            exp,
            dec: 'wait',
            newTid: second[i]!,
            newExp: exp + D,
            newDec: 'wait',
            pos,
          },
          D,
        ),
      );
    }
  }
  return lines.sort((a, b) => a.tsMs - b.tsMs);
}

const fifoSettings = (cursor: number, now: number) => ({
  wait_period_duration: String(D),
  allow_percentage: '1',
  new_users_per_minute: '20000',
  queueing_method: 'fifo',
  queue_cursor: `${now}:${cursor}:0`,
});

/** The speed (positions a minute) and the counts the model publishes at `nowSec` after `lines`. */
function published(lines: readonly DecisionLine[], settings: Record<string, string>, nowSec: number) {
  const model = createControlModel({ leadSeconds: 25 });
  model.settings(settings, nowSec * 1000);
  for (const l of lines) model.observe(l);
  const writes = model.plan(nowSec * 1000, LIVE)!;
  const perMinute = Number(writes.queue_cursor!.split(':')[2]) * 60;
  const counts = writes.queue_counts!.split(',').map((e) => e.split('=').map(Number) as [number, number]);
  return { perMinute, counts, snapshot: model.snapshot(nowSec * 1000) };
}

/** The count the edge reads for position `pos` off `counts` (linear between entries). */
function countAt(counts: readonly [number, number][], pos: number): number {
  for (let i = 1; i < counts.length; i++) {
    const [p1, c1] = counts[i]!;
    if (pos <= p1) {
      const [p0, c0] = counts[i - 1]!;
      return c0 + ((c1 - c0) * (pos - p0)) / (p1 - p0);
    }
  }
  return counts.at(-1)![1];
}

describe('a first-come queue through a sampled log', () => {
  // 60,000 places over 80 s (750 a second), the first 3,000 passed and let in; the cursor 4 s in.
  const n = 60_000;
  const span = 80;
  const lines = fifoCrowd(n, span, 3000);
  const now = T0 + span + 5;
  const cursor = T0 + 4;
  const full = published(lines, fifoSettings(cursor, now), now);
  const sampled = published(
    lines.map((l) => edge(l, RATE)).filter((l): l is DecisionLine => l !== null),
    fifoSettings(cursor, now),
    now,
  );

  it('moves the cursor at the unsampled speed, within a few %', () => {
    // Unsampled: 20,000 places a minute at 750 a second is 26.7 positions a minute.
    expect(full.perMinute).toBeCloseTo(20_000 / 750, 1);
    expect(
      Math.abs(sampled.perMinute / full.perMinute - 1),
      `${sampled.perMinute} against ${full.perMinute}`,
    ).toBeLessThanOrEqual(0.05);
  });

  it('counts those ahead of the cursor as the unsampled queue does, within a few %', () => {
    expect(full.snapshot.queue!.ahead).toBe(n - 3000);
    expect(Math.abs(sampled.snapshot.queue!.ahead / full.snapshot.queue!.ahead - 1)).toBeLessThanOrEqual(0.05);
    // The place in line the edge reads off the counts, a third of the way in.
    const pos = T0 + span / 3;
    expect(Math.abs(countAt(sampled.counts, pos) / countAt(full.counts, pos) - 1)).toBeLessThanOrEqual(0.05);
  });
});

describe('a weighted place', () => {
  it('is spread over the positions since the sampled place before it, so the cursor aims between sampled places', () => {
    // One place every 0.1 s, unsampled; one in ten of them, at weight 10, sampled.
    const every = Array.from({ length: 600 }, (_, i) => 100 + (i + 1) / 10);
    const tenth = every.filter((_, i) => i % 10 === 9);
    const input = { nowSec: 0, cursor: 100, wanted: 25, unknown: null, arrivals: null, limit: 1000 };
    const unsampled = cursorSpeed({ ...input, ahead: every });
    const weighted = cursorSpeed({ ...input, ahead: tenth, weights: tenth.map(() => 10) });
    // 25 places: 2.5 s of the line, not the 3 s of the third sampled place.
    expect(unsampled * 60).toBeCloseTo(2.5, 6);
    expect(weighted * 60).toBeCloseTo(2.5, 6);
  });
});

describe('the speed under a sampled log, with a stretch the cursor passed', () => {
  it('reads the density of those who came in there (exact: every admission is logged) with the sampled places ahead, each by how many places it rests on', () => {
    // 25 sampled places ahead (250 places) over 10 s; behind, 500 came in over 25 positions.
    const ahead = Array.from({ length: 40 }, (_, i) => 100 + (i + 1) * 0.4);
    const input = {
      nowSec: 0,
      cursor: 100,
      wanted: 250,
      ahead,
      weights: ahead.map(() => 10),
      unknown: null,
      arrivals: null,
      limit: 1000,
    };
    expect(cursorSpeed(input) * 60).toBeCloseTo(10, 6);
    const blended = cursorSpeed({ ...input, behind: { cameIn: 500, mass: 500, span: 25 } });
    // Densities 25 and 20 a position, averaged over 25 sampled places and 500 admissions.
    expect(blended * 60).toBeCloseTo(250 / ((25 * 25 + 500 * 20) / 525), 1);
    // Too few admissions behind to say anything: the places ahead alone.
    expect(cursorSpeed({ ...input, behind: { cameIn: 20, mass: 20, span: 1 } }) * 60).toBeCloseTo(10, 6);
  });
});

describe('a pre-queue through a sampled log', () => {
  const START = T0 + 3600;
  const pre = tokenIds(20_000, 31);
  const joined = pre.map((tid, i) =>
    parsedLine(
      {
        tsMs: (START - 200) * 1000 + i,
        reason: 'prequeue_joined',
        outcome: 'prequeue',
        decision: 'start',
        newDec: 'pre',
        newTid: tid,
        newExp: START,
      },
      D,
    ),
  );
  const seen = joined.map((l) => edge(l, RATE)).filter((l): l is DecisionLine => l !== null);

  it('is counted from its weighted tokens, within a few % of its size', () => {
    const t = new QueueTracker();
    for (const l of seen) t.observe(l, START);
    expect(Math.abs(t.prequeueSize((START - 100) * 1000) / pre.length - 1)).toBeLessThanOrEqual(0.05);
  });

  it("drains at the target's share of it a minute, as unsampled", () => {
    const settings = {
      wait_period_duration: String(D),
      allow_percentage: '100',
      new_users_per_minute: '2000',
      event_prequeue_start: iso(START - 3600),
      event_start: iso(START),
    };
    const speed = (lines: readonly DecisionLine[]) => {
      const model = createControlModel({ leadSeconds: 25 });
      model.settings(settings, (START - 600) * 1000);
      for (const l of lines) model.observe(l);
      return Number(model.plan((START - 25) * 1000, LIVE)!.queue_cursor!.split(':')[2]) * 60;
    };
    // A tenth of the pre-queue a minute: a tenth of its second.
    expect(speed(joined)).toBeCloseTo(0.1, 6);
    expect(Math.abs(speed(seen) / 0.1 - 1)).toBeLessThanOrEqual(0.05);
  });
});

describe('a change of log_sample_rate mid-queue', () => {
  // 40,000 first-come places, each seen with its token at 380 s; at 400 s the first half checks again
  // and renews to a new token (the same place). The rate changes between the two.
  const n = 40_000;
  const first = tokenIds(n, 41);
  const second = tokenIds(n, 43);
  const now = T0 + 410;
  const joined = (i: number) => {
    const pos = T0 + (400 * (i + 0.5)) / n;
    return parsedLine(
      {
        tsMs: (T0 + 380) * 1000,
        reason: 'queue_waiting',
        decision: 'wait',
        outcome: 'keepwaiting',
        newTid: first[i]!,
        newExp: T0 + 420,
        newDec: 'wait',
        pos,
      },
      D,
    );
  };
  const renewed = (i: number) => {
    const l = joined(i);
    return parsedLine(
      {
        tsMs: (T0 + 400) * 1000 + i,
        reason: 'queue_waiting',
        decision: 'wait',
        outcome: 'keepwaiting',
        tid: first[i]!,
        exp: l.newExp,
        dec: 'wait',
        newTid: second[i]!,
        newExp: T0 + 460,
        newDec: 'wait',
        pos: l.pos,
      },
      D,
    );
  };
  const count = (before: number, after: number) => {
    const t = new QueueTracker();
    const through = (l: DecisionLine, rate: number) => {
      const seen = edge(l, rate);
      if (seen !== null) t.observe(seen, null);
    };
    for (let i = 0; i < n; i++) through(joined(i), before);
    for (let i = 0; i < n / 2; i++) through(renewed(i), after);
    return t.live(T0, now * 1000, D).total;
  };

  it('lowered from 1 to 0.1: drops the places outside the smaller sample and counts the rest at 10, within a few % of the queue', () => {
    expect(count(1, 1)).toBe(n);
    const lowered = count(1, RATE);
    expect(Math.abs(lowered / n - 1), `${lowered} of ${n}`).toBeLessThanOrEqual(0.05);
  });

  it('raised from 0.1 to 1: those not seen since count at 10, those seen since at 1, nothing twice', () => {
    const raised = count(RATE, 1);
    expect(Math.abs(raised / n - 1), `${raised} of ${n}`).toBeLessThanOrEqual(0.05);
  });

  it('still reads the admissions made before the rate went below 1 in the stretch the cursor passed', () => {
    const t = new QueueTracker();
    for (let i = 0; i < 100; i++)
      t.observe(
        parsedLine(
          { tsMs: (T0 + 60) * 1000, reason: 'cursor_passed', decision: 'allow', outcome: 'origin', pos: T0 + i / 10 },
          D,
        ),
        null,
      );
    const [tid] = tokenIds(200, 47).filter((id) => inLogSample(id, RATE));
    t.observe(
      parsedLine(
        {
          tsMs: (T0 + 70) * 1000,
          reason: 'queue_waiting',
          decision: 'wait',
          outcome: 'keepwaiting',
          newTid: tid!,
          newExp: T0 + 120,
          newDec: 'wait',
          pos: T0 + 20,
          weight: 1 / RATE,
        },
        D,
      ),
      null,
    );
    expect(t.cameInBetween(T0, T0 + 10, (T0 + 80) * 1000)).toBe(100);
  });
});

describe('the first-come places after the last sampled one', () => {
  it('are counted already, on average: the counts and the speed agree with the unsampled queue', () => {
    // 100 places over 10 s, the log read to their end, 10 arrivals a second since; each is tracked
    // with chance 0.1 (its token in the sample), at weight 10. Averaged over 400 crowds. The weights
    // add up to the queue on average (10 per sampled place, a tenth of them sampled): the ~9 unseen
    // after the last sampled place are in that sum already, carried by the gaps before the sampled
    // ones. Spreading 9 more over the tail would count them twice (108 of 100, measured).
    const n = 100;
    const every = Array.from({ length: n }, (_, i) => 100 + (i + 1) / 10);
    const input = {
      nowSec: 110,
      cursor: 100,
      wanted: n + 100,
      unknown: null,
      arrivals: { perSecond: 10, knownTo: 110 },
      limit: 170,
    };
    const full = {
      count: countAt(parseCounts(countsText({ ...input, ahead: every }, 1)), 110),
      speed: cursorSpeed({ ...input, ahead: every }),
    };
    let count = 0;
    let speed = 0;
    const crowds = 400;
    for (let c = 0; c < crowds; c++) {
      const ids = tokenIds(n, 1000 + c);
      const ahead = every.filter((_, i) => inLogSample(ids[i]!, RATE));
      const weights = ahead.map(() => 1 / RATE);
      count += countAt(parseCounts(countsText({ ...input, ahead, weights }, 1)), 110) / crowds;
      speed += cursorSpeed({ ...input, ahead, weights }) / crowds;
    }
    expect(full.count).toBe(n);
    expect(Math.abs(count / n - 1), `${count} against ${n}`).toBeLessThanOrEqual(0.03);
    expect(Math.abs(speed / full.speed - 1), `${speed * 60} against ${full.speed * 60}`).toBeLessThanOrEqual(0.02);
  });
});

function parseCounts(text: string): [number, number][] {
  return text.split(',').map((e) => e.split('=').map(Number) as [number, number]);
}
