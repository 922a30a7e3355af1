// The report's lanes (report/lanes.ts): admissions counted by the lane their line names, each lane held
// against the share the controller's journal says the room declared; nothing for a room without lanes.
import { describe, expect, it } from 'vitest';
import { LogAggregator } from '../../report/aggregate.js';
import { reportFigures } from '../../report/figures.js';
import { newJournal } from '../../report/journal.js';
import { lanesText, laneShares } from '../../report/lanes.js';
import { rawLine } from './log-lines.js';

const T0 = Date.UTC(2026, 10, 26, 10, 0, 0);
const admission = (ms: number, tid: string, lane?: string): string =>
  rawLine(ms, {
    decision: 'allow',
    outcome: 'origin',
    reason: 'draw_won',
    tid: `w${tid}`.padEnd(8, 'x'),
    exp: Math.floor(ms / 20_000) * 20,
    dec: 'wait',
    newTid: `a${tid}`.padEnd(8, 'x'),
    newExp: Math.floor(ms / 1000) + 3600,
    newDec: 'allow',
    pct: 10,
    ...(lane === undefined ? {} : { lane }),
  });

function figures(lines: string[], lanes?: string) {
  const a = new LogAggregator({ nowMs: T0 + 86_400_000 });
  for (const l of lines) a.line(l);
  const journal = newJournal();
  if (lanes !== undefined) journal.lanes.set('shop', lanes);
  return reportFigures(a.finish(), journal);
}

describe('the report by lane', () => {
  it("counts each minute's admissions by lane against the shares the journal names", () => {
    const lines = [
      ...Array.from({ length: 3 }, (_, i) => admission(T0 + 1_000 * i, `m${i}`, 'members')),
      ...Array.from({ length: 2 }, (_, i) => admission(T0 + 5_000 + i, `p${i}`, 'presale')),
      ...Array.from({ length: 5 }, (_, i) => admission(T0 + 9_000 + i, `g${i}`)),
      admission(T0 + 61_000, 'g9'),
    ];
    const room = figures(lines, 'members:30,presale:20').rooms[0]!;
    expect(room.lanes!.lanes).toEqual([
      { id: 'members', share: 30, admissions: 3 },
      { id: 'presale', share: 20, admissions: 2 },
      { id: 'general', share: 50, admissions: 6 },
    ]);
    expect(room.lanes!.minutes[0]).toMatchObject({ admissions: 10, byLane: { members: 3, presale: 2, general: 5 } });
    const text = lanesText(room.lanes, (ms) => new Date(ms).toISOString().slice(11, 16))!;
    expect(text.summary).toContain('members 3 (27.3% against a share of 30%)');
    expect(text.rows[0]).toEqual(['10:00', '10', '3 (30.0%)', '2 (20.0%)', '5 (50.0%)']);
  });

  it('without the journal, shows the lanes the lines name with no share; a room whose lines name none has no lanes', () => {
    const named = figures([admission(T0, 'm0', 'members'), admission(T0 + 1, 'g0')]).rooms[0]!;
    expect(named.lanes!.lanes).toEqual([
      { id: 'members', share: null, admissions: 1 },
      { id: 'general', share: null, admissions: 1 },
    ]);
    expect(figures([admission(T0, 'g0')]).rooms[0]!.lanes).toBeNull();
  });

  it('reads the shares as the room declares them, the general lane taking the rest', () => {
    expect([...laneShares('members:30,presale:20')]).toEqual([
      ['members', 30],
      ['presale', 20],
      ['general', 50],
    ]);
    expect(laneShares(undefined).size).toBe(0);
  });
});
