import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../lib/paths.js';
import { mainRoom, roomOfUrl, roomSettings, settingSources, storeRooms, unreadKeys } from '../../lib/room-store.js';

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
    expect(from).toMatchObject({ enabled: 'settings', wait_period_duration: 'room.checkout', allow_percentage: 'room.checkout.allow_percentage', queue_cursor: 'room.checkout.live' });
  });

  it('finds the room a URL lands in', async () => {
    expect(await roomOfUrl(demo, new URL('http://127.0.0.1:7676/checkout/pay'))).toBe('checkout');
    expect(await roomOfUrl(demo, new URL('http://127.0.0.1:7676/products/1'))).toBe('shop');
    expect(await roomOfUrl({ settings: '{}' }, new URL('http://127.0.0.1:7676/anything'))).toBe('default');
  });

  it('names keys the edge never reads, such as a setting of the old layout', () => {
    expect(unreadKeys({ ...demo, allow_percentage: '50', 'room.x.other': '1' })).toEqual(['allow_percentage', 'room.x.other']);
    expect(unreadKeys(demo)).toEqual([]);
  });
});
