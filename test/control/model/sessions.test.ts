// Admitted visitors' sessions as the controller counts them for `total_active_users`: an admission
// begins one, a renewal carries it to the new token, any request keeps it alive, idleness ends it.
import { describe, expect, it } from 'vitest';
import { Sessions } from '../../../control/model/sessions.js';
import { parsedLine } from '../lines.js';

const MIN = 60_000;
const admit = (tsMs: number, newTid: string, pop = 'LHR', reason = 'draw_won') =>
  parsedLine({ tsMs, pop, reason, decision: 'allow', outcome: 'origin', newTid, newDec: 'allow', newExp: 0 });
const visit = (tsMs: number, tid: string, renewedTo: string | null = null, pop = 'LHR') =>
  parsedLine({
    tsMs,
    pop,
    reason: renewedTo ? 'allow_renewed' : 'allow_valid',
    decision: 'allow',
    outcome: 'origin',
    tid,
    dec: 'allow',
    newTid: renewedTo,
    newDec: renewedTo ? 'allow' : null,
  });

describe('sessions', () => {
  it('counts an admission once, however many requests and renewals follow', () => {
    const s = new Sessions();
    expect(s.observe(admit(0, 'a1'))).toBe(true);
    expect(s.observe(visit(10_000, 'a1'))).toBe(false);
    expect(s.observe(visit(100_000, 'a1', 'a2'))).toBe(false);
    expect(s.observe(visit(200_000, 'a2'))).toBe(false);
    // The same admission's line seen again (a replayed log) begins nothing new.
    expect(s.observe(admit(0, 'a1'))).toBe(false);
    expect(s.active(200_000, 5 * MIN).total).toBe(1);
  });

  it('keeps a session alive through its renewed token, and ends it after the idle time', () => {
    const s = new Sessions();
    s.observe(admit(0, 'a1', 'FRA'));
    s.observe(visit(4 * MIN, 'a1', 'a2', 'FRA'));
    s.observe(visit(8 * MIN, 'a2', null, 'FRA'));
    expect(s.active(12 * MIN, 5 * MIN)).toEqual({ total: 1, byPop: new Map([['FRA', 1]]) });
    expect(s.active(13 * MIN + 1, 5 * MIN).total).toBe(0);
    // Pruned, its tokens are forgotten too: the renewed token seen again is a session found, not an admission.
    s.prune(13 * MIN + 1, 5 * MIN);
    expect(s.observe(visit(14 * MIN, 'a2'))).toBe(false);
    expect(s.active(14 * MIN, 5 * MIN).total).toBe(1);
  });

  it('knows a session that began before the controller did, without counting it as an admission', () => {
    const s = new Sessions();
    expect(s.observe(visit(1_000, 'old'))).toBe(false);
    expect(s.active(1_000, 5 * MIN).total).toBe(1);
  });

  it('counts only reasons that admit: a renewal alone, or a wait, begins no session', () => {
    const s = new Sessions();
    expect(
      s.observe(
        parsedLine({
          tsMs: 0,
          reason: 'draw_lost',
          decision: 'wait',
          outcome: 'keepwaiting',
          newTid: 'w1',
          newDec: 'wait',
        }),
      ),
    ).toBe(false);
    expect(s.observe(admit(0, 'x1', 'LHR', 'allow_renewed'))).toBe(false);
    expect(s.active(0, 5 * MIN).total).toBe(0);
  });

  it('gives back what it saved, per POP', () => {
    const s = new Sessions();
    s.observe(admit(0, 'a1', 'LHR'));
    s.observe(admit(0, 'b1', 'NRT'));
    s.observe(visit(1_000, 'b1', 'b2', 'NRT'));
    const copy = new Sessions();
    copy.restore(JSON.parse(JSON.stringify(s.save())));
    expect(copy.active(2_000, 5 * MIN)).toEqual(s.active(2_000, 5 * MIN));
    // The renewed token still belongs to its session after the restore.
    expect(copy.observe(visit(3_000, 'b2', null, 'NRT'))).toBe(false);
    expect(copy.active(3_000, 5 * MIN).total).toBe(2);
  });
});
