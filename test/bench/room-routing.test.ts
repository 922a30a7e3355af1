// The many-rooms bench's routing (bench/fixtures/routing-20-rooms.json) is what the bench says it
// measures: 20 rooms and 50 rules the edge reads without a problem, within the 8,000-character value
// limit, and a visitor request that lands in the last room listed and matches no rule. And the
// lookup figure is read from the host's usage lines, or left out when the host prints none.
import { describe, expect, it } from 'vitest';
import { lookupsPerRequest, MANY_ROOMS_VISITOR, routingFixture, VALUE_LIMIT } from '../../bench/room-routing.js';
import { routingLines } from '../../bench/room-report.js';
import { parseRouting, routeRequest } from '../../src/core/routing/routing.js';
import { facts } from '../support/routing-facts.js';

describe('the 20-room, 50-rule routing of the bench', () => {
  const raw = routingFixture();
  const { routing, problems } = parseRouting(raw);

  it('is read without a problem, has 20 rooms and 50 rules, and fits in one store value', () => {
    expect(problems).toEqual([]);
    expect(routing!.roomIds).toHaveLength(20);
    expect((JSON.parse(raw) as { rules: unknown[] }).rules).toHaveLength(50);
    expect(raw.length).toBeLessThanOrEqual(VALUE_LIMIT);
  });

  it("sends the bench's visitor to the last room listed, by its route, no rule matching", async () => {
    const request = facts(`http://127.0.0.1:7676${MANY_ROOMS_VISITOR.path}`, {
      ip: '127.0.0.1',
      headers: { cookie: `waiting_room_${MANY_ROOMS_VISITOR.room}=x; other=1`, accept: 'text/html' },
    });
    expect(routing!.roomIds.at(-1)).toBe(MANY_ROOMS_VISITOR.room);
    expect(await routeRequest(routing!, request)).toEqual({ kind: 'room', room: MANY_ROOMS_VISITOR.room, rule: null });
  });
});

describe('the bench figures of many rooms', () => {
  it("reads lookups per request from the host's usage lines, and says when the host counts none", () => {
    const lines = [
      'compute-host: listening',
      'usage: GET /a config_lookups=5 backend_requests=1 cpu_ms=1.2',
      'usage: GET /a config_lookups=5 backend_requests=1 cpu_ms=1.0',
    ];
    expect(lookupsPerRequest(lines)).toBe(5);
    expect(lookupsPerRequest(['GET /a 200 1.2ms'])).toBeNull();
    const side = { requests: 10, medianUs: 100, p90Us: 120, unexpected: 0, lookups: null };
    const printed = routingLines({
      routingChars: 6131,
      rooms: 20,
      rules: 50,
      oneRoom: side,
      manyRooms: { ...side, medianUs: 130 },
      differenceMs: 0.03,
      ratio: 1.3,
    });
    expect(printed[0]).toContain('6,131 of 8,000 characters');
    expect(printed[0]).toContain('+0.03 ms, 1.3x (aim: at most +0.05 ms)');
    expect(printed[1]).toContain('not counted by this host');
  });
});
