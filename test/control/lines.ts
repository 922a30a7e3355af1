// Decision lines as the edge writes them, for the controller's tests.
import type { DecisionLine, PlanContext } from '../../control/types.js';
import { decisionLine } from '../../src/core/log/log-line.js';

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
    result: {
      used: null,
      setToken: `h.p.${String(i).padStart(8, 'A')}`,
      set: { dec: 'allow', exp: 0 },
      nextToken: null,
      pct: null,
    },
  });

/** A plan() tick with a current view, every tick free to write (the local file); and one holding. */
export const LIVE: PlanContext = { holding: false, writeIntervalMs: 0 };
export const HOLDING: PlanContext = { holding: true, writeIntervalMs: 0 };

const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** An 8-character token id whose draw number is about u. */
export const idFor = (u: number, salt = 0): string => {
  let n = Math.floor(u * 2 ** 48) + salt;
  let s = '';
  for (let i = 0; i < 8; i++) {
    s = ID_CHARS[n % 64]! + s;
    n = Math.floor(n / 64);
  }
  return s;
};

/** `n` new visitors at `ms`, each with a ticket for the cohort two windows on (windows of `d` s). */
export function waitArrivals(n: number, ms: number, salt: number, d = 30): DecisionLine[] {
  const exp = Math.floor(ms / 1000 / d) * d + 2 * d;
  return Array.from({ length: n }, (_, i) =>
    parsedLine(
      {
        tsMs: ms,
        reason: 'no_token',
        newTid: idFor((i + 0.5) / n, salt),
        newExp: exp,
        newDec: 'wait',
        nextTid: idFor((((i * 7919) % n) + 0.5) / n, salt + 1),
      },
      d,
    ),
  );
}

/** A line that says only that the log has been read up to `tsMs` (a page of the shop, no token). */
export const heardLine = (tsMs: number, d = 30): DecisionLine =>
  parsedLine({ tsMs, reason: 'bypass_path', decision: 'allow', outcome: 'origin' }, d);
