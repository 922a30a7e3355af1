// Decision lines as the edge writes them, for the controller's tests.
import { decisionLine } from '../../src/core/log-line.js';

/** An open room's admission of newcomer `i` at `ms`, at `pop`. */
export const admittedLine = (ms: number, i: number, pop = 'LHR'): string =>
  decisionLine({
    nowMs: ms,
    pop,
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
