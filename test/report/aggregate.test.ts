// The decision log into per-minute figures: admissions counted once, waits lived along a visitor's
// ticket chain, leavers, the sample's weights, garbage skipped and counted, memory bounded.
import { describe, expect, it } from 'vitest';
import { LogAggregator } from '../../report/aggregate.js';
import { makeLog, rawLine as line } from './log-lines.js';

const T0 = Date.UTC(2026, 10, 26, 10, 0, 0);
const w0 = T0 / 1000;

function run(lines: string[], options: { room?: string } = {}) {
  const a = new LogAggregator({ ...options, nowMs: T0 + 86_400_000 });
  for (const l of lines) a.line(l);
  return a.finish();
}

describe('the report reads a decision log', () => {
  it("measures a wait from the visitor's first waiting line, through a lost draw and its successor, to the admission", () => {
    const f = run([
      `waiting_room_log :: ${line(T0 + 5_000, { newTid: 'AAAAAAA1', newExp: w0 + 20, newDec: 'wait', nextTid: 'AAAAAAA2' })}`,
      line(T0 + 21_000, {
        reason: 'draw_lost',
        tid: 'AAAAAAA1',
        exp: w0 + 20,
        dec: 'wait',
        newTid: 'AAAAAAA2',
        newExp: w0 + 40,
        newDec: 'wait',
        nextTid: 'AAAAAAA3',
        pct: 10,
      }),
      line(T0 + 41_000, {
        decision: 'allow',
        outcome: 'origin',
        reason: 'draw_won',
        tid: 'AAAAAAA2',
        exp: w0 + 40,
        dec: 'wait',
        newTid: 'BBBBBBBB',
        newExp: w0 + 600,
        newDec: 'allow',
        pct: 20,
      }),
      // The same admission logged twice is one admission.
      line(T0 + 41_500, {
        decision: 'allow',
        outcome: 'origin',
        reason: 'draw_won',
        tid: 'AAAAAAA2',
        exp: w0 + 40,
        dec: 'wait',
        newTid: 'BBBBBBBB',
        newExp: w0 + 600,
        newDec: 'allow',
        pct: 20,
      }),
    ]);
    const m = f.rooms.get('shop')!.get(T0)!;
    expect(m.admissions).toBe(1);
    // One visitor, whose two tickets were drawn in the minute.
    expect(m.waiting).toBe(1);
    expect(m.draws).toBe(2);
    expect(m.waits.count).toBe(1);
    expect(m.waits.quantile(0.5)).toBeCloseTo(36, -0.5);
    expect(f.waitsUnknown).toBe(0);
    expect([...f.chances.get('shop')!]).toEqual([
      [w0 + 20, 10],
      [w0 + 40, 20],
    ]);
  });

  it('says an admission whose chain began before the log has no wait, and a newcomer let straight in waited none', () => {
    const f = run([
      line(T0 + 1_000, {
        decision: 'allow',
        outcome: 'origin',
        reason: 'draw_won',
        tid: 'CCCCCCCC',
        exp: w0,
        dec: 'wait',
        newTid: 'DDDDDDDD',
        newExp: w0 + 600,
        newDec: 'allow',
        pct: 50,
      }),
      line(T0 + 2_000, {
        decision: 'allow',
        outcome: 'origin',
        reason: 'allow_all',
        newTid: 'EEEEEEEE',
        newExp: w0 + 600,
        newDec: 'allow',
      }),
    ]);
    const m = f.rooms.get('shop')!.get(T0)!;
    expect(m.admissions).toBe(2);
    expect(m.straightIn).toBe(1);
    expect(m.waits.count).toBe(0);
    expect(f.waitsUnknown).toBe(1);
  });

  it('skips and counts what is not a decision line, whatever it holds, and never throws', () => {
    const garbage = [
      '',
      'GET / 200 3.1ms',
      '{"wr":1, broken',
      'waiting_room_log :: {"wr":2}',
      '\u0000\u0001\uffff',
      '{"wr":1,"ts":"2026-11-26T10:00:00Z"}',
      'x'.repeat(100_000),
      '[1,2]',
      '{"wr":[]}',
    ];
    const f = run([...garbage, line(T0, { newTid: 'AAAAAAA1', newExp: w0 + 20, newDec: 'wait' })]);
    expect(f.lines.read).toBe(garbage.length + 1);
    expect(f.lines.used).toBe(1);
    expect(f.lines.foreign + f.lines.bad).toBe(garbage.length);
    expect(f.lines.bad).toBe(4);
    expect(Object.keys(f.lines.badWhy).length).toBeGreaterThan(0);
  });

  it("counts preview links' lines apart: no visitor, no language read, no room's minute", () => {
    const preview = (reason: string) =>
      line(T0, { decision: 'preview', outcome: 'preview', reason, lang: 'ja-JP', preview: 'startwaiting' });
    const f = run([preview('preview'), preview('preview_expired')]);
    expect(f.lines).toMatchObject({ read: 2, used: 0, previews: 2, bad: 0 });
    expect(f.rooms.size).toBe(0);
    expect(f.languages.size).toBe(0);
  });

  it("keeps one room's lines with --room and counts the others", () => {
    const f = run(
      [
        line(T0, { newTid: 'AAAAAAA1', newExp: w0 + 20, newDec: 'wait' }),
        line(T0, { room: 'checkout', newTid: 'AAAAAAA2', newExp: w0 + 20, newDec: 'wait' }),
        line(T0, { room: null, reason: 'rule_bypass' }),
      ],
      { room: 'checkout' },
    );
    expect([...f.rooms.keys()]).toEqual(['checkout']);
    expect(f.lines.otherRooms).toBe(1);
    expect(f.lines.noRoom).toBe(1);
  });

  it('counts what happened in a made on-sale: admissions exactly, waits and leavers as they were', () => {
    const made = makeLog({
      startMs: T0,
      minutes: 30,
      arrivals: (m) => (m < 10 ? 600 : 100),
      target: 200,
      leave: 0.04,
      pops: ['LHR', 'FRA'],
      seed: 7,
    });
    const f = run(made.lines);
    const minutes = [...f.rooms.get('shop')!.values()];
    expect(minutes.reduce((s, m) => s + m.admissions, 0)).toBe(made.truth.admissions);
    const leavers = minutes.reduce((s, m) => s + m.leavers, 0);
    // Tickets still open when the log ends are not leavers yet.
    expect(leavers).toBeLessThanOrEqual(made.truth.leavers);
    expect(leavers).toBeGreaterThan(made.truth.leavers * 0.9);
    const sorted = [...made.truth.waits].sort((a, b) => a - b);
    const truthP50 = sorted[Math.ceil(sorted.length / 2) - 1]!;
    const all = minutes[0]!.waits;
    for (const m of minutes.slice(1)) all.merge(m.waits);
    expect(all.count).toBe(made.truth.waits.length);
    expect(Math.abs(all.quantile(0.5)! / truthP50 - 1)).toBeLessThan(0.02);
    expect([...f.pops.keys()].sort()).toEqual(['FRA', 'LHR']);
  });

  it("scales a sampled log's waiting, draws and leavers by each ticket's weight, at 0.2 and 0.05, and counts every admission", () => {
    const options = {
      startMs: T0,
      arrivals: (m: number) => (m < 6 ? 2000 : 300),
      target: 600,
      leave: 0.04,
      seed: 9,
      minutes: 14,
    };
    const whole = run(makeLog(options).lines);
    expect(whole.sampled).toBe(false);
    const total = (f: typeof whole, k: 'admissions' | 'waiting' | 'draws' | 'leavers') =>
      [...f.rooms.get('shop')!.values()].reduce((s, m) => s + m[k], 0);
    for (const rate of [0.2, 0.05]) {
      const sampled = run(makeLog({ ...options, sampleRate: rate }).lines);
      expect(sampled.sampled).toBe(true);
      expect(total(sampled, 'admissions'), `admissions at ${rate}`).toBe(total(whole, 'admissions'));
      for (const k of ['waiting', 'draws', 'leavers'] as const) {
        // The tolerance: four standard errors of a count the sample keeps about rate * n of (1/sqrt(rate * n)).
        const n = total(whole, k);
        const tolerance = 4 / Math.sqrt(rate * n);
        expect(
          Math.abs(total(sampled, k) / n - 1),
          `${k} at ${rate} (whole ${n}, tolerance ${tolerance.toFixed(3)})`,
        ).toBeLessThan(tolerance);
      }
    }
  });

  it('counts waiting visitors, not their tickets: a visitor drawn three times a minute is one, and every minute matches the truth', () => {
    // A crowd that keeps coming back: 20-second windows, three tickets a visitor a minute.
    const made = makeLog({ startMs: T0, minutes: 6, arrivals: (m) => (m < 3 ? 900 : 0), target: 60, seed: 3 });
    const f = run(made.lines);
    const rows = [...f.rooms.get('shop')!].sort((a, b) => a[0] - b[0]);
    expect(rows.map(([ms, m]) => [ms, Math.round(m.waiting)])).toEqual(
      rows.map(([ms]) => [ms, made.truth.waitingAtOnce.get(ms) ?? 0]),
    );
    const arrived = 3 * 900;
    const most = Math.max(...rows.map(([, m]) => m.waiting));
    expect(most).toBeLessThanOrEqual(arrived);
    // The draws still count each ticket drawn: about three a waiting visitor a minute.
    const late = rows.at(-1)![1];
    expect(late.draws).toBeGreaterThan(2.5 * late.waiting);
  });

  it('counts each waiting visitor once, in the language of their first page, not their requests', () => {
    const lines = [
      // A German visitor: a page, a check before it is due, a lost draw, a held win, then admitted (the origin's answer names no language).
      [1_000, { newTid: 'DEDEDE01', newExp: w0 + 20, newDec: 'wait', nextTid: 'DEDEDE02', lang: 'de-DE' }],
      [
        9_000,
        {
          decision: 'wait',
          outcome: 'keepwaiting',
          reason: 'wait_not_due',
          tid: 'DEDEDE01',
          exp: w0 + 20,
          dec: 'wait',
          lang: 'de-DE',
        },
      ],
      [
        21_000,
        {
          reason: 'draw_lost',
          tid: 'DEDEDE01',
          exp: w0 + 20,
          dec: 'wait',
          newTid: 'DEDEDE02',
          newExp: w0 + 40,
          newDec: 'wait',
          nextTid: 'DEDEDE03',
          pct: 1,
          lang: 'de-DE',
        },
      ],
      [
        41_000,
        {
          outcome: 'keepwaiting',
          reason: 'ceiling_held',
          tid: 'DEDEDE02',
          exp: w0 + 40,
          dec: 'wait',
          newTid: 'WONWON01',
          newExp: w0 + 42,
          newDec: 'won',
          pct: 90,
          lang: 'de-DE',
        },
      ],
      [
        43_000,
        {
          decision: 'allow',
          outcome: 'origin',
          reason: 'won_admitted',
          tid: 'WONWON01',
          exp: w0 + 42,
          dec: 'won',
          newTid: 'ALLOWDE1',
          newExp: w0 + 600,
          newDec: 'allow',
        },
      ],
      // An Arabic visitor who then picked German on the waiting page: counted once, in Arabic, where they started.
      [2_000, { newTid: 'ARARAR01', newExp: w0 + 20, newDec: 'wait', nextTid: 'ARARAR02', lang: 'ar-EG' }],
      [
        5_000,
        {
          decision: 'wait',
          outcome: 'keepwaiting',
          reason: 'wait_not_due',
          tid: 'ARARAR01',
          exp: w0 + 20,
          dec: 'wait',
          lang: 'de-DE',
        },
      ],
      // An English visitor whose chain began before the log: their first line is a lost draw.
      [
        22_000,
        {
          reason: 'draw_lost',
          tid: 'ENENEN01',
          exp: w0 + 20,
          dec: 'wait',
          newTid: 'ENENEN02',
          newExp: w0 + 40,
          newDec: 'wait',
          nextTid: 'ENENEN03',
          pct: 1,
          lang: 'en-US',
        },
      ],
      // Let straight in by the open room: no page, no language, no waiting visitor.
      [
        3_000,
        {
          decision: 'allow',
          outcome: 'origin',
          reason: 'allow_all',
          newTid: 'STRAIGHT',
          newExp: w0 + 600,
          newDec: 'allow',
        },
      ],
      // Denied, holding no ticket: a page in a language, but nobody waiting.
      [4_000, { decision: 'deny', outcome: 'deny', reason: 'deny_all', lang: 'ja-JP' }],
      // A line from an edge before the field: a waiting visitor with no language to count them in.
      [6_000, { newTid: 'OLDOLD01', newExp: w0 + 20, newDec: 'wait' }],
    ] as const;
    const inOrder = [...lines].sort((a, b) => a[0] - b[0]);
    const f = run(inOrder.map(([at, fields]) => line(T0 + at, fields)));
    expect([...f.languages.get('shop')!]).toEqual([
      ['de-DE', 1],
      ['ar-EG', 1],
      ['en-US', 1],
    ]);
    // The same lines as an older edge wrote them: no language at all, every other figure the same.
    const old = run(inOrder.map(([at, fields]) => line(T0 + at, { ...fields, lang: undefined })));
    expect(old.languages.size).toBe(0);
    expect(old.rooms).toEqual(f.rooms);
    expect(old.lines).toEqual(f.lines);
  });

  it("counts a made on-sale's visitors by language exactly, and a sampled one's within its error", () => {
    const languages: [string, number][] = [
      ['en-US', 0.8],
      ['de-DE', 0.15],
      ['ar-EG', 0.05],
    ];
    const options = {
      startMs: T0,
      minutes: 10,
      arrivals: (m: number) => (m < 4 ? 1500 : 200),
      target: 400,
      leave: 0.04,
      seed: 13,
      languages,
    };
    const made = makeLog(options);
    const whole = run(made.lines);
    expect(whole.languages.get('shop')).toEqual(made.truth.languages);
    // Visitors, not requests: far fewer than the lines that name a language.
    const visitors = [...made.truth.languages.values()].reduce((a, b) => a + b, 0);
    expect(made.lines.filter((l) => l.includes('"lang"')).length).toBeGreaterThan(2 * visitors);
    const sampled = run(makeLog({ ...options, sampleRate: 0.2 }).lines).languages.get('shop')!;
    for (const [tag, n] of made.truth.languages) {
      expect(Math.abs(sampled.get(tag)! / n - 1), `${tag}: ${sampled.get(tag)} of ${n}`).toBeLessThan(
        4 / Math.sqrt(0.2 * n),
      );
    }
  });

  it('holds per-ticket state for the tickets alive only, however long the log', () => {
    const made = makeLog({ startMs: T0, minutes: 100, arrivals: () => 300, target: 300, leave: 0.05, seed: 11 });
    const a = new LogAggregator({ nowMs: T0 + 86_400_000 });
    const live: number[] = [];
    made.lines.forEach((l, i) => {
      a.line(l);
      if (i % 5_000 === 0) live.push(a.live);
    });
    const half = live.slice(Math.floor(live.length / 2));
    // A steady crowd: the state an hour in is the state two hours in, not twice it.
    expect(Math.max(...half)).toBeLessThan(1.5 * Math.min(...half));
    expect(Math.max(...live)).toBeLessThan(made.lines.length / 10);
  });
});
