// Decision lines as the edge writes them, for the controller's tests.
import type { DecisionLine } from '../../control/types.js';
import { decisionLine } from '../../src/core/log-line.js';

/** A parsed decision line with nothing but what `partial` names, in windows of `d` seconds. */
export function parsedLine(partial: Partial<DecisionLine> & { tsMs: number; reason: string }, d = 30): DecisionLine {
  return {
    pop: 'LHR',
    room: 'default',
    rule: null,
    win: Math.floor(partial.tsMs / 1000 / d) * d,
    period: d,
    decision: 'start',
    outcome: 'startwaiting',
    tid: null,
    exp: null,
    dec: null,
    newTid: null,
    newExp: null,
    newDec: null,
    nextTid: null,
    pct: null,
    pos: null,
    weight: 1,
    ...partial,
  };
}

/** An open room's admission of newcomer `i` at `ms`, at `pop`, in `room`. */
export const admittedLine = (ms: number, i: number, pop = 'LHR', room = 'default'): string =>
  decisionLine({
    nowMs: ms,
    pop,
    room,
    rule: null,
    waitPeriodSeconds: 30,
    decision: 'allow',
    outcome: 'origin',
    reason: 'allow_all',
    kid: 'k',
    method: 'GET',
    path: '/',
    identity: 'ip',
    status: 200,
    result: { used: null, setToken: `h.p.${String(i).padStart(8, 'A')}`, set: { dec: 'allow', exp: 0 }, nextToken: null, pct: null },
  });
