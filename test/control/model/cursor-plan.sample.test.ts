// The first-come cursor's planner under a sampled log (log_sample_rate, docs/control/log.md#sampling-the-log):
// the stretch the cursor passed that the speed reads, and when the room may open. The cursor is driven
// by hand (its published line set at each tick) and the same crowd is fed unsampled and through the
// sample, on a fake clock.
import { describe, expect, it } from 'vitest';
import { CursorPlanner } from '../../../control/model/cursor-plan.js';
import type { DecisionLine } from '../../../control/types.js';
import { parseConfig } from '../../../src/core/settings/index.js';
import { inLogSample, isWaitingDecision } from '../../../src/core/log/log-sample.js';
import { tokenIds } from '../../support/token-ids.js';
import { parsedLine } from '../lines.js';

const D = 30;
const S = 1_800_000_000 - (1_800_000_000 % D); // a window boundary: the event's start
const RATE = 0.1;
const iso = (sec: number) => new Date(sec * 1000).toISOString();

function edge(line: DecisionLine, rate: number): DecisionLine | null {
  if (rate === 1 || !isWaitingDecision(line.outcome, line.dec, line.newDec)) return line;
  const sampled = [line.tid, line.newTid].some((id) => id !== null && inLogSample(id, rate));
  return sampled ? { ...line, weight: 1 / rate } : null;
}

const config = (settings: Record<string, string>) => parseConfig((k) => settings[k] ?? null).config;

/** A cursor line as published: `at:pos:speed`. */
type Line = { at: number; pos: number; speed: number };
const cursorAt = (l: Line, sec: number) => l.pos + (sec - l.at) * l.speed;

/**
 * Runs a planner over `ticks` (epoch s, every 10 s): at each, the settings with the cursor line
 * `cursor(sec)` (null: none published), the lines up to then, and a plan; returns the last tick's speed
 * in positions a minute. `lines` ascending; passed through the edge's sample at `rate`.
 */
function drive(
  rate: number,
  settings: Record<string, string>,
  cursor: (sec: number) => Line | null,
  lines: readonly DecisionLine[],
  ticks: readonly number[],
  perSecond: number,
) {
  const p = new CursorPlanner(25);
  let next = 0;
  for (const sec of ticks) {
    const c = cursor(sec);
    p.settings(config({ ...settings, queue_cursor: c === null ? '' : `${c.at}:${c.pos}:${c.speed}` }));
    for (; next < lines.length && lines[next]!.tsMs <= sec * 1000; next++) {
      const seen = edge(lines[next]!, rate);
      if (seen !== null) p.observe(seen);
    }
    if (c !== null) p.plan(sec * 1000, D, Number(settings.new_users_per_minute), sec, perSecond);
  }
  return (p.snapshot().speed ?? 0) * 60;
}

const waiting = (ms: number, pos: number, tid: string, newTid: string) =>
  parsedLine(
    {
      tsMs: ms,
      reason: 'queue_waiting',
      decision: 'wait',
      outcome: 'keepwaiting',
      tid,
      exp: S,
      dec: 'wait',
      newTid,
      newExp: Math.floor(ms / 1000) + 2 * D,
      newDec: 'wait',
      pos,
    },
    D,
  );
const admitted = (ms: number, pos: number) =>
  parsedLine({ tsMs: ms, reason: 'cursor_passed', decision: 'allow', outcome: 'origin', pos }, D);

/**
 * First-come arrivals, 10 a second from `from` to `to`, under a cursor `cursor`: those it passed
 * came in 5 s after, those ahead of it at `now` wait (a line 10 s before `now`).
 */
function arrivals(
  from: number,
  to: number,
  now: number,
  cursor: (sec: number) => number,
  passedAt: (pos: number) => number,
): DecisionLine[] {
  const n = (to - from) * 10;
  const a = tokenIds(n, 51);
  const b = tokenIds(n, 53);
  const lines: DecisionLine[] = [];
  for (let i = 0; i < n; i++) {
    const pos = from + (i + 0.5) / 10;
    if (pos < cursor(now)) lines.push(admitted((passedAt(pos) + 5) * 1000, pos));
    else lines.push(waiting((now - 10) * 1000, pos, a[i]!, b[i]!));
  }
  return lines;
}

