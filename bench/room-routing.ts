// What many rooms and rules cost a visitor: the room's own time inside the runtime for a returning
// admitted visitor, with the routing of bench/fixtures/routing-20-rooms.json (20 rooms, 50 rules; the
// visitor's request lands in a room late in the route list and matches no rule) against one room and
// no routing, on two timed hosts (bench/fixtures/room-timed.ts) fed alternately, so drift lands on
// both alike. Also the Config Store lookups per request, when the host counts them (its -v line
// `usage: ... config_lookups=N`); a host that does not is said to, and the figure left out.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { EchoOrigin } from '../lib/echo-origin.js';
import { nowSeconds } from '../lib/mint.js';
import { repoRoot } from '../lib/paths.js';
import { quantile } from '../lib/quantiles.js';
import { mintToken, startRoom, type Room, type Settings } from '../lib/room-host.js';
import { cookieName } from '../src/core/request/index.js';
import { DEFAULT_ROOM, ROUTING_KEY } from '../src/core/settings/index.js';
import { buildFixture } from './build-fixture.js';
import { get } from './http-load.js';

/** The routing of 20 rooms and 50 rules, as written to the store (docs/performance.md). */
export const ROUTING_FIXTURE = path.join(repoRoot, 'bench', 'fixtures', 'routing-20-rooms.json');

/** The visitor of the many-rooms side: a path of the last room listed, matching none of the rules. */
export const MANY_ROOMS_VISITOR = { room: 'finals', path: '/tickets/finals/seat-map' } as const;

/** The Config Store limit on one value, in characters. */
export const VALUE_LIMIT = 8000;

export function routingFixture(): string {
  return readFileSync(ROUTING_FIXTURE, 'utf8');
}

export interface SideFigures {
  requests: number;
  medianUs: number;
  p90Us: number;
  /** Answers that did not come from the origin or carried no timing: the wrong path was measured. */
  unexpected: number;
  /** Config Store lookups per request (median), or null when the host does not count them. */
  lookups: number | null;
}

export interface RoutingCost {
  routingChars: number;
  rooms: number;
  rules: number;
  oneRoom: SideFigures;
  manyRooms: SideFigures;
  /** manyRooms - oneRoom, medians, milliseconds. */
  differenceMs: number;
  ratio: number;
}

/** The median `config_lookups=N` of the host's per-request usage lines, or null without any. */
export function lookupsPerRequest(lines: readonly string[]): number | null {
  const counts = lines
    .map((l) => /usage: .* config_lookups=(\d+)/.exec(l)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number);
  return counts.length === 0
    ? null
    : quantile(
        [...counts].sort((a, b) => a - b),
        0.5,
      );
}

/** Measures the pair: `requests` admitted returns on each side, alternating. */
export async function routingCost(
  origin: EchoOrigin,
  settings: Settings,
  keyBytes: Uint8Array,
  requests = 1500,
): Promise<RoutingCost> {
  const wasm = await buildFixture('room-timed');
  const routing = routingFixture();
  const parsed = JSON.parse(routing) as { rooms: unknown[]; rules: unknown[] };
  const hostArgs = ['--workers', '1', '--max-workers', '1', '-vv'];
  const rooms: Room[] = [];
  const agents: http.Agent[] = [];
  try {
    const one = await startRoom({ origin, settings, wasm, keyBytes, hostArgs });
    rooms.push(one);
    const many = await startRoom({ origin, settings, store: { [ROUTING_KEY]: routing }, wasm, keyBytes, hostArgs });
    rooms.push(many);
    // Tokens far from renewal: every request takes the returning admitted visitor's path.
    const exp = nowSeconds() + Number(settings.allow_period_duration ?? 3600) + 3600;
    const sides = [
      {
        room: one,
        path: '/page',
        cookie: `${cookieName(DEFAULT_ROOM)}=${await mintToken(one, { dec: 'allow', exp })}; other=1`,
      },
      {
        room: many,
        path: MANY_ROOMS_VISITOR.path,
        cookie: `${cookieName(MANY_ROOMS_VISITOR.room)}=${await mintToken(many, { dec: 'allow', exp, room: MANY_ROOMS_VISITOR.room })}; other=1`,
      },
    ];
    const times: number[][] = [[], []];
    const unexpected = [0, 0];
    for (const _ of sides) agents.push(new http.Agent({ keepAlive: true, maxSockets: 1 }));
    for (let i = 0; i < requests; i++) {
      for (let s = 0; s < 2; s++) {
        // Alternate which side goes first, so neither always follows the other.
        const side = (i + s) % 2;
        const { room, path: p, cookie } = sides[side]!;
        const { status, headers } = await get(agents[side]!, `${room.url}${p}`, { cookie, accept: 'text/html' });
        const us = Number(headers['x-room-time-us']);
        if (status === 200 && headers['x-echo'] === '1' && Number.isFinite(us)) times[side]!.push(us);
        else unexpected[side]!++;
      }
    }
    const figures = (side: number): SideFigures => {
      const t = times[side]!.sort((a, b) => a - b);
      return {
        requests,
        medianUs: quantile(t, 0.5),
        p90Us: quantile(t, 0.9),
        unexpected: unexpected[side]!,
        lookups: lookupsPerRequest(sides[side]!.room.logs()),
      };
    };
    const oneRoom = figures(0);
    const manyRooms = figures(1);
    return {
      routingChars: routing.length,
      rooms: parsed.rooms.length,
      rules: parsed.rules.length,
      oneRoom,
      manyRooms,
      differenceMs: Math.round(manyRooms.medianUs - oneRoom.medianUs) / 1000,
      ratio: Math.round((manyRooms.medianUs / oneRoom.medianUs) * 100) / 100,
    };
  } finally {
    for (const agent of agents) agent.destroy();
    for (const room of rooms) await room.stop();
  }
}
