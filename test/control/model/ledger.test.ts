// What the controller's ledger makes of holders who come back late: a ticket of a cohort already closed
// does not open it again (that read as visitors who never came back, and the chance rose 3-fold), and
// a ticket the edge made on the spot for a holder back after their grace window is counted apart.
import { describe, expect, it } from 'vitest';
import { Ledger, type ClosedCohort } from '../../../control/model/ledger.js';
import { parsedLine } from '../lines.js';

const D = 20;
const T = 1_800_000_000; // a window boundary (divisible by 20)
const id = (n: number) => `AAAA${String(n).padStart(4, '0')}`;

function issue(ledger: Ledger, atSec: number, n: number, exp: number): void {
  ledger.observe(parsedLine({ tsMs: atSec * 1000, reason: 'no_token', newTid: id(n), newExp: exp, newDec: 'wait' }, D));
}

describe('the ledger, with holders who come back late', () => {
  it('does not open a closed cohort again for a holder back after its grace window', () => {
    const ledger = new Ledger();
    for (let n = 0; n < 30; n++) issue(ledger, T + 1, n, T + 2 * D);
    const closed: ClosedCohort[] = [];
    ledger.prune((T + 4 * D) * 1000, 60_000, (c) => closed.push(c));
    expect(closed.map((c) => [c.exp, c.size, c.drawn])).toEqual([[T + 2 * D, 30, 0]]);
    // The 30 come back a minute late with the old tokens: the room draws them as newer tickets, but
    // their own lines name the old token in some cases (a place holder, an old room).
    for (let n = 0; n < 30; n++) ledger.observe(parsedLine({ tsMs: (T + 4 * D + 2) * 1000, reason: 'wait_not_due', decision: 'wait', outcome: 'keepwaiting', tid: id(n), exp: T + 2 * D, dec: 'wait' }, D));
    expect(ledger.cohorts.has(T + 2 * D)).toBe(false);
    const again: ClosedCohort[] = [];
    ledger.prune((T + 8 * D) * 1000, 60_000, (c) => again.push(c));
    expect(again).toEqual([]);
  });

  it("counts a ticket first seen on a draw, once the log has run two windows, as made on the spot (offset -1), and not its loser's successor", () => {
    const ledger = new Ledger();
    issue(ledger, T + 1, 1, T + 2 * D);
    const at = T + 3 * D + 4;
    ledger.observe(
      parsedLine(
        { tsMs: at * 1000, reason: 'draw_lost', decision: 'wait', outcome: 'keepwaiting', tid: id(500), exp: T + 2 * D, dec: 'wait', newTid: id(501), newExp: T + 3 * D, newDec: 'wait', nextTid: id(502) },
        D,
      ),
    );
    expect(ledger.reissues.get(T + 3 * D)).toEqual(new Map([[-1, 1]]));
    expect(ledger.tickets.get(id(500))).toMatchObject({ drawn: true, reissued: -1 });
    expect(ledger.tickets.get(id(501))).toMatchObject({ drawn: false, reissued: null });
  });

  it('does not count a named successor, nor any ticket in the first two windows of the log', () => {
    const ledger = new Ledger();
    ledger.observe(parsedLine({ tsMs: (T + 1) * 1000, reason: 'no_token', newTid: id(1), newExp: T + 2 * D, newDec: 'wait', nextTid: id(2) }, D));
    // A ticket from before the controller started, drawn in its first windows.
    ledger.observe(parsedLine({ tsMs: (T + 5) * 1000, reason: 'draw_lost', decision: 'wait', tid: id(9), exp: T, dec: 'wait', newTid: id(10), newExp: T + D, newDec: 'wait' }, D));
    // The named successor, issued when the first ticket loses on time.
    ledger.observe(parsedLine({ tsMs: (T + 2 * D + 3) * 1000, reason: 'draw_lost', decision: 'wait', tid: id(1), exp: T + 2 * D, dec: 'wait', newTid: id(2), newExp: T + 3 * D, newDec: 'wait' }, D));
    expect([...ledger.reissues.values()]).toEqual([]);
  });

  it('tracks no ticket from a hammering line: its token was read unverified, and it was not decided', () => {
    const ledger = new Ledger();
    issue(ledger, T + 1, 1, T + 2 * D);
    const at = T + 3 * D + 4;
    for (let n = 600; n < 650; n++) {
      ledger.observe(parsedLine({ tsMs: at * 1000, reason: 'hammering', decision: 'wait', outcome: 'keepwaiting', tid: id(n), exp: T + 4 * D, dec: 'wait' }, D));
    }
    expect([...ledger.tickets.keys()]).toEqual([id(1)]);
    expect([...ledger.reissues.values()]).toEqual([]);
    expect(ledger.cohorts.has(T + 4 * D)).toBe(false);
  });
});
