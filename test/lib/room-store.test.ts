import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../lib/paths.js';
import {
  mainRoom,
  mergedSettings,
  roomOfUrl,
  roomSettings,
  settingSources,
  storeRooms,
  unreadKeys,
} from '../../lib/room-store.js';
import { problemText } from '../../src/core/settings/index.js';
import type { ConfigProblem } from '../../src/core/types.js';

const demo = JSON.parse(readFileSync(join(repoRoot, 'local', 'config.example.json'), 'utf8')) as Record<string, string>;

describe('a settings store read as the edge reads it', () => {
  it("names the routing's rooms, or the one room default without a routing", () => {
    expect(storeRooms(demo)).toEqual(['shop', 'checkout']);
    // A room's values the routing no longer names do not make it a room.
    expect(storeRooms({ ...demo, 'room.old': '{}' })).toEqual(['shop', 'checkout']);
    expect(mainRoom(demo)).toBe('shop');
    expect(storeRooms({ settings: '{}' })).toEqual(['default']);
    expect(storeRooms({ routing: '{"rooms": [' })).toEqual([]);
  });

  it("gives a room's settings merged, with where each came from", () => {
    expect(roomSettings(demo, 'checkout').config.waitPeriodSeconds).toBe(5);
    expect(roomSettings(demo, 'shop').config.waitPeriodSeconds).toBe(10);
    const from = settingSources({ ...demo, 'room.checkout.live': '{"queue_cursor":"1:0:1"}' }, 'checkout');
    expect(from).toMatchObject({
      enabled: 'settings',
      wait_period_duration: 'room.checkout',
      allow_percentage: 'room.checkout.allow_percentage',
      queue_cursor: 'room.checkout.live',
    });
  });

  it('names the place the edge reads a setting from, passing over a value it cannot use as the edge does', () => {
    const store = {
      ...demo,
      'room.checkout': JSON.stringify({ new_users_per_minute: 'many', wait_period_duration: ' ' }),
      settings: JSON.stringify({ new_users_per_minute: '120', wait_period_duration: '20' }),
    };
    const problems: ConfigProblem[] = [];
    const merged = mergedSettings(store, 'checkout', problems);
    expect(merged.values).toMatchObject({ new_users_per_minute: '120', wait_period_duration: '20' });
    expect(settingSources(store, 'checkout')).toMatchObject({
      new_users_per_minute: 'settings',
      wait_period_duration: 'settings',
    });
    expect(roomSettings(store, 'checkout').config.control.newUsersPerMinute).toBe(120);
    // What the controller logs names the value it passes over, and the one it uses.
    expect(problems.map(problemText)).toEqual([
      'room.checkout: new_users_per_minute: must be a number above 0 and at most 100000000; using the value in settings (120)',
    ]);
  });

  it('finds the room a URL lands in', async () => {
    expect(await roomOfUrl(demo, new URL('http://127.0.0.1:7676/checkout/pay'))).toBe('checkout');
    expect(await roomOfUrl(demo, new URL('http://127.0.0.1:7676/products/1'))).toBe('shop');
    expect(await roomOfUrl({ settings: '{}' }, new URL('http://127.0.0.1:7676/anything'))).toBe('default');
  });

  it('names keys the edge never reads, such as a setting of the old layout', () => {
    expect(unreadKeys({ ...demo, allow_percentage: '50', 'room.x.other': '1' })).toEqual([
      'allow_percentage',
      'room.x.other',
    ]);
    expect(unreadKeys(demo)).toEqual([]);
  });
});