const ticks = (from: number, to: number) => Array.from({ length: (to - from) / 10 + 1 }, (_, i) => from + i * 10);
const fifo = {
  wait_period_duration: String(D),
  allow_percentage: '1',
  new_users_per_minute: '600',
  queueing_method: 'fifo',
};

describe('the stretch the cursor passed, under a sampled log', () => {
  it('after a pre-queue drained, begins at the start: the first-come line behind it moves at the unsampled speed', () => {
    // 6,000 in the pre-queue's second, drained in 10 minutes from the start; then the first-come
    // line (10 a second from the start on) at a position a second. Two minutes after the crossing.
    const settings = { ...fifo, event_prequeue_start: iso(S - 3600), event_start: iso(S) };
    const drain: Line = { at: S, pos: S - 1, speed: 1 / 600 };
    const line: Line = { at: S + 600, pos: S, speed: 1 };
    const cursor = (sec: number) => (sec < S + 600 ? drain : line);
    const now = S + 720;
    const pre = Array.from({ length: 6000 }, (_, i) =>
      admitted((S + (i + 0.5) / 10 + 5) * 1000, S - 1 + (i + 0.5) / 6000),
    );
    const lines = [
      ...pre,
      ...arrivals(
        S,
        now,
        now,
        (sec) => cursorAt(cursor(sec), sec),
        (pos) => S + 600 + (pos - S),
      ),
    ].sort((x, y) => x.tsMs - y.tsMs);
    const full = drive(1, settings, cursor, lines, ticks(S, now), 10);
    const sampled = drive(RATE, settings, cursor, lines, ticks(S, now), 10);
    expect(full).toBeCloseTo(60, 0);
    expect(Math.abs(sampled / full - 1), `${sampled} against ${full}`).toBeLessThanOrEqual(0.05);
  });

  it('after the room opened and queued again, holds nothing from before it opened', () => {
    // Queueing from T to T + 300 (a position a second, 10 arrivals a second), open until T + 500
    // (admissions by the open room, not the cursor), then a new cursor 20 s behind the present.
    const T = S;
    const before: Line = { at: T, pos: T - 300, speed: 1 };
    const after: Line = { at: T + 500, pos: T + 480, speed: 1 };
    const cursor = (sec: number) => (sec <= T + 300 ? before : sec < T + 500 ? null : after);
    const now = T + 700;
    const early = Array.from({ length: 3000 }, (_, i) => admitted((T + i / 10 + 5) * 1000, T - 300 + i / 10));
    const lines = [
      ...early,
      ...arrivals(
        T + 480,
        now,
        now,
        (sec) => cursorAt(after, sec),
        (pos) => pos + 20,
      ),
    ].sort((x, y) => x.tsMs - y.tsMs);
    const full = drive(1, fifo, cursor, lines, ticks(T, now), 10);
    const sampled = drive(RATE, fifo, cursor, lines, ticks(T, now), 10);
    expect(full).toBeCloseTo(60, 0);
    // Read off the places ahead alone (about 60 sampled): within their own error, not a stretch of the
    // open period's few cursor admissions.
    expect(Math.abs(sampled / full - 1), `${sampled} against ${full}`).toBeLessThanOrEqual(0.2);
  });
});

describe('opening a first-come room under a sampled log', () => {
  it('waits until no waiting line has come in ahead of the cursor for 1/rate windows', () => {
    const p = new CursorPlanner(25);
    const c: Line = { at: S, pos: S, speed: 1 };
    const at = (sec: number) => {
      p.settings(config({ ...fifo, queue_cursor: `${c.at}:${c.pos}:${c.speed}` }));
      return sec * 1000;
    };
    p.plan(at(S), D, 600, S, 0);
    // One of the few still waiting shows up in the sample at S + 200 (the others are not seen).
    const [tid, next] = tokenIds(400, 57).filter((id) => inLogSample(id, RATE));
    p.observe({ ...waiting((S + 200) * 1000, S + 400, tid!, next!), weight: 1 / RATE });
    // Its place has expired (two windows and 10 s), but 10 windows have not passed.
    expect(p.idle(at(S + 300), D, 600, 0)).toBe(false);
    expect(p.idle(at(S + 510), D, 600, 0)).toBe(true);
  });
});
