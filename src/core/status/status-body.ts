// The status answer's JSON (docs/status.md documents each field): every 200 answer has the same keys,
// so a client reads one shape whatever the state; errors are `{"error", "message"}`.
import type { RoomStatus } from './room-status.js';

const iso = (sec: number | null | undefined): string | null =>
  sec === null || sec === undefined ? null : new Date(sec * 1000).toISOString().replace('.000Z', 'Z');

/**
 * The status of `room`; `updatedSec`: when its basis was written (epoch seconds). 0 is the basis a new
 * service is set up with (fastly.toml's [setup]): written by nobody since, at a time unknown, so null.
 */
export function statusJson(room: string, s: RoomStatus, updatedSec: number): string {
  return JSON.stringify({
    room,
    state: s.state,
    reason: s.reason,
    waitTime25PercentileSeconds: s.estimate?.p25 ?? null,
    waitTime50PercentileSeconds: s.estimate?.p50 ?? null,
    waitTime75PercentileSeconds: s.estimate?.p75 ?? null,
    waitTimePending: s.pending,
    chancePercentage: s.chancePercentage,
    chanceSource: s.chanceSource,
    queueingMethod: s.queueingMethod,
    eventPrequeueStart: iso(s.event?.prequeueStart),
    eventStart: iso(s.event?.start),
    eventEnd: iso(s.event?.end),
    startsInSeconds: s.startsInSeconds,
    updated: updatedSec > 0 ? iso(updatedSec) : null,
  });
}

/** A room the routing names whose status nobody has written yet: no controller, and no `npm run tune` since. */
export function unknownJson(room: string): string {
  return JSON.stringify({
    room,
    state: 'unknown',
    reason: 'no_status_basis',
    waitTime25PercentileSeconds: null,
    waitTime50PercentileSeconds: null,
    waitTime75PercentileSeconds: null,
    waitTimePending: false,
    chancePercentage: null,
    chanceSource: null,
    queueingMethod: null,
    eventPrequeueStart: null,
    eventStart: null,
    eventEnd: null,
    startsInSeconds: null,
    updated: null,
  });
}

export type StatusError = 'bad_request' | 'unknown_room' | 'store_unavailable' | 'method_not_allowed';

export function errorJson(error: StatusError, message: string): string {
  return JSON.stringify({ error, message });
}
