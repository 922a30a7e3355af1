// fastly_erl: rate counters and penalty boxes, kept in the main thread; each call is one RPC there.
// (Viceroy's are stubs that always answer 0; the host keeps real counts, as one POP would.)
import { describe, expect, it } from 'vitest';
import { erl } from '../../../host/src/abi/erl.js';
import { INVAL, OK } from '../../../host/src/guest/status.js';
import type { ErlOp } from '../../../host/src/protocol.js';
import { Guest, OUTSIDE, UNTOUCHED } from './sandbox-fixture.js';

/** A guest whose main thread answers every erl RPC with `reply`. */
const guest = (reply = 0) => new Guest({ answers: { erl: () => reply } });

type Call = [call: string, args: (g: Guest) => number[], op: ErlOp];

/** Calls that only tell the main thread something, with the raw arguments a guest passes and the RPC due. */
const TELLING: Call[] = [
  [
    'ratecounter_increment',
    (g) => [...g.str('rc'), ...g.str('client-ü'), 5],
    { kind: 'increment', rc: 'rc', entry: 'client-ü', delta: 5 },
  ],
  ['penaltybox_add', (g) => [...g.str('pb'), ...g.str('e'), 120], { kind: 'pbAdd', pb: 'pb', entry: 'e', ttl: 120 }],
];

/** Calls that write the main thread's answer to an out-slot (the last argument, not listed here). */
const ASKING: Call[] = [
  [
    'ratecounter_lookup_rate',
    (g) => [...g.str('rc'), ...g.str('e'), 60],
    { kind: 'rate', rc: 'rc', entry: 'e', window: 60 },
  ],
  [
    'ratecounter_lookup_count',
    (g) => [...g.str('rc'), ...g.str('e'), 30],
    { kind: 'count', rc: 'rc', entry: 'e', duration: 30 },
  ],
  ['penaltybox_has', (g) => [...g.str('pb'), ...g.str('e')], { kind: 'pbHas', pb: 'pb', entry: 'e' }],
  [
    'check_rate',
    (g) => [...g.str('requests'), ...g.str('e'), 2, 10, 100, ...g.str('offenders'), 300],
    { kind: 'check', rc: 'requests', entry: 'e', delta: 2, window: 10, limit: 100, pb: 'offenders', ttl: 300 },
  ],
];

describe('fastly_erl', () => {
  it.each(TELLING)('%s sends its arguments to the main thread in one RPC', (call, args, op) => {
    const g = guest();
    expect(g.call(erl, call, ...args(g))).toBe(OK);
    expect(g.io.calls).toEqual([{ op: 'erl', erl: op }]);
  });

  it.each(ASKING)('%s sends its arguments in one RPC and writes the answer as a whole u32', (call, args, op) => {
    for (const answer of [42, 1, 0]) {
      const g = guest(answer);
      expect(g.callOut(erl, call, ...args(g)), String(answer)).toEqual({ status: OK, value: answer });
      expect(g.io.calls).toEqual([{ op: 'erl', erl: op }]);
    }
  });

  it.each(ASKING)('%s answers INVAL for an out-slot outside guest memory', (call, args) => {
    const g = guest(7);
    expect(g.call(erl, call, ...args(g), OUTSIDE)).toBe(INVAL);
  });

  it.each([...TELLING, ...ASKING])(
    '%s answers INVAL for a name outside guest memory, asks nothing and writes nothing',
    (call, args) => {
      const g = guest(1);
      const rest = args(g).slice(2);
      const out = g.alloc(4);
      expect(g.call(erl, call, OUTSIDE, 2, ...rest, out)).toBe(INVAL);
      expect(g.io.calls).toEqual([]);
      expect(g.u32(out)).toBe(UNTOUCHED);
    },
  );
});
