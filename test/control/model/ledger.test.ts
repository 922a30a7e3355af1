// What the controller's ledger makes of holders who come back late: a ticket of a cohort already closed
// does not open it again (that read as visitors who never came back, and the chance rose 3-fold), and
// a ticket the edge made on the spot for a holder back after their grace window is counted apart.
import { describe, expect, it } from 'vitest';
import { Ledger, type ClosedCohort } from '../../../control/model/ledger.js';
import type { DecisionLine } from '../../../control/types.js';
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
    for (let n = 0; n < 30; n++)
      ledger.observe(
        parsedLine(
          {
            tsMs: (T + 4 * D + 2) * 1000,
            reason: 'wait_not_due',
            decision: 'wait',
            outcome: 'keepwaiting',
            tid: id(n),
            exp: T + 2 * D,
            dec: 'wait',
          },
          D,
        ),
      );
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
        {
          tsMs: at * 1000,
          reason: 'draw_lost',
          decision: 'wait',
          outcome: 'keepwaiting',
          tid: id(500),
          exp: T + 2 * D,
          dec: 'wait',
          newTid: id(501),
          newExp: T + 3 * D,
          newDec: 'wait',
          nextTid: id(502),
        },
        D,
      ),
    );
    expect(ledger.reissues.get(T + 3 * D)).toEqual(new Map([[-1, 1]]));
    expect(ledger.tickets.get(id(500))).toMatchObject({ drawn: true, reissued: -1 });
    expect(ledger.tickets.get(id(501))).toMatchObject({ drawn: false, reissued: null });
  });

  it('does not count a named successor, nor any ticket in the first two windows of the log', () => {
    const ledger = new Ledger();
    ledger.observe(
      parsedLine(
        { tsMs: (T + 1) * 1000, reason: 'no_token', newTid: id(1), newExp: T + 2 * D, newDec: 'wait', nextTid: id(2) },
        D,
      ),
    );
    // A ticket from before the controller started, drawn in its first windows.
    ledger.observe(
      parsedLine(
        {
          tsMs: (T + 5) * 1000,
          reason: 'draw_lost',
          decision: 'wait',
          tid: id(9),
          exp: T,
          dec: 'wait',
          newTid: id(10),
          newExp: T + D,
          newDec: 'wait',
        },
        D,
      ),
    );
    // The named successor, issued when the first ticket loses on time.
    ledger.observe(
      parsedLine(
        {
          tsMs: (T + 2 * D + 3) * 1000,
          reason: 'draw_lost',
          decision: 'wait',
          tid: id(1),
          exp: T + 2 * D,
          dec: 'wait',
          newTid: id(2),
          newExp: T + 3 * D,
          newDec: 'wait',
        },
        D,
      ),
    );
    expect([...ledger.reissues.values()]).toEqual([]);
  });

  it('tracks no ticket from a hammering line: its token was read unverified, and it was not decided', () => {
    const ledger = new Ledger();
    issue(ledger, T + 1, 1, T + 2 * D);
    const at = T + 3 * D + 4;
    for (let n = 600; n < 650; n++) {
      ledger.observe(
        parsedLine(
          {
            tsMs: at * 1000,
            reason: 'hammering',
            decision: 'wait',
            outcome: 'keepwaiting',
            tid: id(n),
            exp: T + 4 * D,
            dec: 'wait',
          },
          D,
        ),
      );
    }
    expect([...ledger.tickets.keys()]).toEqual([id(1)]);
    expect([...ledger.reissues.values()]).toEqual([]);
    expect(ledger.cohorts.has(T + 4 * D)).toBe(false);
  });
});

