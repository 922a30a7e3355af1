// The ledger under log sampling: tickets tracked by the sample, counts scaled by the weight, and its own
// bound on the tickets it tracks.
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../../control/model/ledger.js';
import { inLogSample } from '../../../src/core/log/log-sample.js';
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

describe('the ledger, with a sampled log', () => {
  it('counts each sampled arrival and waiting ticket at its weight', () => {
    const ledger = new Ledger();
    const sampled = ids(2000).filter((id) => inLogSample(id, 0.1));
    for (const id of sampled) ledger.observe(arrival(id, T + 1, 10));
    expect(ledger.arrivals.get(T)).toBe(10 * sampled.length);
    expect(ledger.waiting(T).total).toBe(10 * sampled.length);
  });

  it('counts an always-logged admission of a ticket outside the sample, and tracks no ticket for it', () => {
    const ledger = new Ledger();
    const [inside, outside] = [
      ids(400).find((id) => inLogSample(id, 0.1))!,
      ids(400).find((id) => !inLogSample(id, 0.1))!,
    ];
    // The edge samples at 0.1: the rate its waiting lines say.
    ledger.observe(arrival(inside, T + 1, 10));
    for (const tid of [inside, outside]) {
      ledger.observe(
        parsedLine(
          {
            tsMs: (T + 2 * D + 3) * 1000,
            reason: 'draw_won',
            decision: 'allow',
            outcome: 'origin',
            tid,
            exp: T + 2 * D,
            dec: 'wait',
            newTid: tid.replace(/^./, 'Z'),
            newExp: T + 9999,
            newDec: 'allow',
          },
          D,
        ),
      );
    }
    expect(ledger.windows.get(T + 2 * D)?.admissions).toBe(2);
    expect(ledger.tickets.has(outside)).toBe(false);
    expect(ledger.tickets.get(inside)).toMatchObject({ drawn: true });
  });

  it('expects a named successor only when it is in the sample', () => {
    const ledger = new Ledger();
    const pool = ids(400);
    const parent = pool.find((id) => inLogSample(id, 0.1))!;
    const child = pool.find((id) => !inLogSample(id, 0.1))!;
    ledger.observe(arrival(parent, T + 1, 10, child));
    // The parent loses: its successor outside the sample is never tracked, so never counted twice.
    ledger.observe(
      parsedLine(
        {
          tsMs: (T + 2 * D + 3) * 1000,
          reason: 'draw_lost',
          decision: 'wait',
          outcome: 'keepwaiting',
          tid: parent,
          exp: T + 2 * D,
          dec: 'wait',
          newTid: child,
          newExp: T + 3 * D,
          newDec: 'wait',
          weight: 10,
        },
        D,
      ),
    );
    expect(ledger.tickets.has(child)).toBe(false);
    expect(ledger.waiting(T + 2 * D).total).toBe(0);
  });

  it('keeps at most maxTickets tickets by halving its own rate, and still counts the crowd', () => {
    const ledger = new Ledger({ maxTickets: 1000 });
    const all = ids(8000, 3);
    for (const id of all) ledger.observe(arrival(id, T + 1));
    expect(ledger.tickets.size).toBeLessThanOrEqual(1000);
    expect(ledger.rate).toBeLessThan(1);
    // Nested: exactly the tickets in its own sample are kept.
    for (const id of ledger.tickets.keys()) expect(inLogSample(id, ledger.rate)).toBe(true);
    const waiting = ledger.waiting(T).total;
    expect(waiting).toBeGreaterThan(0.85 * all.length);
    expect(waiting).toBeLessThan(1.15 * all.length);
    expect(ledger.arrivals.get(T)).toBeGreaterThan(0.85 * all.length);
    expect(ledger.arrivals.get(T)).toBeLessThan(1.15 * all.length);
  });
});
