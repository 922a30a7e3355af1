// The languages a room's crowd reads, from the decision lines: each answer the room made itself names
// the language it was written in (`lang`), and these are counted per room over the controller's run
// and over the last ten minutes (by the minute the edge wrote the line), for the dashboard. Bounded
// against a forged log: so many rooms, so many tags a room (past them, `other`), ten minutes of buckets.
import type { DecisionLine, LanguageRow } from '../types.js';

/** The span the dashboard's "recent" column counts. */
export const RECENT_MS = 10 * 60_000;
const MAX_ROOMS = 256;
/** Distinct tags kept a room: the 38 built-in languages and room to spare; the rest count as `other`. */
const MAX_TAGS = 64;

interface RoomLanguages {
  session: Map<string, number>;
  /** Minute start (ms) -> tag -> answers. */
  minutes: Map<number, Map<string, number>>;
}

const add = (counts: Map<string, number>, tag: string): void => {
  const key = counts.has(tag) || counts.size < MAX_TAGS ? tag : 'other';
  counts.set(key, (counts.get(key) ?? 0) + 1);
};

export class LanguageCounts {
  private readonly rooms = new Map<string, RoomLanguages>();

  /** One decision line: counted when it names a room and a language. */
  observe(line: DecisionLine): void {
    if (line.lang === undefined || line.room === null) return;
    let room = this.rooms.get(line.room);
    if (room === undefined) {
      if (this.rooms.size >= MAX_ROOMS) return;
      room = { session: new Map(), minutes: new Map() };
      this.rooms.set(line.room, room);
    }
    add(room.session, line.lang);
    const minute = Math.floor(line.tsMs / 60_000) * 60_000;
    let bucket = room.minutes.get(minute);
    if (bucket === undefined) {
      room.minutes.set(minute, (bucket = new Map()));
      // A new minute: the buckets past the span go (lines come in about the edge's order).
      for (const start of room.minutes.keys()) if (start < minute - RECENT_MS) room.minutes.delete(start);
    }
    add(bucket, line.lang);
  }

  /** The room's languages, most read in the last ten minutes first (then over the run); [] for none. */
  view(room: string, nowMs: number): LanguageRow[] {
    const r = this.rooms.get(room);
    if (r === undefined) return [];
    const recent = new Map<string, number>();
    for (const [start, bucket] of r.minutes)
      if (start + 60_000 > nowMs - RECENT_MS)
        for (const [tag, n] of bucket) recent.set(tag, (recent.get(tag) ?? 0) + n);
    return [...r.session]
      .map(([tag, session]) => ({ tag, recent: recent.get(tag) ?? 0, session }))
      .sort((a, b) => b.recent - a.recent || b.session - a.session || a.tag.localeCompare(b.tag));
  }
}
