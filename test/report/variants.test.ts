// The report's A/B comparison from a decision log with two variants of the waiting page: each visitor
// counted once in their variant, admitted, left or still waiting as the report defines them, and the
// verdict says a difference only where the interval leaves out zero.
import { describe, expect, it } from 'vitest';
import { LogAggregator } from '../../report/aggregate.js';
import { roomVariants } from '../../report/variants.js';
import { variantsSection } from '../../report/variants-page.js';
import type { RoomFigures } from '../../report/figures.js';
import { makeLog, type MadeLogOptions, rawLine } from './log-lines.js';

const T0 = Date.UTC(2026, 11, 7, 10, 0, 0);

function figuresOf(lines: string[]) {
  const a = new LogAggregator({ nowMs: T0 + 86_400_000 });
  for (const l of lines) a.line(l);
  return a.finish();
}
const variantsOf = (lines: string[]) => figuresOf(lines).variants.get('shop')!;

const crowd = (variants: MadeLogOptions['variants'], seed: number): MadeLogOptions => ({
  startMs: T0,
  minutes: 20,
  arrivals: (m) => (m < 6 ? 600 : 0),
  target: 300,
  seed,
  variants,
});

/** The report's comparison of variants a and b, shown to half the crowd each, where that many leave before their turn. */
const compared = (leaveA: number, leaveB: number, seed: number) =>
  roomVariants(
    variantsOf(
      makeLog(
        crowd(
          [
            { name: 'a', share: 0.5, leave: leaveA },
            { name: 'b', share: 0.5, leave: leaveB },
          ],
          seed,
        ),
      ).lines,
    ),
  )!;

describe('the waiting page variants in the report', () => {
  it('counts each variant’s visitors, admissions, leavers and waits as they happened', () => {
    const made = makeLog(
      crowd(
        [
          { name: 'a', share: 0.5, leave: 0.03 },
          { name: 'b', share: 0.5, leave: 0.03 },
        ],
        3,
      ),
    );
    const figures = figuresOf(made.lines);
    const counted = figures.variants.get('shop')!;
    expect([...counted.keys()].sort()).toEqual(['a', 'b']);
    // The report's leavers, the same ones: those whose ticket the log shows closing (not the last minute's).
    const leavers = [...figures.rooms.get('shop')!.values()].reduce((s, m) => s + m.leavers, 0);
    expect(counted.get('a')!.left + counted.get('b')!.left).toBe(leavers);
    for (const [name, truth] of made.truth.variants) {
      const c = counted.get(name)!;
      expect(c.visitors, name).toBe(truth.visitors);
      expect(c.admitted, name).toBe(truth.admitted);
      expect(c.left, name).toBeLessThanOrEqual(truth.left);
      expect(c.left, name).toBeGreaterThan(truth.left * 0.9);
      expect([...c.waits].sort((x, y) => x - y)).toEqual([...truth.waits].sort((x, y) => x - y));
      expect(c.fellBack).toBe(0);
    }
    // Visitors, not requests: every check names the variant, each visitor counts once.
    const named = made.lines.filter((l) => l.includes('"variant"')).length;
    expect(named).toBeGreaterThan(counted.get('a')!.visitors + counted.get('b')!.visitors);
  });

  it('shows a difference where the variants differ, and none where they do not', () => {
    const apart = compared(0.02, 0.12, 5);
    expect(apart.rows.map((r) => r.variant)).toEqual(['a', 'b']);
    const [vs] = apart.comparisons;
    expect(vs!.variant).toBe('b');
    expect(vs!.against).toBe('a');
    expect(vs!.left!.interval.low).toBeGreaterThan(0);
    expect(vs!.verdict[0]).toMatch(
      /^Left before their turn, b against a: more left with b, \+[\d.]+ points \(95% CI \+[\d.]+ to \+[\d.]+ points\)\.$/,
    );
    expect(vs!.admitted!.interval.high).toBeLessThan(0);
    expect(vs!.verdict[1]).toMatch(/fewer were admitted with b/);

    const same = compared(0.05, 0.05, 7);
    const [even] = same.comparisons;
    expect(even!.left!.interval.low).toBeLessThan(0);
    expect(even!.left!.interval.high).toBeGreaterThan(0);
    expect(even!.verdict[0]).toMatch(/: no difference shown, /);
    expect(even!.verdict[2]).toMatch(/^Median wait, b against a: no difference shown, [-+]?[\d.]+ s \(95% CI /);
  });

  it('puts a first, counts the visitors shown the built-in page, and has no section without a test', () => {
    const line = (at: number, f: Record<string, unknown>) => rawLine(T0 + at, f);
    const w = T0 / 1000 + 20;
    const counted = variantsOf([
      line(0, { newTid: 'VISITOR1', newExp: w, newDec: 'wait', variant: 'c' }),
      line(1000, { newTid: 'VISITOR2', newExp: w, newDec: 'wait', variant: 'a' }),
      // Visitor 3's variant page was missing: the built-in page, said on the line; twice is one visitor.
      line(2000, { newTid: 'VISITOR3', newExp: w, newDec: 'wait', variant: 'c', variantFallback: 'missing' }),
      line(3000, { tid: 'VISITOR3', exp: w, dec: 'wait', newTid: null, variant: 'c', variantFallback: 'missing' }),
      // A variant that is no name the room writes is left out, not the line.
      line(4000, { newTid: 'VISITOR4', newExp: w, newDec: 'wait', variant: 'Not A Name' }),
    ]);
    expect(counted.get('c')).toMatchObject({ visitors: 2, fellBack: 1 });
    const shown = roomVariants(counted)!;
    expect(shown.rows.map((r) => r.variant)).toEqual(['a', 'c']);
    const room = { id: 'shop', variants: shown } as RoomFigures;
    const html = variantsSection(room);
    expect(html).toContain('1 visitors of variant c were shown the built-in page');
    expect(html).toMatch(/<th scope="row">a<\/th><td>1<\/td>/);
    expect(variantsSection({ id: 'shop', variants: null } as RoomFigures)).toBe('');
    expect(roomVariants(new Map())).toBeNull();
  });
});
