// The heartbeat's verdicts: whose the service is, from the `controller` value in the store.
import { describe, expect, it } from 'vitest';
import { Heartbeat, parseBeat } from '../../../control/failover/heartbeat.js';

const me = new Heartbeat({ id: 'aaaa0001', host: 'ops-1', pid: 10, started: 1000, lease: 600 });
const beat = (o: Partial<{ id: string; host: string; pid: number; started: number; beat: number }>) =>
  JSON.stringify({ id: 'bbbb0002', host: 'ops-2', pid: 20, started: 900, beat: 1100, lease: 600, ...o });

describe('the heartbeat', () => {
  it('is mine when absent, not a heartbeat, or my own', () => {
    expect(me.check(undefined, 1200)).toEqual({ kind: 'mine', tookOver: null });
    expect(me.check('not json', 1200)).toEqual({ kind: 'mine', tookOver: null });
    expect(parseBeat('{"id":3}')).toBeNull();
    expect(me.check(me.value(1190), 1200)).toEqual({ kind: 'mine', tookOver: null });
    // My id, from before this process started: the run before a restart from the state file.
    expect(me.check(beat({ id: 'aaaa0001', pid: 9, started: 500, beat: 990 }), 1200)).toEqual({
      kind: 'mine',
      tookOver: null,
    });
  });

  it("is another's while its beat is younger than the lease, and mine to take over after", () => {
    expect(me.check(beat({}), 1200)).toMatchObject({
      kind: 'other',
      other: { host: 'ops-2', pid: 20 },
      ageSeconds: 100,
    });
    expect(me.check(beat({}), 1699)).toMatchObject({ kind: 'other' });
    expect(me.check(beat({}), 1700)).toMatchObject({ kind: 'mine', tookOver: { pid: 20 } });
  });

  it('is the first started when two are alive, and another process resumed from my state file is another', () => {
    // Started after me: I keep the service (it stands by once it reads my beat).
    expect(me.check(beat({ started: 1050 }), 1200)).toEqual({ kind: 'mine', tookOver: null });
    // My id, beating after I started, from another process: a twin run from the same state file.
    expect(me.check(beat({ id: 'aaaa0001', pid: 11, started: 990, beat: 1150 }), 1200)).toMatchObject({
      kind: 'other',
      other: { pid: 11 },
    });
  });
});
