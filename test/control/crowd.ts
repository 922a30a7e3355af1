// A steady crowd in real time, as decision lines the edge would log: every second, `perSecond` new
// visitors of each room take a wait token for the cohort two windows on, and `admitted` of the earlier
// ones are let in. For the controller's end-to-end tests against the Fastly API stand-in, whose
// `fastly log-tail` prints what a test pushes.
import { decisionLine } from '../../src/core/log/log-line.js';

const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** An 8-character token id spread over the draw numbers by `n` (a Weyl sequence of the golden ratio). */
export function crowdTid(n: number): string {
  let x = Math.floor(((n * 0.6180339887498949) % 1) * 2 ** 48);
  let s = '';
  for (let i = 0; i < 8; i++) {
    s = ID_CHARS[x % 64]! + s;
    x = Math.floor(x / 64);
  }
  return s;
}

export interface CrowdRoom {
  id: string;
  /** The path its visitors ask for (the routing sends it to the room). */
  path: string;
  /** New visitors a second. */
  perSecond: number;
  /** Visitors let in a second (waiting ones whose draw came up). */
  admittedPerSecond?: number;
}

/** The two rooms of the controller's end-to-end runs (control-process.ts's TWO_ROOMS), both above their targets. */
export const TWO_ROOM_CROWD: readonly CrowdRoom[] = [
  { id: 'shop', path: '/', perSecond: 5, admittedPerSecond: 1 },
  { id: 'checkout', path: '/checkout', perSecond: 3, admittedPerSecond: 1 },
];

/** One second of the crowd at `nowMs`: every room's lines. `seq` numbers the visitors across calls. */
export function crowdSecond(rooms: readonly CrowdRoom[], nowMs: number, seq: { n: number }, d = 30): string[] {
  const lines: string[] = [];
  const win = Math.floor(nowMs / 1000 / d) * d;
  for (const room of rooms) {
    const common = {
      pop: 'LHR',
      room: room.id,
      rule: null,
      waitPeriodSeconds: d,
      kid: 'k',
      method: 'GET',
      path: room.path,
      identity: 'ip' as const,
    };
    for (let i = 0; i < room.perSecond; i++) {
      const n = seq.n++;
      lines.push(
        decisionLine({
          ...common,
          nowMs,
          decision: 'start',
          outcome: 'startwaiting',
          reason: 'no_token',
          status: 200,
          result: {
            used: null,
            setToken: `h.p.${crowdTid(n)}`,
            set: { dec: 'wait', exp: win + 2 * d },
            nextToken: `h.p.${crowdTid(n + 1_000_000)}`,
            pct: null,
          },
        }),
      );
    }
    for (let i = 0; i < (room.admittedPerSecond ?? 0); i++) {
      const n = seq.n++;
      lines.push(
        decisionLine({
          ...common,
          nowMs,
          decision: 'allow',
          outcome: 'origin',
          reason: 'draw_won',
          status: 200,
          result: {
            used: { token: `h.p.${crowdTid(n)}`, dec: 'wait', exp: win },
            setToken: `h.p.${crowdTid(n + 2_000_000)}`,
            set: { dec: 'allow', exp: win + 600 },
            nextToken: null,
            pct: 50,
          },
        }),
      );
    }
  }
  return lines;
}