describe('the ledger, with the bot controls', () => {
  const drawLine = (
    at: number,
    reason: string,
    tid: string,
    newTid: string | null,
    nextTid: string | null,
    extra: Partial<DecisionLine> = {},
  ) =>
    parsedLine(
      {
        tsMs: at * 1000,
        reason,
        decision: 'wait',
        outcome: 'keepwaiting',
        tid,
        exp: T + 2 * D,
        dec: 'wait',
        newTid,
        newExp: newTid === null ? null : T + 3 * D,
        newDec: newTid === null ? null : 'wait',
        nextTid,
        ...extra,
      },
      D,
    );

  it('closes a real ticket whose draw sent it to the infinite queue as drawn, and tracks neither the bot token nor its successor', () => {
    const ledger = new Ledger();
    ledger.observe(
      parsedLine(
        { tsMs: (T + 1) * 1000, reason: 'no_token', newTid: id(1), newExp: T + 2 * D, newDec: 'wait', nextTid: id(2) },
        D,
      ),
    );
    issue(ledger, T + 1, 3, T + 2 * D);
    // id(1)'s draw brings a wrong-looking proof: the infinite queue, a bot token (id 11, whose successor is id 12).
    const at = T + 2 * D + 3;
    ledger.observe(
      drawLine(at, 'bot_queued', id(1), id(11), id(12), {
        decision: 'start',
        outcome: 'startwaiting',
        pct: 40,
        proof: 'failed',
        bot: true,
      }),
    );
    // That token's own lines: before its due time, and its "lost" draw a window on.
    ledger.observe(
      parsedLine(
        {
          tsMs: (at + 5) * 1000,
          reason: 'wait_not_due',
          decision: 'wait',
          outcome: 'keepwaiting',
          tid: id(11),
          exp: T + 3 * D,
          dec: 'wait',
          bot: true,
        },
        D,
      ),
    );
    ledger.observe(
      parsedLine(
        {
          tsMs: (T + 3 * D + 2) * 1000,
          reason: 'bot_waiting',
          decision: 'start',
          outcome: 'startwaiting',
          tid: id(11),
          exp: T + 3 * D,
          dec: 'wait',
          newTid: id(12),
          newExp: T + 4 * D,
          newDec: 'wait',
          nextTid: id(13),
          pct: 40,
          bot: true,
        },
        D,
      ),
    );
    expect(ledger.tickets.get(id(1))).toMatchObject({ drawn: true });
    for (const n of [11, 12, 13]) expect(ledger.tickets.has(id(n)), `ticket ${n}`).toBe(false);
    expect([...ledger.successors.keys()]).toEqual([id(1)]);
    expect(ledger.foreseen.has(id(12))).toBe(false);
    // Only id(3) still waits; the draw is counted in the window it was made in.
    expect(ledger.waiting(T + 3 * D).total).toBe(1);
    expect(ledger.windows.get(T + 2 * D)?.draws).toBe(1);
    const closed: ClosedCohort[] = [];
    ledger.prune((T + 5 * D) * 1000, 60_000, (c) => closed.push(c));
    expect(closed.map((c) => [c.exp, c.size, c.drawn])).toEqual([[T + 2 * D, 2, 1]]);
  });

  it('closes a real ticket a routing rule sends to the infinite queue, and tracks no bot token for a newcomer', () => {
    const ledger = new Ledger();
    issue(ledger, T + 1, 1, T + 2 * D);
    ledger.observe(
      drawLine(T + 2 * D - 5, 'bot_queued', id(1), id(11), id(12), {
        decision: 'start',
        outcome: 'startwaiting',
        bot: true,
        rule: 'scrapers',
      }),
    );
    ledger.observe(
      parsedLine(
        {
          tsMs: (T + 2 * D - 4) * 1000,
          reason: 'bot_queued',
          newTid: id(21),
          newExp: T + 4 * D,
          newDec: 'wait',
          nextTid: id(22),
          bot: true,
          rule: 'scrapers',
        },
        D,
      ),
    );
    expect(ledger.waiting(T + 2 * D).total).toBe(0);
    expect([...ledger.tickets.keys()]).toEqual([id(1)]);
    expect(ledger.arrivals.size).toBe(1); // id(1)'s own arrival only
  });

  it("keeps a ticket whose draw waits for its page's proof (proof_pending) undrawn, and closes one drawn with a wrong proof as any draw", () => {
    const ledger = new Ledger();
    issue(ledger, T + 1, 1, T + 2 * D);
    issue(ledger, T + 1, 2, T + 2 * D);
    const at = T + 2 * D + 3;
    // An HTML request with no proof at its draw: not drawn yet, the token kept (with or without a `proof` field).
    ledger.observe(drawLine(at, 'proof_pending', id(1), null, null));
    ledger.observe(drawLine(at + 1, 'proof_pending', id(1), null, null, { proof: 'missing' }));
    // A well-formed solution of another puzzle: drawn at the free share, and lost.
    ledger.observe(
      drawLine(at, 'draw_lost', id(2), id(5), id(6), {
        decision: 'start',
        outcome: 'startwaiting',
        pct: 8,
        proof: 'wrong',
      }),
    );
    expect(ledger.tickets.get(id(1))).toMatchObject({ drawn: false });
    expect(ledger.tickets.get(id(2))).toMatchObject({ drawn: true });
    // id(1) still draws in its window; id(2)'s successor id(5) waits for the next.
    expect(ledger.waiting(T + 2 * D).total).toBe(2);
    expect(ledger.windows.get(T + 2 * D)?.draws).toBe(1);
  });
});
