// Where each setting lives in waiting_room_config, and how a room's settings come together from the
// few values a request reads.
import { describe, expect, it } from 'vitest';
import {
  parseRoomConfig,
  liveKey,
  mergeRoomSettings,
  percentageKey,
  readRoomRaws,
  roomKey,
  storeFromSettings,
  storeWrites,
  problemPlace,
  shownProblem,
} from '../../../src/core/settings/index.js';
import type { ConfigProblem } from '../../../src/core/types.js';

const store = (values: Record<string, string>) => (key: string) => values[key] ?? null;

describe('a room reads four values whatever the number of settings', () => {
  it('reads the service-wide settings, its own, its allow_percentage and what the controller published', () => {
    const asked: string[] = [];
    readRoomRaws((k) => (asked.push(k), null), 'shop');
    expect(asked).toEqual(['settings', 'room.shop', 'room.shop.allow_percentage', 'room.shop.live']);
    asked.length = 0;
    readRoomRaws((k) => (asked.push(k), null), null);
    expect(asked).toEqual(['settings']);
  });

  it('takes each setting from the most specific place: live, allow_percentage, the room, the service', () => {
    const values = {
      settings: JSON.stringify({
        allow_percentage: '10',
        wait_period_duration: '30',
        message: 'service',
        queue_cursor: '1:2:3',
      }),
      'room.shop': JSON.stringify({ wait_period_duration: 20, message: 'shop' }),
      'room.shop.allow_percentage': '40',
      'room.shop.live': JSON.stringify({ queue_cursor: '5:6:7' }),
    };
    const { config, problems } = parseRoomConfig('shop', readRoomRaws(store(values), 'shop'));
    expect(problems).toEqual([]);
    expect(config).toMatchObject({
      room: 'shop',
      allowPercentage: 40,
      waitPeriodSeconds: 20,
      message: 'shop',
      queueCursor: { at: 5, pos: 6, speed: 7 },
    });
    // Another room on the same service gets the service-wide values.
    const other = parseRoomConfig('checkout', readRoomRaws(store(values), 'checkout')).config;
    expect(other).toMatchObject({ room: 'checkout', allowPercentage: 10, waitPeriodSeconds: 30, message: 'service' });
  });

  it('names the store key a bad value came from, and falls back for that value alone', () => {
    const values = {
      settings: JSON.stringify({ allow_percentage: '50', wait_period_duration: 'soon' }),
      'room.shop': '{not json',
      'room.shop.allow_percentage': 'lots',
      'room.shop.live': JSON.stringify({ message: "not the controller's", allow_schedule: 'x' }),
    };
    const { config, problems } = parseRoomConfig('shop', readRoomRaws(store(values), 'shop'));
    // The room's unusable value counts as unset: the service-wide 50 applies, not an open door.
    expect(config.allowPercentage).toBe(50);
    expect(problems.map(shownProblem)).toContainEqual({
      key: 'room.shop.allow_percentage: allow_percentage',
      value: 'lots',
      message: 'is not a number; using the value in settings (50)',
    });
    expect(config.waitPeriodSeconds).toBe(30);
    expect(config.message).toBe('');
    const keys = problems.map(problemPlace);
    expect(keys).toContain('room.shop');
    expect(keys).toContain('room.shop.allow_percentage: allow_percentage');
    expect(keys).toContain('settings: wait_period_duration');
    expect(keys).toContain('room.shop.live: message');
    expect(keys).toContain('room.shop.live: allow_schedule');
  });

  it('refuses names that are not settings and values that are not text, naming both', () => {
    const problems: ConfigProblem[] = [];
    const merged = mergeRoomSettings(
      'shop',
      {
        settings: JSON.stringify({ alow_percentage: '5', message: { a: 1 }, enabled: false }),
        room: null,
        percentage: null,
        live: null,
      },
      problems,
    );
    expect(merged.values).toEqual({ enabled: 'false' });
    expect(problems.map(problemPlace)).toEqual(['settings: alow_percentage', 'settings: message']);
    // An array or a number is not a JSON object of settings.
    for (const raw of ['[1]', '7', 'null']) {
      const more: ConfigProblem[] = [];
      mergeRoomSettings(null, { settings: raw, room: null, percentage: null, live: null }, more);
      expect(more.map(problemPlace)).toEqual(['settings']);
    }
  });
});

describe('the tools write what the edge reads', () => {
  it("puts allow_percentage in its own value, the controller's settings in live, the rest in the room's JSON", () => {
    const current = { 'room.shop': JSON.stringify({ message: 'hi', wait_period_duration: '20' }) };
    const writes = storeWrites(current, 'shop', {
      allow_percentage: '30',
      queue_cursor: '1:2:3',
      message: '',
      new_users_per_minute: '200',
    });
    expect(writes[percentageKey('shop')]).toBe('30');
    expect(JSON.parse(writes[liveKey('shop')]!)).toEqual({ queue_cursor: '1:2:3' });
    expect(JSON.parse(writes[roomKey('shop')]!)).toEqual({ wait_period_duration: '20', new_users_per_minute: '200' });
  });

  it('removes a value left empty, and writes service-wide settings to one value', () => {
    expect(storeWrites({ 'room.shop': '{"message":"hi"}' }, 'shop', { message: '' })).toEqual({ 'room.shop': '' });
    expect(
      JSON.parse(storeWrites({ settings: '{"enabled":"true"}' }, null, { allow_percentage: '5' }).settings!),
    ).toEqual({ enabled: 'true', allow_percentage: '5' });
  });

  it('never overwrites a value it cannot read', () => {
    expect(() => storeWrites({ 'room.shop': '{broken' }, 'shop', { message: 'x' })).toThrow(
      /room\.shop.*not valid JSON/,
    );
  });

  it('makes a store from one flat set of settings', () => {
    expect(storeFromSettings({ allow_percentage: '50', message: 'm' })).toEqual({
      settings: JSON.stringify({ allow_percentage: '50', message: 'm' }),
    });
    expect(storeFromSettings({ allow_percentage: '50', message: 'm' }, 'shop')).toEqual({
      'room.shop.allow_percentage': '50',
      'room.shop': '{"message":"m"}',
    });
  });
});
