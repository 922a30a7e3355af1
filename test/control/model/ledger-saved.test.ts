// The ledger saved for a restart and restored from it: JSON-safe, and it goes on as if never stopped.
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../../control/model/ledger.js';
import { restoreLedger, saveLedger, type LedgerSaved } from '../../../control/model/ledger-saved.js';
import { parsedLine } from '../lines.js';
import { tokenIds } from '../../support/token-ids.js';

const D = 30;
const T = 1_800_000_010 - (1_800_000_010 % D);
/** Distinct token ids, spread over the draw numbers. */
const ids = (n: number, salt = 1): string[] => tokenIds(n, salt * 7919);

const arrival = (tid: string, atSec: number, weight = 1, nextTid: string | null = null) =>
  parsedLine(
    { tsMs: atSec * 1000, reason: 'no_token', newTid: tid, newExp: T + 2 * D, newDec: 'wait', nextTid, weight },
    D,
  );

describe('the ledger saved and restored', () => {
  it('goes on after a restart from what it saved, through JSON', () => {
    const ledger = new Ledger({ maxTickets: 500 });
    const pool = ids(1200, 5);
    for (const [i, id] of pool.entries())
      ledger.observe(arrival(id, T + 1 + (i % 20), 1, pool[(i + 1) % pool.length]!));
    ledger.observe(
      parsedLine(
        {
          tsMs: (T + 25) * 1000,
          reason: 'allow_all',
          decision: 'allow',
          outcome: 'origin',
          newTid: 'SESSION1',
          newExp: T + 9999,
          newDec: 'allow',
        },
        D,
      ),
    );
    ledger.prune((T + 26) * 1000, 300_000, () => {});
    const saved = JSON.parse(JSON.stringify(saveLedger(ledger))) as LedgerSaved;
    const back = new Ledger({ maxTickets: 500 });
    restoreLedger(back, saved);
    expect(back.rate).toBe(ledger.rate);
    expect(back.period).toBe(D);
    expect(back.firstMs).toBe(ledger.firstMs);
    expect(back.latestMs).toBe(ledger.latestMs);
    expect(back.waiting(T)).toEqual(ledger.waiting(T));
    expect([...back.tickets]).toEqual([...ledger.tickets]);
    expect([...back.successors]).toEqual([...ledger.successors]);
    expect([...back.arrivals]).toEqual([...ledger.arrivals]);
    expect(back.activeSessions((T + 30) * 1000, 300_000).total).toBe(1);
    // It goes on: a draw of a ticket it knows is counted once, in both.
    const tid = [...ledger.tickets.keys()][0]!;
    for (const l of [ledger, back])
      l.observe(
        parsedLine(
          {
            tsMs: (T + 2 * D + 1) * 1000,
            reason: 'draw_lost',
            decision: 'wait',
            outcome: 'keepwaiting',
            tid,
            exp: T + 2 * D,
            dec: 'wait',
          },
          D,
        ),
      );
    expect(back.windows.get(T + 2 * D)).toEqual(ledger.windows.get(T + 2 * D));
    expect(back.waiting(T)).toEqual(ledger.waiting(T));
  });

  it('refuses a saved ledger of another version', () => {
    const saved = saveLedger(new Ledger());
    expect(() => restoreLedger(new Ledger(), { ...saved, version: 999 } as never)).toThrow(/version/);
  });
});
