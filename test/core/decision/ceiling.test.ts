// pop_admissions_per_second: a POP never admits more than its ceiling over 10 seconds, and a winner it
// holds back keeps the win and goes before anyone who has not yet won.
import { describe, expect, it } from 'vitest';
import { FakeRoom, SlidingCounter, T0 } from '../../support/fakes.js';
import { SandboxMemory } from '../../../src/core/memory/index.js';
import { CEILING_DIAG } from '../../../src/core/decision/ceiling.js';
import { claimsOf, tokenOf } from '../../../lib/mint.js';

const D = 30;

/** A room where every draw wins (chance 100 for the tokens' window) and at most `ceiling`/s get in. */
async function crowd(ceiling: string, visitors: number) {
  const room: FakeRoom = new FakeRoom({
    settings: { allow_percentage: '50', wait_period_duration: String(D), pop_admissions_per_second: ceiling },
    nowMs: T0 + 1000,
    rateCounter: new SlidingCounter(() => room.nowMs),
  });
  const tokens: string[] = [];
  for (let i = 0; i < visitors; i++)
    tokens.push(tokenOf((await room.visit({ ip: `198.51.100.${i}` })).roomCookies[0]!));
  const exp = claimsOf(tokens[0]!).exp;
  room.settings.set('allow_schedule', `${exp}=100`);
  room.nowMs = (exp + D - 1) * 1000;
  return { room, tokens };
}

describe('the per-POP ceiling', () => {
  it('admits up to ten seconds of the ceiling, then holds winners with a won token', async () => {
    const { room, tokens } = await crowd('1', 15);
    const reasons: string[] = [];
    const held: string[] = [];
    for (let i = 0; i < 15; i++) {
      const answer = await room.visit({ ip: `198.51.100.${i}`, cookie: `waiting_room_default=${tokens[i]}` });
      reasons.push(String(answer.log?.reason));
      if (answer.log?.reason === 'ceiling_held') {
        expect(answer.fromOrigin).toBe(false);
        expect(Number(answer.response.headers.get('retry-after'))).toBeLessThanOrEqual(2);
        const won = tokenOf(answer.roomCookies[0]!);
        expect(claimsOf(won).dec).toBe('won');
        expect(answer.log?.held).toBe(true);
        held.push(won);
      }
    }
    expect(reasons.filter((r) => r === 'draw_won')).toHaveLength(10);
    expect(held).toHaveLength(5);

    // A second later the window is still full: the held come back and keep waiting, with their win.
    room.advance(1);
    const again = await room.visit({ ip: '198.51.100.10', cookie: `waiting_room_default=${held[0]}` });
    expect(again.log?.reason).toBe('ceiling_held');
    expect(again.roomCookies).toEqual([]);

    // Once the first admissions leave the 10-second span, the held get in: nobody loses a won draw.
    room.advance(10);
    for (let i = 0; i < 5; i++) {
      const answer = await room.visit({ ip: `198.51.100.${10 + i}`, cookie: `waiting_room_default=${held[i]}` });
      expect(answer.log?.reason).toBe('won_admitted');
      expect(answer.fromOrigin).toBe(true);
      expect(claimsOf(tokenOf(answer.roomCookies[0]!)).dec).toBe('allow');
    }
  });

  it('holds a fresh winner while others are held, so the held go first', async () => {
    const { room, tokens } = await crowd('1', 12);
    for (let i = 0; i < 11; i++)
      await room.visit({ ip: `198.51.100.${i}`, cookie: `waiting_room_default=${tokens[i]}` });
    // Eleven seconds on the span has room again, but someone was held in the last ten seconds.
    room.advance(9);
    const fresh = await room.visit({ ip: '198.51.100.11', cookie: `waiting_room_default=${tokens[11]}` });
    expect(fresh.log?.reason).toBe('ceiling_held');
  });

  it('is skipped when the runtime has no rate counter: winners are admitted as without a ceiling', async () => {
    const room = new FakeRoom({
      settings: { allow_percentage: '50', wait_period_duration: String(D), pop_admissions_per_second: '1' },
      nowMs: T0 + 1000,
    });
    const token = tokenOf((await room.visit()).roomCookies[0]!);
    room.settings.set('allow_schedule', `${claimsOf(token).exp}=100`);
    room.nowMs = (claimsOf(token).exp + D - 1) * 1000;
    expect((await room.visit({ cookie: `waiting_room_default=${token}` })).log?.reason).toBe('draw_won');
  });

  it('is skipped for the request, and said once, when the counter fails', async () => {
    const room = new FakeRoom({
      settings: { allow_percentage: '100', pop_admissions_per_second: '1' },
      rateCounter: {
        increment() {
          throw new Error('counter down');
        },
        count() {
          throw new Error('counter down');
        },
      },
    });
    const answer = await room.visit();
    expect(answer.fromOrigin).toBe(true);
    expect(answer.diags.filter((d) => d.includes('pop_admissions_per_second'))).toHaveLength(1);
  });

  it('without a rate counter, lets visitors in and says so once per sandbox, with the command that fixes it', async () => {
    const room = new FakeRoom({
      settings: { allow_percentage: '100', pop_admissions_per_second: '1' },
      memory: new SandboxMemory(),
    });
    for (let i = 0; i < 5; i++) expect((await room.visit({ ip: `198.51.100.${i}` })).fromOrigin).toBe(true);
    expect(room.diags.filter((d) => d.includes('pop_admissions_per_second'))).toEqual([CEILING_DIAG]);
    expect(CEILING_DIAG).toContain('npm run tune -- pop_admissions_per_second=');
  });
});
