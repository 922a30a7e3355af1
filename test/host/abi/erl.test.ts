// fastly_erl: rate counters and penalty boxes, kept in the main thread; each call is one RPC there.
// (Viceroy's are stubs that always answer 0; the host keeps real counts, as one POP would.)
import { describe, expect, it } from 'vitest';
import { erl } from '../../../host/src/abi/erl.js';
import { INVAL, OK } from '../../../host/src/abi/status.js';
import { Guest, OUTSIDE, UNTOUCHED } from './sandbox-fixture.js';

/** A guest whose main thread answers every erl RPC with `reply`. */
const guest = (reply = 0) => new Guest({ answers: { erl: () => reply } });

describe('fastly_erl.check_rate', () => {
  it('sends every argument to the main thread in one RPC', () => {
    const g = guest();
    g.call(erl, 'check_rate', ...g.str('requests'), ...g.str('client-ü'), 2, 10, 100, ...g.str('offenders'), 300, g.alloc(4));
    expect(g.io.calls).toEqual([{ op: 'erl', erl: { kind: 'check', rc: 'requests', entry: 'client-ü', delta: 2, window: 10, limit: 100, pb: 'offenders', ttl: 300 } }]);
  });

  it('writes the verdict as a whole u32: 1 blocked, 0 not', () => {
    for (const blocked of [1, 0]) {
      const g = guest(blocked);
      const out = g.alloc(4);
      expect(g.call(erl, 'check_rate', ...g.str('rc'), ...g.str('e'), 1, 1, 1, ...g.str('pb'), 60, out)).toBe(OK);
      expect(g.u32(out)).toBe(blocked);
    }
  });

  it('answers INVAL for a name outside guest memory, without asking the main thread', () => {
    const g = guest();
    expect(g.call(erl, 'check_rate', OUTSIDE, 2, ...g.str('e'), 1, 1, 1, ...g.str('pb'), 60, g.alloc(4))).toBe(INVAL);
    expect(g.io.calls).toEqual([]);
  });
});

describe('fastly_erl rate counters', () => {
  it('increment sends the counter, entry and delta, and writes nothing', () => {
    const g = guest();
    expect(g.call(erl, 'ratecounter_increment', ...g.str('rc'), ...g.str('e'), 5)).toBe(OK);
    expect(g.io.calls).toEqual([{ op: 'erl', erl: { kind: 'increment', rc: 'rc', entry: 'e', delta: 5 } }]);
  });

  it("lookup_rate writes the main thread's rate for the window", () => {
    const g = guest(42);
    expect(g.callOut(erl, 'ratecounter_lookup_rate', ...g.str('rc'), ...g.str('e'), 60)).toEqual({ status: OK, value: 42 });
    expect(g.io.calls[0]).toEqual({ op: 'erl', erl: { kind: 'rate', rc: 'rc', entry: 'e', window: 60 } });
  });

  it("lookup_count writes the main thread's count for the duration", () => {
    const g = guest(7);
    expect(g.callOut(erl, 'ratecounter_lookup_count', ...g.str('rc'), ...g.str('e'), 30)).toEqual({ status: OK, value: 7 });
    expect(g.io.calls[0]).toEqual({ op: 'erl', erl: { kind: 'count', rc: 'rc', entry: 'e', duration: 30 } });
  });

  it('answers INVAL for an out-slot outside guest memory', () => {
    const g = guest(7);
    expect(g.call(erl, 'ratecounter_lookup_count', ...g.str('rc'), ...g.str('e'), 30, OUTSIDE)).toBe(INVAL);
  });
});

describe('fastly_erl penalty boxes', () => {
  it('add sends the box, entry and ttl, and writes nothing', () => {
    const g = guest();
    expect(g.call(erl, 'penaltybox_add', ...g.str('pb'), ...g.str('e'), 120)).toBe(OK);
    expect(g.io.calls).toEqual([{ op: 'erl', erl: { kind: 'pbAdd', pb: 'pb', entry: 'e', ttl: 120 } }]);
  });

  it('has writes whether the entry is boxed as a whole u32', () => {
    for (const has of [1, 0]) {
      const g = guest(has);
      const out = g.alloc(4);
      expect(g.call(erl, 'penaltybox_has', ...g.str('pb'), ...g.str('e'), out)).toBe(OK);
      expect(g.u32(out)).toBe(has);
      expect(g.io.calls).toEqual([{ op: 'erl', erl: { kind: 'pbHas', pb: 'pb', entry: 'e' } }]);
    }
  });

  it('leaves the out-slot alone when a name is outside guest memory', () => {
    const g = guest(1);
    const out = g.alloc(4);
    expect(g.call(erl, 'penaltybox_has', ...g.str('pb'), OUTSIDE, 1, out)).toBe(INVAL);
    expect(g.u32(out)).toBe(UNTOUCHED);
  });
});
