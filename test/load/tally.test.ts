import { describe, expect, it } from 'vitest';
import { Tally } from '../../load/tally.js';

const S = 1_000_000;

describe('Tally', () => {
  it('puts each event in the minute of the run it fell in', () => {
    const t = new Tally(S);
    t.add('arrival', S);
    t.add('arrival', S + 59_999);
    t.add('arrival', S + 60_000);
    t.add('request', S + 125_000);
    const rows = t.rows();
    expect(rows.map((r) => [r.minute, r.arrivals, r.requests])).toEqual([
      [1, 2, 0],
      [2, 1, 0],
      [3, 0, 1],
    ]);
  });

  it('counts as waiting whoever arrived and was neither admitted nor gone', () => {
    const t = new Tally(S);
    for (let i = 0; i < 10; i++) t.add('arrival', S + i);
    t.add('admission', S + 30_000);
    t.add('admission', S + 70_000);
    t.add('gaveUp', S + 80_000);
    t.add('left', S + 90_000); // an admitted visitor leaving does not change the waiting count
    expect(t.rows().map((r) => r.waiting)).toEqual([9, 7]);
  });

  it('pads minutes without events, and gives as many rows as asked', () => {
    const t = new Tally(S);
    t.add('admission', S + 150_000);
    expect(t.rows(4).map((r) => r.admissions)).toEqual([0, 0, 1, 0]);
  });

  it('keeps the last target set in each minute, and the causes of errors', () => {
    const t = new Tally(S);
    t.setTarget(S, 120);
    t.setTarget(S + 60_000, 100);
    t.setTarget(S + 61_000, 150);
    t.add('error', S + 1, 'connection refused');
    t.add('error', S + 2, 'connection refused');
    t.add('error', S + 3, 'HTTP 502');
    expect(t.rows(3).map((r) => r.target)).toEqual([120, 150, null]);
    expect(Object.fromEntries(t.errorCauses)).toEqual({ 'connection refused': 2, 'HTTP 502': 1 });
    expect(t.totals()).toMatchObject({ errors: 3, arrivals: 0 });
  });

  it('uses a shorter minute when asked', () => {
    const t = new Tally(S, 1_000);
    t.add('arrival', S + 2_500);
    expect(t.rows()).toHaveLength(3);
  });
});
