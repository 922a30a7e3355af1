// fastly_erl: every call is one round trip to the main thread's rate limiter, with the names and
// numbers the guest passed; the answer lands where the guest asked.
import { describe, expect, it } from 'vitest';
import { erl } from '../../../host/src/abi/erl.js';
import { OK } from '../../../host/src/abi/status.js';
import type { Rpc } from '../../../host/src/protocol.js';
import { harness } from './sandbox-fixture.js';

describe('fastly_erl', () => {
  it('check_rate sends the counter, entry, window, limit and penalty box, and writes the verdict byte', () => {
    const h = harness({ answer: () => 1 });
    const [rp, rl] = h.put('rc');
    const [ep, el] = h.put('visitor-1');
    const [pp, pl] = h.put('pb');
    const out = h.area(1);
    expect(h.call(erl.check_rate, rp, rl, ep, el, 2, 10, 100, pp, pl, 300, out)).toBe(OK);
    expect(h.line.calls).toEqual<Rpc[]>([{ op: 'erl', erl: { kind: 'check', rc: 'rc', entry: 'visitor-1', delta: 2, window: 10, limit: 100, pb: 'pb', ttl: 300 } }]);
    expect(h.sb.mem.r8(out)).toBe(1);
  });

  it('answers rates and counts as u32s and penalty-box membership as a byte', () => {
    const answers: Record<string, number> = { rate: 42, count: 7, pbHas: 0 };
    const h = harness({ answer: (rpc) => (rpc.op === 'erl' ? (answers[rpc.erl.kind] ?? 0) : 0) });
    const [rp, rl] = h.put('rc');
    const [ep, el] = h.put('e');
    const rate = h.area(4);
    const count = h.area(4);
    const has = h.area(1);
    h.sb.mem.w8(has, 9);
    expect(h.call(erl.ratecounter_lookup_rate, rp, rl, ep, el, 60, rate)).toBe(OK);
    expect(h.call(erl.ratecounter_lookup_count, rp, rl, ep, el, 30, count)).toBe(OK);
    expect(h.call(erl.penaltybox_has, rp, rl, ep, el, has)).toBe(OK);
    expect([h.u32(rate), h.u32(count), h.sb.mem.r8(has)]).toEqual([42, 7, 0]);
    expect(h.line.calls.map((c) => (c.op === 'erl' ? c.erl : null))).toEqual([
      { kind: 'rate', rc: 'rc', entry: 'e', window: 60 },
      { kind: 'count', rc: 'rc', entry: 'e', duration: 30 },
      { kind: 'pbHas', pb: 'rc', entry: 'e' },
    ]);
  });

  it('increments and adds to a penalty box with one call each', () => {
    const h = harness({ answer: () => 0 });
    const [rp, rl] = h.put('rc');
    const [ep, el] = h.put('e');
    expect(h.call(erl.ratecounter_increment, rp, rl, ep, el, 3)).toBe(OK);
    expect(h.call(erl.penaltybox_add, rp, rl, ep, el, 120)).toBe(OK);
    expect(h.line.calls.map((c) => (c.op === 'erl' ? c.erl : null))).toEqual([
      { kind: 'increment', rc: 'rc', entry: 'e', delta: 3 },
      { kind: 'pbAdd', pb: 'rc', entry: 'e', ttl: 120 },
    ]);
  });
});
