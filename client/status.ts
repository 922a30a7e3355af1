// A room's public status (docs/status.md): `GET /__waiting_room/status?room=ID`, which the edge answers
// itself, for every visitor alike (no cookie), cacheable for a few seconds. For an app deciding
// whether to show its queue screen before the visitor asks for anything.
import type { RoomStatus, StatusOptions, StatusState } from './types.js';

/** Where the room answers its status. */
export const STATUS_PATH = '/__waiting_room/status';

const STATES: readonly StatusState[] = ['open', 'queueing', 'closed', 'countdown', 'unknown'];

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** A status answer that is not one: the room's `error` code (or the HTTP status) and its `message`. */
export class RoomStatusError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly httpStatus: number,
  ) {
    super(message);
    this.name = 'RoomStatusError';
  }
}

/** The status's JSON read field by field. */
export function statusFrom(body: Record<string, unknown>): RoomStatus {
  const state = str(body.state) as StatusState | null;
  return {
    room: str(body.room) ?? '',
    state: state !== null && STATES.includes(state) ? state : 'unknown',
    reason: str(body.reason),
    waitTime25PercentileSeconds: num(body.waitTime25PercentileSeconds),
    waitTime50PercentileSeconds: num(body.waitTime50PercentileSeconds),
    waitTime75PercentileSeconds: num(body.waitTime75PercentileSeconds),
    waitTimePending: body.waitTimePending === true,
    chancePercentage: num(body.chancePercentage),
    chanceSource: str(body.chanceSource),
    queueingMethod: str(body.queueingMethod),
    eventPrequeueStart: str(body.eventPrequeueStart),
    eventStart: str(body.eventStart),
    eventEnd: str(body.eventEnd),
    startsInSeconds: num(body.startsInSeconds),
    updated: str(body.updated),
    raw: body,
  };
}

/**
 * The status of room `room` at the site `site` (its origin, e.g. https://shop.example; a path is
 * ignored). Rejects with a RoomStatusError on the room's error answers (400, 404, 503) and on
 * anything that is not a status.
 */
export async function roomStatus(site: string | URL, room: string, options: StatusOptions = {}): Promise<RoomStatus> {
  const url = new URL(STATUS_PATH, site);
  url.searchParams.set('room', room);
  const fetchFn = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  // Public and the same for everyone: no cookie, and the answer may come from a cache (max-age).
  const response = await fetchFn(url, {
    headers: { accept: 'application/json' },
    credentials: 'omit',
    ...(options.signal ? { signal: options.signal } : {}),
  });
  let body: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = await response.json();
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
      body = parsed as Record<string, unknown>;
  } catch {
    // Not JSON: not the room's status (below).
  }
  if (response.ok && body !== null && typeof body.state === 'string') return statusFrom(body);
  const code = str(body?.error) ?? `http_${response.status}`;
  throw new RoomStatusError(
    code,
    str(body?.message) ?? `no status for room ${room} (HTTP ${response.status})`,
    response.status,
  );
}
