// INTERIM (replaced by the routing branch before this lands): the routing value's types and a
// minimal reading of it, so the rest of the room can be built against the interface.
import { DEFAULT_ROOM, ROOM_ID } from './layout.js';
import type { RequestFacts } from './request-facts.js';

export interface RoutingProblem { key: 'routing'; rule?: string; room?: string; value: string; message: string }
export type Target = { kind: 'bypass'; rule: string } | { kind: 'room'; room: string; rule: string | null } | { kind: 'none' };
export interface Routing {
  readonly roomIds: readonly string[];
  readonly defaultRoom: string | null;
  readonly routes: ReadonlyArray<{ room: string; path: string }>;
}

export function parseRouting(raw: string | null): { routing: Routing | null; problems: RoutingProblem[] } {
  if (raw === null) return { routing: { roomIds: [DEFAULT_ROOM], defaultRoom: null, routes: [{ room: DEFAULT_ROOM, path: '/' }] }, problems: [] };
  try {
    const v = JSON.parse(raw) as { rooms: Array<{ id: string; routes: string[] }>; default_room?: string };
    const rooms = v.rooms.filter((r) => ROOM_ID.test(r.id));
    return {
      routing: { roomIds: rooms.map((r) => r.id), defaultRoom: v.default_room ?? null, routes: rooms.flatMap((r) => r.routes.map((path) => ({ room: r.id, path }))) },
      problems: [],
    };
  } catch {
    return { routing: null, problems: [{ key: 'routing', value: raw.slice(0, 60), message: 'is not valid JSON' }] };
  }
}

export async function routeRequest(routing: Routing, facts: RequestFacts): Promise<Target> {
  let best: { room: string; path: string } | null = null;
  for (const r of routing.routes) if (facts.path.startsWith(r.path) && (best === null || r.path.length > best.path.length)) best = r;
  if (best !== null) return { kind: 'room', room: best.room, rule: null };
  return routing.defaultRoom === null ? { kind: 'none' } : { kind: 'room', room: routing.defaultRoom, rule: null };
}

/** INTERIM: the routing as lines an operator reads. */
export function describeRouting(routing: Routing): string[] {
  return routing.routes.map((r) => `room ${r.room}: ${r.path}`);
}
