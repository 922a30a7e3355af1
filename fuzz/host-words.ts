// What the fuzz report quotes of the host beside an undocumented 5xx (fuzz/run.ts): the lines naming a
// limit, a trap, a panic, an error or an exception that the host printed after that request was sent.
// The room's logs are stdout then stderr, so the mark counts each stream: a length of the joined list
// would take stdout lines of earlier requests for new ones, and the last matching lines of the whole
// run may be an earlier request's words.
import type { Room } from '../lib/room-host.js';

type HostLogs = Pick<Room, 'logs' | 'errors'>;

/** How many lines the host had printed on stdout and on stderr. */
export interface LogMark {
  out: number;
  err: number;
}

/** The mark to take just before a request is sent. */
export function markLogs(room: HostLogs): LogMark {
  const err = room.errors().length;
  return { out: room.logs().length - err, err };
}

const WORDS = /limit:|trap|panic|error|exception/i;

/** The last `max` lines printed since `mark` that say something went wrong, stdout's then stderr's. */
export function hostWordsSince(room: HostLogs, mark: LogMark, max = 3): string[] {
  const errors = room.errors();
  const logs = room.logs();
  const out = logs.slice(mark.out, logs.length - errors.length);
  return [...out, ...errors.slice(mark.err)].filter((l) => WORDS.test(l)).slice(-max);
}
