// The proof of work's players: a farm's one CPU budget shared by its identities, worked in order of
// due times, and honest pages that solve before they check, their CPU time counted.
import { describe, expect, it } from 'vitest';
import { PHONE_RATE } from '../../src/core/tokens/proof.js';
import type { Actor } from '../../sim/actor.js';
import { Farm, ProofPlayers, workOf, type BotSpec } from '../../sim/bot-farm.js';
import type { RoomAnswer, SimPuzzle } from '../../sim/room.js';
import type { Group } from '../../sim/visitors.js';

/** A puzzle whose solution takes `work` digests: 8 counters summing to work - 8. */
function puzzle(token: string, work: number): SimPuzzle {
  const each = Math.floor((work - 8) / 8);
  const counters = [work - 8 - 7 * each, each, each, each, each, each, each, each];
  return { token, seconds: 5, counters };
}

const answer = (p: SimPuzzle | null): RoomAnswer => ({
  outcome: 'keepwaiting',
  reason: 'draw_lost',
  pop: 0,
  allowPercentage: 10,
  setToken: p?.token ?? null,
  usedToken: null,
  clearCookie: false,
  waitDueMs: null,
  pos: null,
  facts: null,
  puzzle: p,
  proofCheck: null,
  bot: false,
});

const actor = (id: number, group: Group): Actor => ({ id, group, lastRequestMs: 0 }) as Actor;

// One core at a million digests a second: a million digests is one second of the farm's time.
const spec: BotSpec = { cores: 1, coreRate: 1_000_000, phoneRate: PHONE_RATE, laptopRate: 4 * PHONE_RATE };

describe('the farm', () => {
  it('counts the exact work: every counter up to the secret one, in each of the 8 sub-challenges', () => {
    expect(workOf({ token: 't', seconds: 5, counters: [0, 0, 0, 0, 0, 0, 0, 0] })).toBe(8);
    expect(workOf({ token: 't', seconds: 5, counters: [9, 1, 2, 3, 4, 5, 6, 7] })).toBe(45);
  });

  it('shares one budget between its identities, the earliest due first', () => {
    const farm = new Farm(spec);
    // Two puzzles of 0.6 s each; the later-due one arrives first, the earlier-due one preempts it.
    farm.add(1, puzzle('late', 600_000), 0, 2_000);
    farm.add(2, puzzle('early', 600_000), 0, 1_000);
    expect(farm.collect(2, 'early', 1_000)).not.toBeNull();
    // 1.2 s of work by 2 s: both ready.
    expect(farm.collect(1, 'late', 2_000)).not.toBeNull();
    expect(farm.trace.solutions).toBe(2);
  });

  it('gives up a solution it cannot have ready when due, and spends the time on the next', () => {
    const farm = new Farm(spec);
    farm.add(1, puzzle('a', 800_000), 0, 1_000);
    farm.add(2, puzzle('b', 800_000), 0, 1_000);
    farm.add(3, puzzle('c', 800_000), 0, 1_700);
    // a is ready at 0.8 s; b could not be before 1.6 s, so it is not started; c is ready at 1.6 s.
    expect(farm.collect(1, 'a', 1_000)).not.toBeNull();
    expect(farm.collect(2, 'b', 1_000)).toBeNull();
    expect(farm.collect(3, 'c', 1_700)).not.toBeNull();
    expect(farm.trace).toMatchObject({ tokens: 3, solutions: 2, givenUp: 1 });
    expect(farm.trace.digests).toBeCloseTo(1_600_000, -2);
  });

  it('has no solution for a token other than the one it solved', () => {
    const farm = new Farm(spec);
    farm.add(1, puzzle('a', 100), 0, 1_000);
    expect(farm.collect(1, 'another', 1_000)).toBeNull();
  });
});

describe('the players', () => {
  it("a phone's page solves at PHONE_RATE before it checks, sends the solution, and the CPU time is counted", () => {
    const players = new ProofPlayers(spec);
    const phone = actor(0, 'phone');
    const p = puzzle('tok', 2 * PHONE_RATE);
    players.answered(phone, answer(p), 10_000);
    // Retry-After would bring it back 1 s later; the solve takes 2 s.
    expect(players.nextCheck(phone, 11_000)).toBe(12_000);
    expect(players.nextCheck(phone, 20_000)).toBe(20_000);
    expect(phone.solveSeconds).toBeCloseTo(2);
    // Its script's check: JSON, with the solution; before it is ready, `none`; the first load, nothing.
    expect(players.request(phone, 'tok', 12_000)).toEqual({ header: p.counters.join('.'), json: true });
    expect(players.request(phone, 'tok', 11_000)).toEqual({ header: 'none', json: true });
    expect(players.request(phone, null, 0)).toEqual({ header: null, json: false });
    // The same puzzle again (a not-due answer) is not solved twice.
    players.answered(phone, answer(p), 12_000);
    expect(phone.solveSeconds).toBeCloseTo(2);
  });

  it('a laptop solves faster; a visitor without JavaScript sends nothing', () => {
    const players = new ProofPlayers(spec);
    const laptop = actor(0, 'laptop');
    players.answered(laptop, answer(puzzle('tok', 2 * PHONE_RATE)), 0);
    expect(players.nextCheck(laptop, 0)).toBe(500);
    const nojs = actor(1, 'nojs');
    players.answered(nojs, answer(puzzle('tok2', 100)), 0);
    expect(players.request(nojs, 'tok2', 1_000)).toBeUndefined();
  });

  it("a farm identity sends the farm's solution when ready, else `none` (smart) or no header (naive), asking for JSON", () => {
    const players = new ProofPlayers(spec);
    const [ready, late, naive] = [actor(0, 'farm'), actor(1, 'farm'), actor(2, 'farm-naive')];
    const p = puzzle('a', 500_000);
    players.answered(ready, answer(p), 0);
    expect(players.nextCheck(ready, 1_000)).toBe(1_000); // an app: exactly on Retry-After, never later
    players.answered(late, answer(puzzle('b', 5_000_000)), 0);
    players.nextCheck(late, 1_000);
    players.answered(naive, answer(puzzle('c', 5_000_000)), 0);
    players.nextCheck(naive, 1_000);
    expect(players.request(ready, 'a', 1_000)).toEqual({ header: p.counters.join('.'), json: true });
    expect(players.request(late, 'b', 1_000)).toEqual({ header: 'none', json: true });
    expect(players.request(naive, 'c', 1_000)).toEqual({ header: null, json: true });
  });
});
