// The client's loop: check the URL as JSON, tell the app what the room said, wait as long as the room
// says, check again, until the origin answers (the visitor's turn) or the app stops it. Each check
// carries the room's cookie (credentials) and the proof header: the solution of the puzzle the last
// answer gave, solved meanwhile, or `none`.
import { readResponse } from './answer.js';
import { realClock } from './clock.js';
import { HeldProof } from './held-proof.js';
import { backoff, firstPace, nextCheck, type Pace, retryAfterHeader } from './pace.js';
import { pageSolver } from './proof.js';
import type { Clock, ProofAsked, RoomEvent, WatchOptions } from './types.js';

/** The proof header's name (docs/bots.md). */
export const PROOF_HEADER = 'waiting-room-proof';

/** What the loop keeps between checks. */
interface Loop {
  url: string | URL;
  options: WatchOptions;
  fetch: typeof fetch;
  clock: Clock;
  random: () => number;
  pace: Pace;
  /** Failed checks in a row. */
  failures: number;
}

/** One check's outcome: what to tell the app, when to check again, and the answer's puzzle. */
interface Checked {
  event: RoomEvent;
  waitSeconds: number;
  proof?: ProofAsked | null | undefined;
}

/** One check, with `proofHeader`: the event it makes (the turn included) and the wait before the next. */
async function check(loop: Loop, proofHeader: string): Promise<Checked> {
  const { options } = loop;
  const headers: Record<string, string> = { ...options.headers, accept: 'application/json' };
  headers[PROOF_HEADER] = proofHeader;
  if (options.language) headers['accept-language'] = options.language;
  const response = await loop.fetch(loop.url, {
    method: 'GET',
    headers,
    credentials: options.credentials ?? 'include',
    cache: 'no-store',
    // The app's signal, not the loop's: the turn's response, handed over, must outlive the loop.
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const reading = await readResponse(response);
  if (reading.kind === 'turn') return { event: { type: 'turn', response }, waitSeconds: 0 };
  const header = retryAfterHeader(response.headers.get('retry-after'), loop.clock.now());
  const answer = reading.answer;
  let waitSeconds: number;
  if (reading.kind === 'busy' && header === null && !((answer?.retryAfterSeconds ?? 0) > 0)) {
    // "Later", without saying when: as after a failure.
    waitSeconds = backoff(loop.pace, ++loop.failures, options.maxBackoffSeconds ?? 60, loop.random);
  } else {
    loop.failures = 0;
    waitSeconds = nextCheck(loop.pace, header, answer, loop.random);
  }
  const httpStatus = response.status;
  if (reading.kind === 'busy') {
    const hammering = answer?.hammering ?? false;
    return {
      event: { type: 'busy', httpStatus, hammering, nextCheckSeconds: waitSeconds },
      waitSeconds,
      proof: answer?.proof,
    };
  }
  const { status } = reading.answer;
  const type = status === 'prequeue' ? 'countdown' : status === 'deny' ? 'denied' : 'waiting';
  return {
    event: { type, answer: reading.answer, httpStatus, nextCheckSeconds: waitSeconds },
    waitSeconds,
    proof: reading.answer.proof,
  };
}

/**
 * Watches the room in front of `url` for this visitor: yields an event per check (and `solving` when a
 * due check waits for the proof), ends after the `turn` event, or quietly when `signal` aborts or the
 * loop is left (a solver at work is stopped then).
 */
export async function* watchRoom(url: string | URL, options: WatchOptions = {}): AsyncGenerator<RoomEvent, void> {
  const outer = options.signal;
  if (outer?.aborted) return;
  const stop = new AbortController();
  const abort = (): void => stop.abort(outer?.reason);
  outer?.addEventListener('abort', abort, { once: true });
  const signal = stop.signal;
  const held = new HeldProof(options.solver ?? pageSolver, signal);
  const loop: Loop = {
    url,
    options,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    clock: options.clock ?? realClock,
    random: options.random ?? Math.random,
    pace: firstPace(),
    failures: 0,
  };
  try {
    for (;;) {
      const solving = held.pending();
      if (solving !== null) yield { type: 'solving', seconds: solving };
      const proofHeader = await held.header();
      signal.throwIfAborted();
      let checked: Checked;
      try {
        checked = await check(loop, proofHeader);
      } catch (error) {
        signal.throwIfAborted();
        const waitSeconds = backoff(loop.pace, ++loop.failures, options.maxBackoffSeconds ?? 60, loop.random);
        checked = {
          event: { type: 'error', error, attempt: loop.failures, nextCheckSeconds: waitSeconds },
          waitSeconds,
        };
      }
      held.take(checked.proof);
      yield checked.event;
      if (checked.event.type === 'turn') return;
      await loop.clock.sleep(checked.waitSeconds * 1000, signal);
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  } finally {
    outer?.removeEventListener('abort', abort);
    // Left early (break, return, abort): a solver still at work stops.
    stop.abort();
  }
}

/**
 * Waits for the visitor's turn: resolves with the origin's answer, telling `onEvent` what the room
 * says meanwhile; rejects with the signal's reason when stopped.
 */
export async function waitForTurn(
  url: string | URL,
  options: WatchOptions & { onEvent?: (event: RoomEvent) => void } = {},
): Promise<Response> {
  for await (const event of watchRoom(url, options)) {
    options.onEvent?.(event);
    if (event.type === 'turn') return event.response;
  }
  throw options.signal?.reason ?? new Error('the watch stopped');
}
