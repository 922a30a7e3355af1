// The chance in force now and its source: what the banner, the JSON answer and tune say a draw uses.
import { describe, expect, it } from 'vitest';
import { chanceNow, chanceSourceText, chanceText } from '../../../src/core/decision/chance-now.js';
import { parseConfig } from '../../../src/core/settings/index.js';
import { claimsOf, tokenOf } from '../../../lib/mint.js';
import { FakeRoom, T0 } from '../../support/fakes.js';

const D = 10;
const t0 = T0 / 1000;
const configOf = (values: Record<string, string>) =>
  parseConfig((k) => ({ wait_period_duration: String(D), ...values })[k] ?? null).config;
// A stopped controller's schedule: its last entry (2.56) is its fallback, an hour behind the clock.
const deadSchedule = `${t0 - 3600}=2.39,${t0 - 3590}=2.4,${t0 - 3000}=2.561533`;

describe('chanceNow', () => {
  it('is allow_percentage without a schedule', () => {
    expect(chanceNow(configOf({ allow_percentage: '50' }), t0 + 3)).toMatchObject({
      percentage: 50,
      source: 'allow_percentage',
      windowStart: t0,
      fallbackFrom: null,
    });
  });

  it("is a stopped controller's fallback, not allow_percentage, once its schedule has run out", () => {
    const now = chanceNow(configOf({ allow_percentage: '50', allow_schedule: deadSchedule }), t0 + 3);
    expect(now).toMatchObject({
      percentage: 2.561533,
      source: 'fallback',
      allowPercentage: 50,
      fallbackFrom: t0 - 3000,
    });
    expect(chanceText(now.percentage)).toBe('2.56');
    expect(chanceSourceText(now)).toContain('fallback');
  });

  it("is the schedule's entry for the current window while the schedule covers it, allow_percentage before it", () => {
    const config = configOf({ allow_percentage: '50', allow_schedule: `${t0}=10,${t0 + 10}=20,${t0 + 600}=5` });
    expect(chanceNow(config, t0 - 1)).toMatchObject({ percentage: 50, source: 'allow_percentage' });
    expect(chanceNow(config, t0 + 9)).toMatchObject({ percentage: 10, source: 'schedule' });
    expect(chanceNow(config, t0 + 15)).toMatchObject({ percentage: 20, source: 'schedule' });
    expect(chanceNow(config, t0 + 600)).toMatchObject({ percentage: 5, source: 'fallback' });
  });

  it('is allow_percentage at 0 and 100 whatever the schedule: the master switch decides before any draw', () => {
    expect(chanceNow(configOf({ allow_percentage: '0', allow_schedule: deadSchedule }), t0)).toMatchObject({
      percentage: 0,
      source: 'allow_percentage',
    });
    expect(chanceNow(configOf({ allow_percentage: '100', allow_schedule: deadSchedule }), t0)).toMatchObject({
      percentage: 100,
      source: 'allow_percentage',
    });
  });

  it('is the chance the room really draws a token of the current window at', async () => {
    const room = new FakeRoom({
      settings: { allow_percentage: '50', wait_period_duration: String(D), allow_schedule: deadSchedule },
      nowMs: T0 + 1000,
    });
    const token = tokenOf((await room.visit()).roomCookies[0]!);
    const exp = claimsOf(token).exp;
    room.nowMs = (exp + D - 1) * 1000;
    const drawn = await room.visit({ cookie: `waiting_room_default=${token}` });
    expect(drawn.log?.pct).toBe(
      chanceNow(configOf({ allow_percentage: '50', allow_schedule: deadSchedule }), exp + D - 1).percentage,
    );
    expect(drawn.log?.pct).toBe(2.561533);
  });
});
