// The controller's journal (`npm run control -- --journal FILE`): one JSON line per API call or local
// write, appended as each ends, so an operator (and `npm run report`) can see after the event what was
// read and written, when, at what cost, and what the API said about the token's remaining calls.
//
//   {"ts":"2026-11-26T10:00:00.000Z","kind":"write","ok":true,"status":200,"calls":1,
//    "keys":["room.shop.live"],"rooms":{"shop":{"allow_schedule":"..."}},"remaining":812,"error":null}
import { createWriteStream, type WriteStream } from 'node:fs';
import type { CallKind, StoreCall } from './api-budget.js';

export interface JournalLine {
  ts: string;
  kind: CallKind;
  ok: boolean;
  status: number | null;
  calls: number;
  keys: string[];
  /** What each room's keys said, as settings ('' removed): `room.ID.allow_percentage` and the fields of `room.ID.live`. */
  rooms: Record<string, Record<string, string>>;
  remaining: number | null;
  error: string | null;
}

const ROOM_KEY = /^room\.([^.]+)\.(allow_percentage|live)$/;

/** Store keys written, as each room's settings ('' for a removed key or a live value that is gone). */
export function roomsOf(values: Readonly<Record<string, string>>): Record<string, Record<string, string>> {
  const rooms: Record<string, Record<string, string>> = {};
  for (const [key, value] of Object.entries(values)) {
    const m = ROOM_KEY.exec(key);
    if (m === null) continue;
    const room = (rooms[m[1]!] ??= {});
    if (m[2] === 'allow_percentage') {
      room.allow_percentage = value;
      continue;
    }
    if (value === '') {
      room.live = '';
      continue;
    }
    try {
      const live = JSON.parse(value) as unknown;
      if (live !== null && typeof live === 'object' && !Array.isArray(live)) {
        for (const [k, v] of Object.entries(live)) if (typeof v === 'string') room[k] = v;
      } else room.live = value;
    } catch {
      room.live = value;
    }
  }
  return rooms;
}

export function journalLine(call: StoreCall, nowMs: number): JournalLine {
  return {
    ts: new Date(nowMs).toISOString(),
    kind: call.kind,
    ok: call.ok,
    status: call.status,
    calls: call.calls,
    keys: call.keys,
    rooms: call.values === undefined ? {} : roomsOf(call.values),
    remaining: call.remaining,
    error: call.error,
  };
}

export interface Journal {
  append(call: StoreCall, nowMs: number): void;
  close(): Promise<void>;
}

/** Appends to `file` (made when missing); a failure to write it is said once and never stops the controller. */
/** `targets`: what each line carries besides the call (control/store/journal-targets.ts adds each room's target). */
export function openJournal(
  file: string,
  log: (message: string) => void,
  targets?: { withTargets(line: JournalLine): JournalLine },
): Journal {
  let told = false;
  const stream: WriteStream = createWriteStream(file, { flags: 'a' });
  stream.on('error', (error) => {
    if (!told) log(`cannot write the journal ${file} (${error.message}); controlling without it`);
    told = true;
  });
  return {
    append(call, nowMs) {
      if (told) return;
      const line = journalLine(call, nowMs);
      stream.write(`${JSON.stringify(targets === undefined ? line : targets.withTargets(line))}\n`);
    },
    close: () => new Promise((resolve) => stream.end(() => resolve())),
  };
}
