// Each room's target (`new_users_per_minute`) in the controller's journal, so `npm run report` can
// put admissions against it. The controller reads the targets with the settings; the journal carries
// a room's target on the first write after it is read, and again on the first write after it changes,
// in that room's settings as a write line gives them. A room in `target_mode = auto` has its
// autopilot's rate, state and objective on every write line too (paceFields): its rate moves between
// writes, and the report draws it against admissions and the origin's minutes.
import { roomSettings, storeRooms } from '../../lib/room-store.js';
import type { PaceSnapshot } from '../types.js';
import type { JournalLine } from './journal.js';

export interface JournalTargets {
  /** The settings as read (every value of the store): takes each room's target from them. */
  read(store: Readonly<Record<string, string>>): void;
  /** `line` with the targets not journalled yet added to its rooms (a write line only). */
  withTargets(line: JournalLine): JournalLine;
  /** Where the autopilots' states come from: each room's, null for a room in manual mode. */
  pacedBy(paces: () => ReadonlyMap<string, PaceSnapshot | null>): void;
}

/** An autopilot's state as a write line's room fields. */
export function paceFields(pace: PaceSnapshot): Record<string, string> {
  const rate = Math.round(pace.ratePerMinute * 10) / 10;
  return {
    target_mode: 'auto',
    pace_rate: String(rate),
    pace_state: pace.state,
    origin_latency_ms: String(pace.objective.latencyMs),
    origin_latency_percentile: String(pace.objective.percentile),
    origin_error_percent: String(Math.round(pace.objective.errorShare * 100_000) / 1000),
  };
}

export function journalTargets(): JournalTargets {
  const current = new Map<string, string>();
  const journalled = new Map<string, string>();
  // Each room's priority lanes (docs/lanes.md), journalled as its target is: the report holds each lane's admissions to its share.
  const lanes = new Map<string, string>();
  const lanesJournalled = new Map<string, string>();
  let paces: () => ReadonlyMap<string, PaceSnapshot | null> = () => new Map();
  return {
    pacedBy(source) {
      paces = source;
    },
    read(store) {
      for (const room of storeRooms(store as Record<string, string>)) {
        const { config } = roomSettings(store as Record<string, string>, room);
        const target = config.control.newUsersPerMinute;
        if (config.lanes.length > 0) lanes.set(room, config.lanes.map((l) => `${l.id}:${l.share}`).join(','));
        // A target removed is not journalled: the report keeps the last one (a room without one is only watched).
        if (target !== null) current.set(room, String(target));
      }
    },
    withTargets(line) {
      if (line.kind !== 'write' || !line.ok) return line;
      const rooms = { ...line.rooms };
      for (const [room, target] of current) {
        if (journalled.get(room) === target) continue;
        journalled.set(room, target);
        rooms[room] = { ...rooms[room], new_users_per_minute: target };
      }
      for (const [room, text] of lanes) {
        if (lanesJournalled.get(room) === text) continue;
        lanesJournalled.set(room, text);
        rooms[room] = { ...rooms[room], lanes: text };
      }
      for (const [room, pace] of paces()) if (pace !== null) rooms[room] = { ...rooms[room], ...paceFields(pace) };
      return { ...line, rooms };
    },
  };
}
