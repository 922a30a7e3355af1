// fastly_erl: the edge rate limiter (rate counters and penalty boxes), kept in the main thread and
// shared by every request, as one POP's would be.
import type { Sandbox } from '../guest/sandbox.js';
import type { ErlOp } from '../protocol.js';
import { OK } from '../guest/status.js';
import type { AbiModule } from './types.js';

const run = (sb: Sandbox, op: ErlOp): number => sb.io.call<number>({ op: 'erl', erl: op });

export const erl: AbiModule = {
  check_rate: (
    sb,
    rp: number,
    rl: number,
    ep: number,
    el: number,
    delta: number,
    window: number,
    limit: number,
    pp: number,
    pl: number,
    ttl: number,
    out: number,
  ) => {
    const m = sb.mem;
    m.w32(
      out,
      run(sb, {
        kind: 'check',
        rc: m.utf8(rp, rl),
        entry: m.utf8(ep, el),
        delta,
        window,
        limit,
        pb: m.utf8(pp, pl),
        ttl,
      }),
    );
    return OK;
  },
  ratecounter_increment: (sb, rp: number, rl: number, ep: number, el: number, delta: number) => {
    run(sb, { kind: 'increment', rc: sb.mem.utf8(rp, rl), entry: sb.mem.utf8(ep, el), delta });
    return OK;
  },
  ratecounter_lookup_rate: (sb, rp: number, rl: number, ep: number, el: number, window: number, out: number) => {
    sb.mem.w32(out, run(sb, { kind: 'rate', rc: sb.mem.utf8(rp, rl), entry: sb.mem.utf8(ep, el), window }));
    return OK;
  },
  ratecounter_lookup_count: (sb, rp: number, rl: number, ep: number, el: number, duration: number, out: number) => {
    sb.mem.w32(out, run(sb, { kind: 'count', rc: sb.mem.utf8(rp, rl), entry: sb.mem.utf8(ep, el), duration }));
    return OK;
  },
  penaltybox_add: (sb, pp: number, pl: number, ep: number, el: number, ttl: number) => {
    run(sb, { kind: 'pbAdd', pb: sb.mem.utf8(pp, pl), entry: sb.mem.utf8(ep, el), ttl });
    return OK;
  },
  penaltybox_has: (sb, pp: number, pl: number, ep: number, el: number, out: number) => {
    sb.mem.w32(out, run(sb, { kind: 'pbHas', pb: sb.mem.utf8(pp, pl), entry: sb.mem.utf8(ep, el) }));
    return OK;
  },
};
