// What the fuzz report quotes of the host beside an undocumented 5xx: only what the host printed after
// that request was sent, not an earlier request's words (the room's logs put stderr after stdout).
import { describe, expect, it } from 'vitest';
import { hostWordsSince, markLogs } from '../../fuzz/host-words.js';

/** A host whose stdout and stderr grow as a running one's do. */
function fakeHost() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, room: { logs: () => [...out, ...err], errors: () => [...err] } };
}

describe("the host's last words on a request", () => {
  it('are the matching lines printed since the request was sent, on stdout and stderr, not an earlier trap', () => {
    const h = fakeHost();
    h.err.push('wasm trap: unreachable (an earlier request)', 'error: earlier 1', 'error: earlier 2');
    h.out.push('listening');
    const mark = markLogs(h.room);
    h.out.push('limit: heap reached for this request', 'an ordinary line');
    h.err.push('panic: this request');
    // Without the mark, the last three matching lines of the whole run would end with the earlier ones.
    expect(hostWordsSince(h.room, mark)).toEqual(['limit: heap reached for this request', 'panic: this request']);
  });

  it('are none when the host said nothing about it, whatever it said before', () => {
    const h = fakeHost();
    h.err.push('error: an earlier request');
    const mark = markLogs(h.room);
    h.out.push('an ordinary line');
    expect(hostWordsSince(h.room, mark)).toEqual([]);
  });

  it('keep the last three at most', () => {
    const h = fakeHost();
    const mark = markLogs(h.room);
    h.err.push('error: 1', 'error: 2', 'error: 3', 'error: 4');
    expect(hostWordsSince(h.room, mark)).toEqual(['error: 2', 'error: 3', 'error: 4']);
  });
});
