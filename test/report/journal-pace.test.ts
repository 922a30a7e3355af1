// What the journal says of a room in auto: the rate the autopilot chose, its state and the objective in
// force each minute; a room back in manual; values that are no number left out and counted.
import { describe, expect, it } from 'vitest';
import { journalLine, newJournal } from '../../report/journal.js';
import { paceAt, percentileAt } from '../../report/journal-pace.js';
import { autoFields, journalWrite } from './origin-lines.js';

const T0 = Date.UTC(2026, 10, 26, 10, 0, 0);
const at = (s: number): number => T0 + s * 1000;

function journal(lines: string[]) {
  const j = newJournal();
  for (const l of lines) journalLine(j, l);
  return j;
}

describe("the journal's autopilot", () => {
  it('gives each minute the rate, state and objective last written by its end', () => {
    const j = journal([
      journalWrite(at(30), { shop: { allow_schedule: `${T0 / 1000 + 40}=50`, ...autoFields(60, 'raising') } }),
      journalWrite(at(100), { shop: autoFields(40, 'cutting', 800, 95, 2) }),
      journalWrite(at(110), { shop: autoFields(36, 'cutting', 800, 95, 2) }),
    ]);
    const list = j.pace.get('shop');
    expect(paceAt(list, T0 - 60_000)).toBeNull();
    expect(paceAt(list, T0)).toEqual({
      auto: true,
      rate: 60,
      state: 'raising',
      objective: { latencyMs: 800, percentile: 90, errorShare: 0.01 },
    });
    expect(paceAt(list, T0 + 60_000)).toMatchObject({
      rate: 36,
      state: 'cutting',
      objective: { percentile: 95, errorShare: 0.02 },
    });
    // The minute before any write reads at the journal's first percentile; a room it never names at 90.
    expect(percentileAt(list, T0 - 60_000)).toBe(90);
    expect(percentileAt(list, T0 + 120_000)).toBe(95);
    expect(percentileAt(undefined, T0)).toBe(90);
    expect(j.badValues).toBe(0);
  });

  it('notes a room that left auto: a later write line without its fields', () => {
    const j = journal([
      journalWrite(at(10), { shop: autoFields(60, 'holding'), checkout: { allow_percentage: '50' } }),
      // The controller puts an auto room's fields on every write: here the shop has none any more.
      journalWrite(at(70), { checkout: { allow_percentage: '40' } }),
    ]);
    expect(paceAt(j.pace.get('shop'), T0)!.auto).toBe(true);
    expect(paceAt(j.pace.get('shop'), T0 + 60_000)!.auto).toBe(false);
    expect(j.pace.has('checkout')).toBe(false);
  });

  it('leaves out a value that is no number, counts it, and keeps the rest of the line', () => {
    const j = journal([
      journalWrite(at(10), {
        shop: { ...autoFields(60, 'raising'), pace_rate: 'fast', origin_latency_percentile: '250' },
      }),
      journalWrite(at(20), { shop: { ...autoFields(55, 'holding'), origin_latency_ms: '-3' } }),
    ]);
    expect(j.badValues).toBe(3);
    expect(paceAt(j.pace.get('shop'), T0)).toEqual({
      auto: true,
      rate: 55,
      state: 'holding',
      objective: { latencyMs: 800, percentile: 90, errorShare: 0.01 },
    });
    expect(j.skipped).toBe(0);
  });
});
