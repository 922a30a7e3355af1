// The status link of the chain (docs/status.md): `GET /__waiting_room/status?room=ID`, answered by the
// edge before any routing (never the origin's, no decision, no log line), from two store values at
// most: the room's `room.ID.live`, where the controller and `npm run tune` keep the status's copy of
// its settings (`status_basis`), then its `room.ID.allow_percentage`, the switch an operator turns by
// hand; or, without a copy, the routing, to tell a room nobody described from one that does not exist.
import { readRouting } from '../routing/index.js';
import { liveKey, parseRoomConfig, percentageKey, readStatusBasis } from '../settings/index.js';
import {
  errorJson,
  readStatusQuery,
  roomStatus,
  STATUS_PATH,
  type StatusError,
  statusJson,
  unknownJson,
} from '../status/index.js';
import type { Config, RoomDeps, StatusBasis } from '../types.js';
import { unexpectedFailure } from './unexpected.js';

/** Seconds a status may be kept by a browser or a cache between the visitor and the edge. */
export const STATUS_MAX_AGE_SECONDS = 5;

const CORS = { 'Access-Control-Allow-Origin': '*' };
const JSON_TYPE = 'application/json; charset=utf-8';
const KEPT = `public, max-age=${STATUS_MAX_AGE_SECONDS}`;

/** The status answer for a request to the status path; null for every other request. */
export function statusRequest(request: Request, url: URL, deps: RoomDeps, nowMs: number): Response | null {
  if (url.pathname !== STATUS_PATH) return null;
  const method = request.method;
  if (method === 'OPTIONS')
    return new Response(null, {
      status: 204,
      headers: {
        ...CORS,
        'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
        'Access-Control-Max-Age': '86400',
        'Cache-Control': 'public, max-age=86400',
      },
    });
  if (method !== 'GET' && method !== 'HEAD')
    return failure(method, 405, 'method_not_allowed', `${method.slice(0, 20)} is not allowed: GET or HEAD`, {
      Allow: 'GET, HEAD, OPTIONS',
    });
  const query = readStatusQuery(url.searchParams);
  if (query.problem !== undefined)
    return failure(method, 400, 'bad_request', query.problem, { 'Cache-Control': 'public, max-age=60' });
  try {
    return answer(method, query.room, deps, nowMs);
  } catch (error) {
    unexpectedFailure(deps, 'answering a status', error);
    return failure(method, 503, 'store_unavailable', 'the status could not be worked out; the log says why');
  }
}

function answer(method: string, room: string, deps: RoomDeps, nowMs: number): Response {
  const live = deps.stores.setting(liveKey(room));
  if (unavailable(deps)) return storeDown(method, deps);
  const basis = live === null ? null : basisIn(live);
  if (basis === null) return undescribed(method, room, deps);
  const percentage = deps.stores.setting(percentageKey(room));
  if (unavailable(deps)) return storeDown(method, deps);
  const config = statusConfig(deps, room, basis, percentage, live!);
  return json(method, 200, statusJson(room, roomStatus(config, nowMs), basis.at), KEPT);
}

/** A room with no status basis: `unknown` when the routing names it, else 404. */
function undescribed(method: string, room: string, deps: RoomDeps): Response {
  const { routing } = readRouting(deps);
  if (unavailable(deps)) return storeDown(method, deps);
  if (routing === null || !routing.roomIds.includes(room))
    return failure(method, 404, 'unknown_room', `no room ${room}`, { 'Cache-Control': KEPT });
  return json(method, 200, unknownJson(room), KEPT);
}

/** The status basis in a `room.ID.live` value, or null (none, or unusable: the visitors' requests report it). */
function basisIn(live: string): StatusBasis | null {
  let value: unknown;
  try {
    value = JSON.parse(live);
  } catch {
    return null;
  }
  const text = (value as { status_basis?: unknown } | null)?.status_basis;
  return typeof text === 'string' ? readStatusBasis(text) : null;
}

/**
 * The room's settings as the status sees them: the basis's copy of `settings` and `room.ID`, under
 * `room.ID.allow_percentage` and `room.ID.live` as read now, merged and parsed as a visitor's request
 * merges them. Parsed once per pair of values in a reused sandbox. Problems are not said here: the
 * visitors' requests, which read the same values, say them.
 */
function statusConfig(
  deps: RoomDeps,
  room: string,
  basis: StatusBasis,
  percentage: string | null,
  live: string,
): Config {
  const parse = (): Config =>
    parseRoomConfig(room, { settings: null, room: JSON.stringify(basis.settings), percentage, live }).config;
  return deps.memory ? deps.memory.parsed(`status ${room}`, [live, percentage], parse) : parse();
}

const unavailable = (deps: RoomDeps): boolean => (deps.stores.settingFailure?.() ?? null) !== null;

function storeDown(method: string, deps: RoomDeps): Response {
  const why = deps.stores.settingFailure?.() ?? 'the settings store failed';
  deps.diag(`status: ${why}; answering 503`);
  return failure(method, 503, 'store_unavailable', why, { 'Retry-After': String(STATUS_MAX_AGE_SECONDS) });
}

function failure(
  method: string,
  status: number,
  error: StatusError,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return json(method, status, errorJson(error, message), 'no-store', headers);
}

function json(
  method: string,
  status: number,
  body: string,
  cacheControl: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(method === 'HEAD' ? null : body, {
    status,
    headers: {
      'Content-Type': JSON_TYPE,
      'Cache-Control': cacheControl,
      'X-Content-Type-Options': 'nosniff',
      ...CORS,
      ...headers,
    },
  });
}
