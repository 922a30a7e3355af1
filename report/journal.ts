// The controller's journal (JSONL, one line per API call or local write: docs/control/budget.md) into
// per-minute counts of reads, writes, heartbeats and log-tail starts, the targets and schedules it wrote, the rate
// limit left, and for a room in auto the autopilot's rate and objective (report/journal-pace.ts). Lines
// of another shape are counted and skipped, never fatal.
import { notePaces, type PaceEntry } from './journal-pace.js';

export type CallKind = 'read' | 'write' | 'heartbeat' | 'log-tail';

export interface JournalMinute {
  read: number;
  write: number;
  heartbeat: number;
  /** Starts of `fastly log-tail` (each turns the log stream on: one call). */
  logTail: number;
  /** Writes made (journal write lines), whatever they cost: a local file write is one, at 0 calls. */
  writesMade: number;
  /** Calls that failed (ok false), of which answered 429. */
  failed: number;
  limited: number;
  /** Fastly-RateLimit-Remaining after the minute's last call that had it, or null. */
  remaining: number | null;
}

export interface JournalFigures {
  lines: number;
  skipped: number;
  minutes: Map<number, JournalMinute>;
  /** Room -> the chance published for each window (s), last write wins; allow_percentage as window 0 is not kept. */
  schedules: Map<string, Map<number, number>>;
  /** Room -> [ms, new_users_per_minute] as written (when the journal carries it). */
  targets: Map<string, [number, number][]>;
  /** Room -> what its write lines said of the autopilot (target_mode = auto), in the journal's order. */
  pace: Map<string, PaceEntry[]>;
  /** Values of the autopilot's a write line carried that were no usable number: left out. */
  badValues: number;
  /** Room -> its `lanes` as the last write line carried it (report/lanes.ts). */
  lanes: Map<string, string>;
}

/** The minute's count each kind of line goes to. */
const KINDS = new Map<CallKind, 'read' | 'write' | 'heartbeat' | 'logTail'>([
  ['read', 'read'],
  ['write', 'write'],
  ['heartbeat', 'heartbeat'],
  ['log-tail', 'logTail'],
]);

export function newJournal(): JournalFigures {
  return {
    lines: 0,
    skipped: 0,
    minutes: new Map(),
    schedules: new Map(),
    targets: new Map(),
    lanes: new Map(),
    pace: new Map(),
    badValues: 0,
  };
}

/** One journal line into `j`; false (and counted) when it is not one. */
export function journalLine(j: JournalFigures, text: string): boolean {
  if (text.trim() === '') return true;
  j.lines++;
  let o: Record<string, unknown>;
  try {
    const v: unknown = JSON.parse(text);
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('not an object');
    o = v as Record<string, unknown>;
  } catch {
    j.skipped++;
    return false;
  }
  const ms = typeof o.ts === 'string' ? Date.parse(o.ts) : Number.NaN;
  const kind = o.kind as CallKind;
  if (!Number.isFinite(ms) || !KINDS.has(kind)) {
    j.skipped++;
    return false;
  }
  const minute = Math.floor(ms / 60_000) * 60_000;
  let m = j.minutes.get(minute);
  if (m === undefined)
    j.minutes.set(
      minute,
      (m = { read: 0, write: 0, heartbeat: 0, logTail: 0, writesMade: 0, failed: 0, limited: 0, remaining: null }),
    );
  // A local file write is no API call: `calls` says how many the line stands for (0 for the file).
  const calls = typeof o.calls === 'number' && Number.isFinite(o.calls) && o.calls >= 0 ? o.calls : 1;
  m[KINDS.get(kind)!] += calls;
  if (kind === 'write') m.writesMade++;
  if (o.ok === false) m.failed++;
  if (o.status === 429) m.limited++;
  if (typeof o.remaining === 'number') m.remaining = o.remaining;
  if (kind === 'write' && o.ok !== false && typeof o.rooms === 'object' && o.rooms !== null) {
    for (const [room, values] of Object.entries(o.rooms as Record<string, unknown>)) {
      if (typeof values !== 'object' || values === null) continue;
      const v = values as Record<string, unknown>;
      if (typeof v.allow_schedule === 'string') schedule(j, room, v.allow_schedule);
      if (typeof v.lanes === 'string') j.lanes.set(room, v.lanes);
      const target = Number(v.new_users_per_minute ?? v.target);
      if ((v.new_users_per_minute ?? v.target) !== undefined && Number.isFinite(target)) {
        const list = j.targets.get(room) ?? [];
        list.push([ms, target]);
        j.targets.set(room, list);
      }
    }
    notePaces(j.pace, ms, o.rooms as Record<string, unknown>, () => j.badValues++);
  }
  return true;
}

/** allow_schedule (`EPOCH=PCT,...`) into the room's published chances. */
function schedule(j: JournalFigures, room: string, text: string): void {
  let byWin = j.schedules.get(room);
  if (byWin === undefined) j.schedules.set(room, (byWin = new Map()));
  for (const entry of text.split(',')) {
    const [w, p] = entry.split('=');
    const win = Number(w);
    const pct = Number(p);
    if (/^\d+$/.test(w ?? '') && p !== undefined && p !== '' && Number.isFinite(pct)) byWin.set(win, pct);
  }
}

/** The target in force at `ms` for `room`, from the journal; null when it never wrote one. */
export function targetAt(j: JournalFigures | null, room: string, ms: number): number | null {
  const list = j?.targets.get(room);
  if (list === undefined) return null;
  let found: number | null = null;
  for (const [at, t] of list) if (at <= ms + 60_000) found = t;
  return found ?? list[0]![1];
}
