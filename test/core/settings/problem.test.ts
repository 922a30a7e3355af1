// A problem is a value (src/core/settings/problem.ts); the texts made from it are those the log, the
// controller and tune have always shown.
import { describe, expect, it } from 'vitest';
import {
  describeProblem,
  parseRoomConfig,
  problemMessage,
  problemPlace,
  problemText,
  type SettingProblem,
} from '../../../src/core/settings/index.js';

const placed: SettingProblem = {
  key: 'wait_period_duration',
  scope: 'room.shop',
  value: 'soon',
  reason: 'must be a whole number of seconds from 1 to 315360000',
  instead: 'using 30',
};

describe('a setting problem', () => {
  it('is named by the store key and the setting, and said as what it must be, then what the room does', () => {
    expect(problemPlace(placed)).toBe('room.shop: wait_period_duration');
    expect(problemMessage(placed)).toBe('must be a whole number of seconds from 1 to 315360000; using 30');
    expect(describeProblem(placed)).toBe(
      'waiting_room_config: room.shop: wait_period_duration = "soon" must be a whole number of seconds from 1 to 315360000; using 30',
    );
    expect(problemText({ ...placed, scope: null })).toBe(
      'wait_period_duration: must be a whole number of seconds from 1 to 315360000; using 30',
    );
  });

  it('about a whole store value names the key alone, and a missing value shows none', () => {
    const whole: SettingProblem = {
      key: null,
      scope: 'room.shop',
      value: '',
      reason: 'is not valid JSON',
      instead: '',
    };
    expect(describeProblem(whole)).toBe('waiting_room_config: room.shop is not valid JSON');
  });

  it('comes out of a room read placed where the value was written', () => {
    const { problems } = parseRoomConfig('shop', {
      settings: JSON.stringify({ allow_percentage: '50' }),
      room: JSON.stringify({ wait_period_duration: 'soon' }),
      percentage: null,
      live: null,
    });
    expect(problems).toEqual([{ ...placed }]);
  });
});
