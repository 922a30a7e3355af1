// The controller's heartbeat: the service-wide `controller` key of waiting_room_config (the edge never
// reads it). A controller writes it with its writes, and on its own at least every lease/3; at start
// and at every read it checks it (docs/control/failover.md#restarting-it-safely). Another controller's beat
// younger than the lease means that one is alive: this one refuses to write until the beat is older
// than the lease, then takes over. When two are alive at once (both started before either's beat was
// read), the one started first keeps the service, so they never both stand by or both write.
import { randomBytes } from 'node:crypto';
import { CONTROLLER_KEY } from '../../src/core/settings/index.js';

/** The store key of the heartbeat (src/core/layout.ts). */
export const HEARTBEAT_KEY = CONTROLLER_KEY;

/** How far ahead a published schedule reaches, and how long a silent controller is believed alive, by default (s). */
export const DEFAULT_LEASE_SECONDS = 600;

export interface Beat {
  /** Random 8 hex characters, kept in the state file: a restarted controller knows its own beat. */
  id: string;
  host: string;
  pid: number;
  /** When this process started, epoch s. */
  started: number;
  /** When the beat was written, epoch s. */
  beat: number;
  /** The lease it claims, s. */
  lease: number;
}

export const newHeartbeatId = (): string => randomBytes(4).toString('hex');

/** The heartbeat value in the store, or null when absent or not a heartbeat (said by the caller). */
export function parseBeat(text: string | undefined): Beat | null {
  if (text === undefined || text === '') return null;
  try {
    const b = JSON.parse(text) as Partial<Beat>;
    if (typeof b.id !== 'string' || typeof b.beat !== 'number' || typeof b.lease !== 'number') return null;
    return {
      id: b.id,
      host: String(b.host ?? '?'),
      pid: Number(b.pid ?? 0),
      started: Number(b.started ?? 0),
      beat: b.beat,
      lease: b.lease,
    };
  } catch {
    return null;
  }
}

/** Who a beat names, for a person: "host h1, pid 123, started 2026-11-26T10:00:00Z". */
export const describeBeat = (b: Beat): string =>
  `id ${b.id} on host ${b.host}, pid ${b.pid}, controlling since ${new Date(b.started * 1000).toISOString()}`;

export type BeatVerdict =
  /** No other live controller: this one may write. `tookOver` names the one whose beat ran out. */
  | { kind: 'mine'; tookOver: Beat | null }
  /** Another controller is alive: write nothing. */
  | { kind: 'other'; other: Beat; ageSeconds: number };

export class Heartbeat {
  constructor(readonly me: Omit<Beat, 'beat'>) {}

  /** The value to write at `nowSec`. */
  value(nowSec: number): string {
    const { id, host, pid, started, lease } = this.me;
    return JSON.stringify({ id, host, pid, started, beat: Math.floor(nowSec), lease });
  }

  /**
   * What the store's `controller` value says at `nowSec`. A beat with this id but another process's
   * start, written after this one started, is a second process resumed from the same state file:
   * another controller too.
   */
  check(stored: string | undefined, nowSec: number): BeatVerdict {
    const other = parseBeat(stored);
    if (other === null) return { kind: 'mine', tookOver: null };
    const sameProcess =
      other.id === this.me.id &&
      other.host === this.me.host &&
      other.pid === this.me.pid &&
      other.started === this.me.started;
    const sameId = other.id === this.me.id;
    // My own id from an earlier run (a restart from the state file), written before this process started: mine.
    if (sameProcess || (sameId && other.beat < this.me.started)) return { kind: 'mine', tookOver: null };
    const age = nowSec - other.beat;
    if (age >= this.me.lease) return { kind: 'mine', tookOver: other };
    // Both alive: the one started first keeps the service (ties: the smaller id).
    const firstIsOther =
      other.started < this.me.started || (other.started === this.me.started && other.id < this.me.id);
    return firstIsOther ? { kind: 'other', other, ageSeconds: Math.max(0, age) } : { kind: 'mine', tookOver: null };
  }
}
