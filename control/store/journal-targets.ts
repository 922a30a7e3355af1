// Each room's target (`new_users_per_minute`) in the controller's journal, so `npm run report` can
// put admissions against it. The controller reads the targets with the settings; the journal carries
// a room's target on the first write after it is read, and again on the first write after it changes,
// in that room's settings as a write line gives them.
import { roomSettings, storeRooms } from '../../lib/room-store.js';
import type { JournalLine } from './journal.js';

export interface JournalTargets {
  /** The settings as read (every value of the store): takes each room's target from them. */
  read(store: Readonly<Record<string, string>>): void;
  /** `line` with the targets not journalled yet added to its rooms (a write line only). */
  withTargets(line: JournalLine): JournalLine;
}

export function journalTargets(): JournalTargets {
  const current = new Map<string, string>();
  const journalled = new Map<string, string>();
  return {
    read(store) {
      for (const room of storeRooms(store as Record<string, string>)) {
        const target = roomSettings(store as Record<string, string>, room).config.control.newUsersPerMinute;
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
      return { ...line, rooms };
    },
  };
}
