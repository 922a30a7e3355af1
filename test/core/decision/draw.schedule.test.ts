// allow_schedule: the controller publishes each window's chance ahead, and a draw uses the chance of
// its token's own window, wherever and whenever it is drawn.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/core/settings/index.js';
import { chanceFor, drawValue } from '../../../src/core/decision/draw.js';
import { estimateFor, estimateWait } from '../../../src/core/answer/estimate.js';
import { FakeRoom, T0 } from '../../support/fakes.js';
import { claimsOf, tokenOf } from '../../../lib/mint.js';

const D = 30;
const t0 = T0 / 1000;
const configOf = (values: Record<string, string>) => parseConfig((k) => values[k] ?? null);

describe('allow_schedule', () => {
  it('gives each window its own chance, the last entry past the end, and allow_percentage before it', () => {
    const { config, problems } = configOf({
      allow_percentage: '7',
      allow_schedule: `${t0 + 60}=30, ${t0}=10,${t0 + 30}=20`,
    });
    expect(problems).toEqual([]);
    expect(chanceFor(config, t0 - 30)).toBe(7);
    expect(chanceFor(config, t0)).toBe(10);
    expect(chanceFor(config, t0 + 30)).toBe(20);
    expect(chanceFor(config, t0 + 60)).toBe(30);
    expect(chanceFor(config, t0 + 3600)).toBe(30);
  });

  it('skips entries it cannot use and names the setting', () => {
    const { config, problems } = configOf({
      allow_percentage: '50',
      allow_schedule: `${t0}=10,${t0 + 30}=120,abc,${t0 + 60}=-1`,
    });
    expect(config.allowSchedule).toEqual([{ start: t0, pct: 10 }]);
    expect(problems.map((p) => p.key)).toEqual(['allow_schedule', 'allow_schedule', 'allow_schedule']);
  });

  it("decides a draw with the chance of the token's window, not allow_percentage", async () => {
    // Chance 0 for every window: whatever allow_percentage says, nobody wins.
    const room = new FakeRoom({
      settings: { allow_percentage: '99', wait_period_duration: String(D), allow_schedule: `${t0}=0` },
      nowMs: T0 + 1000,
    });
    const first = await room.visit();
    const token = tokenOf(first.roomCookies[0]!);
    room.nowMs = (claimsOf(token).exp + D - 1) * 1000;
    const drawn = await room.visit({ cookie: `waiting_room_default=${token}` });
    expect(drawn.log?.reason).toBe('draw_lost');
    expect(drawn.log?.pct).toBe(0);
    // The same token at 100 for its window wins, though allow_percentage is 1.
    room.settings.set('allow_percentage', '1');
    room.settings.set('allow_schedule', `${claimsOf(token).exp}=100`);
    const again = await room.visit({ cookie: `waiting_room_default=${token}` });
    expect(again.log?.reason).toBe('draw_won');
    expect(again.fromOrigin).toBe(true);
  });

  it("admits exactly the tokens whose draw number is under their window's chance", async () => {
    const room = new FakeRoom({
      settings: { allow_percentage: '50', wait_period_duration: String(D) },
      nowMs: T0 + 1000,
    });
    const tokens: string[] = [];
    for (let i = 0; i < 40; i++) tokens.push(tokenOf((await room.visit({ ip: `198.51.100.${i}` })).roomCookies[0]!));
    const exp = claimsOf(tokens[0]!).exp;
    const u = (t: string) => drawValue(Buffer.from(t.split('.')[2]!, 'base64url'));
    // The controller's way: a chance between the 10th and 11th smallest number admits exactly ten.
    const sorted = tokens.map(u).sort((a, b) => a - b);
    const pct = ((sorted[9]! + sorted[10]!) / 2) * 100;
    room.settings.set('allow_schedule', `${exp}=${pct}`);
    room.nowMs = (exp + D - 1) * 1000;
    let won = 0;
    for (let i = 0; i < 40; i++) {
      const answer = await room.visit({ ip: `198.51.100.${i}`, cookie: `waiting_room_default=${tokens[i]}` });
      if (answer.log?.reason === 'draw_won') won++;
    }
    expect(won).toBe(10);
  });
});

describe('the estimate under a schedule', () => {
  it("uses each coming draw's own chance", () => {
    // First draw certain to lose, the second certain to win: the wait is one window later, whatever p.
    const e = estimateWait({
      allowPercentage: 50,
      chances: [0, 100],
      waitPeriodSeconds: 30,
      secondsUntilFirstDraw: 10,
      secondsUntilExpiry: 5,
      jitterSeconds: 2,
    });
    expect(e).not.toBeNull();
    expect(e!.p25).toBeGreaterThanOrEqual(35);
    expect(e!.p75).toBeLessThanOrEqual(5 + 30 + 26 + 2);
  });

  it('is shorter when the published chances rise than at the current chance alone', () => {
    const nowMs = T0 + 1000;
    const exp = t0 + 60;
    const flat = configOf({ allow_percentage: '10', wait_period_duration: '30' }).config;
    const rising = configOf({
      allow_percentage: '10',
      wait_period_duration: '30',
      allow_schedule: [0, 1, 2, 3, 4, 5].map((k) => `${exp + k * 30}=${10 + 15 * k}`).join(','),
    }).config;
    const a = estimateFor(flat, exp + 5, exp, nowMs)!;
    const b = estimateFor(rising, exp + 5, exp, nowMs)!;
    expect(b.p75).toBeLessThan(a.p75);
    expect(b.p50).toBeLessThan(a.p50);
  });

  it('has no estimate when the schedule admits nobody ever', () => {
    const zero = configOf({ allow_percentage: '10', allow_schedule: `${t0}=0` }).config;
    expect(estimateFor(zero, t0 + 40, t0 + 30, T0)).toBeNull();
  });
});
