// Which rooms the controller steers: the routing's, or the one default room without routing.
import { describe, expect, it } from 'vitest';
import { roomsInStore } from '../../control/rooms.js';

describe('roomsInStore', () => {
  it("names the routing's rooms in its order, the default room without routing, and none when the routing is unusable", () => {
    const routing = JSON.stringify({ rooms: [{ id: 'shop', routes: ['/'] }, { id: 'checkout', routes: ['/checkout'] }] });
    expect(roomsInStore({ routing, 'room.old': '{}' })).toEqual(['shop', 'checkout']);
    expect(roomsInStore({ settings: '{}' })).toEqual(['default']);
    // The edge sends every request to the origin then: no room to steer.
    expect(roomsInStore({ routing: 'not json' })).toEqual([]);
  });
});
