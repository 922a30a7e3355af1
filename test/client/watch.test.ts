// The client's loop against the room's own handler on a fake clock (test/support/fakes.ts): an app that
// waits at the room's pace, solves the proof, and walks in when its turn comes; and against scripted
// answers for what the room rarely says (429, 503, a network that fails) and for stopping.
import { describe, expect, it } from 'vitest';
import { type Clock, type RoomEvent, type WatchOptions, waitForTurn, watchRoom } from '../../client/index.js';
import { handle } from '../../src/core/handler.js';
import { CookieJar } from '../support/cookie-jar.js';
import { DEFAULT_IDENTITY, FakeRoom, KEY_BASE64, KID } from '../support/fakes.js';
import { signInvite } from '../../src/core/tokens/invite.js';

const URL_ = 'http://shop.example/tickets';

/** A clock that moves the room's: each sleep is recorded and passes at once. */
function roomClock(room: { nowMs: number }): Clock & { sleeps: number[] } {
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => room.nowMs,
    async sleep(ms, signal) {
      signal?.throwIfAborted();
      sleeps.push(ms);
      room.nowMs += ms;
    },
  };
}

/** The room's handler as the app's network, with the app's cookie jar. */
function roomFetch(room: FakeRoom): typeof fetch {
  return new CookieJar().fetch((request) => handle(request, room.deps()));
}

async function collect(it: AsyncIterable<RoomEvent>, limit = 50): Promise<RoomEvent[]> {
  const events: RoomEvent[] = [];
  for await (const e of it) {
    events.push(e);
    if (events.length >= limit) break;
  }
  return events;
}

const decisions = (room: FakeRoom) =>
  room.logs.map((l) => JSON.parse(l.line) as Record<string, unknown>).filter((l) => 'reason' in l);

describe('an app waiting in the room', () => {
  it('checks only when the room says, every check a draw, until it wins and gets the origin’s answer', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: '10', wait_period_duration: '30' } });
    const clock = roomClock(room);
    const events = await collect(watchRoom(URL_, { fetch: roomFetch(room), clock, random: () => 0.5 }));
    const last = events.at(-1)!;
    expect(last.type).toBe('turn');
    expect(await (last as { response: Response }).response.text()).toBe('hello from origin');
    const waits = events.filter((e) => e.type === 'waiting');
    expect(waits.length).toBeGreaterThanOrEqual(1);
    // Each wait is the answer's Retry-After plus half its jitter (random 0.5), never less.
    for (const [i, e] of waits.entries()) {
      const { answer, nextCheckSeconds } = e as Extract<RoomEvent, { type: 'waiting' }>;
      expect(nextCheckSeconds).toBe(answer.retryAfterSeconds! + 0.5 * answer.jitterSeconds!);
      expect(clock.sleeps[i]).toBe(nextCheckSeconds * 1000);
    }
    // Not one check wasted: the first makes the token, every later one is its draw.
    const reasons = decisions(room).map((l) => l.reason);
    expect(reasons.length).toBeGreaterThan(2);
    expect(reasons).toEqual(['no_token', ...reasons.slice(2).map(() => 'draw_lost'), 'draw_won']);
  });

  it('solves the proof with the page’s solver and brings it to every draw', async () => {
    const room = new FakeRoom({
      settings: { allow_percentage: '10', wait_period_duration: '30', proof_of_work: 'fixed', proof_seconds: '0.05' },
    });
    const events = await collect(
      watchRoom(URL_, { fetch: roomFetch(room), clock: roomClock(room), random: () => 0.5 }),
    );
    expect(events.at(-1)!.type).toBe('turn');
    const first = events.find((e) => e.type === 'waiting') as Extract<RoomEvent, { type: 'waiting' }>;
    expect(first.answer.proof).toMatchObject({ header: 'waiting-room-proof', seconds: 0.05 });
    const draws = decisions(room).filter((l) => String(l.reason).startsWith('draw_'));
    expect(draws.length).toBeGreaterThan(1);
    expect(draws.map((l) => l.proof)).toEqual(draws.map(() => 'valid'));
  });

  it('waits for a proof still being solved before it checks, and says so', async () => {
    const room = new FakeRoom({
      settings: { allow_percentage: '10', wait_period_duration: '30', proof_of_work: 'fixed', proof_seconds: '0.05' },
    });
    let release: (v: string) => void = () => {};
    const solver: WatchOptions['solver'] = () => new Promise((resolve) => (release = resolve));
    const seen: string[] = [];
    const run = watchRoom(URL_, { fetch: roomFetch(room), clock: roomClock(room), solver });
    seen.push((await run.next()).value!.type);
    const next = run.next();
    seen.push((await next).value!.type);
    release('none');
    seen.push((await run.next()).value!.type);
    await run.return();
    expect(seen).toEqual(['waiting', 'solving', 'waiting']);
    // The `none` it was given went to the draw: the reduced chance, never the infinite queue.
    expect(decisions(room)[1]).toMatchObject({ proof: 'missing' });
  });

  it('tells the app the room is closed, then checks no sooner than the deny page does', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: '0' } });
    const clock = roomClock(room);
    const events = await collect(watchRoom(URL_, { fetch: roomFetch(room), clock, random: () => 1 }), 2);
    expect(events.map((e) => e.type)).toEqual(['denied', 'denied']);
    expect(clock.sleeps[0]).toBe(360_000);
  });

  it('counts down to a scheduled sale, then waits in line', async () => {
    const start = new Date(room0() + 600_000).toISOString();
    const room = new FakeRoom({
      settings: {
        allow_percentage: '20',
        event_prequeue_start: new Date(room0() - 60_000).toISOString(),
        event_start: start,
      },
    });
    const events = await collect(watchRoom(URL_, { fetch: roomFetch(room), clock: roomClock(room) }), 1);
    expect(events[0]).toMatchObject({ type: 'countdown', answer: { status: 'prequeue', eventStart: start } });
    expect((events[0] as Extract<RoomEvent, { type: 'countdown' }>).answer.startsInSeconds).toBe(600);
  });
});

function room0(): number {
  return new FakeRoom().nowMs;
}

type Step = Response | Error;

/** A network that answers `steps` in order, recording each request. */
function scripted(steps: Step[]): { fetch: typeof fetch; requests: Request[] } {
  const requests: Request[] = [];
  return {
    requests,
    fetch: async (input, init) => {
      requests.push(new Request(input, init));
      const step = steps.shift();
      if (step === undefined) throw new Error('the script ran out');
      if (step instanceof Error) throw step;
      return step;
    },
  };
}

/** An answer of the room: its JSON and, when given, its Retry-After. */
function roomSays(fields: Record<string, unknown>, retryAfter?: number, status = 200): Response {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (retryAfter !== undefined) headers['retry-after'] = String(retryAfter);
  return new Response(JSON.stringify({ waitingRoom: { inWaitingRoom: true, status: 'keepwaiting', ...fields } }), {
    status,
    headers,
  });
}

const origin = (): Response => new Response('<h1>tickets</h1>', { headers: { 'content-type': 'text/html' } });

const PUZZLE = {
  scheme: 'altcha-v2',
  header: 'waiting-room-proof',
  seconds: 2,
  counters: 9000,
  challenges: [
    { parameters: { algorithm: 'SHA-256', cost: 1, keyLength: 32, keyPrefix: 'ab', nonce: '01', salt: '02' } },
  ],
};

/** A clock that records sleeps and lets them pass at once. */
function stillClock(): Clock & { sleeps: number[] } {
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => Date.UTC(2026, 11, 7, 12),
    async sleep(ms, signal) {
      signal?.throwIfAborted();
      sleeps.push(ms);
    },
  };
}

const seconds = (clock: { sleeps: number[] }): number[] => clock.sleeps.map((ms) => ms / 1000);
const proofHeaders = (requests: Request[]): (string | null)[] =>
  requests.map((r) => r.headers.get('waiting-room-proof'));

describe('the pace', () => {
  it('is the Retry-After header, else the answer’s retryAfterSeconds, else the last one given, plus the room’s jitter', async () => {
    const net = scripted([
      roomSays({ retryAfterSeconds: 99, jitterSeconds: 4 }, 20),
      roomSays({ retryAfterSeconds: 12 }),
      roomSays({}),
      origin(),
    ]);
    const clock = stillClock();
    const events = await collect(watchRoom(URL_, { fetch: net.fetch, clock, random: () => 0.25 }));
    expect(events.map((e) => e.type)).toEqual(['waiting', 'waiting', 'waiting', 'turn']);
    expect(seconds(clock)).toEqual([21, 13, 13]);
  });

  it('reads a Retry-After given as an HTTP date', async () => {
    const clock = stillClock();
    const at = new Date(clock.now() + 42_000).toUTCString();
    const said = roomSays({});
    said.headers.set('retry-after', at);
    const net = scripted([said, origin()]);
    await collect(watchRoom(URL_, { fetch: net.fetch, clock, random: () => 0 }));
    expect(seconds(clock)).toEqual([42]);
  });

  it('honours Retry-After on the 429 of a token that checked too often, keeping the puzzle it solved', async () => {
    let solved = 0;
    const solver: WatchOptions['solver'] = async () => `solution-${++solved}`;
    const net = scripted([
      roomSays({ retryAfterSeconds: 20, jitterSeconds: 4, proof: PUZZLE }, 20),
      roomSays({ retryAfterSeconds: 7, hammering: true }, 7, 429),
      roomSays({ retryAfterSeconds: 10, jitterSeconds: 4, proof: PUZZLE }, 10),
      origin(),
    ]);
    const clock = stillClock();
    const events = await collect(watchRoom(URL_, { fetch: net.fetch, clock, random: () => 0.5, solver }));
    expect(events.map((e) => e.type)).toEqual(['waiting', 'busy', 'waiting', 'turn']);
    expect(events[1]).toMatchObject({ httpStatus: 429, hammering: true, nextCheckSeconds: 9 });
    expect(seconds(clock)).toEqual([22, 9, 12]);
    expect(proofHeaders(net.requests)).toEqual(['none', 'solution-1', 'solution-1', 'solution-1']);
    expect(solved).toBe(1);
  });

  it('honours Retry-After on a 503 without the room’s body, and backs off on one that gives none', async () => {
    const unavailable = (retryAfter?: string) =>
      new Response('busy', { status: 503, headers: retryAfter ? { 'retry-after': retryAfter } : {} });
    const net = scripted([
      unavailable('9'),
      unavailable(),
      unavailable(),
      roomSays({ retryAfterSeconds: 5 }, 5),
      origin(),
    ]);
    const clock = stillClock();
    const events = await collect(watchRoom(URL_, { fetch: net.fetch, clock, random: () => 0 }));
    expect(events.map((e) => e.type)).toEqual(['busy', 'busy', 'busy', 'waiting', 'turn']);
    expect(seconds(clock)).toEqual([9, 2, 4, 5]);
  });

  it('backs off on network errors, doubling up to the ceiling, then keeps the room’s pace again', async () => {
    const down = () => new TypeError('fetch failed');
    const net = scripted([
      ...Array.from({ length: 6 }, down),
      roomSays({ retryAfterSeconds: 5, jitterSeconds: 0 }, 5),
      down(),
      origin(),
    ]);
    const clock = stillClock();
    const events = await collect(watchRoom(URL_, { fetch: net.fetch, clock, random: () => 0, maxBackoffSeconds: 20 }));
    expect(events.filter((e) => e.type === 'error').map((e) => (e as { attempt: number }).attempt)).toEqual([
      1, 2, 3, 4, 5, 6, 1,
    ]);
    expect(seconds(clock)).toEqual([2, 4, 8, 16, 20, 20, 5, 2]);
  });
});

describe('the checks', () => {
  it('ask for JSON, uncached, with the cookie, the language and the app’s own headers', async () => {
    const net = scripted([origin()]);
    await collect(
      watchRoom(URL_, { fetch: net.fetch, clock: stillClock(), language: 'de-DE', headers: { 'x-app': 'shop/2.1' } }),
    );
    const [r] = net.requests;
    expect(r!.headers.get('accept')).toBe('application/json');
    expect(r!.headers.get('accept-language')).toBe('de-DE');
    expect(r!.headers.get('x-app')).toBe('shop/2.1');
    expect(r!.headers.get('waiting-room-proof')).toBe('none');
    expect(r!.cache).toBe('no-store');
    expect(r!.credentials).toBe('include');
  });

  it('send none once the room asks for no proof, and solve each new puzzle once', async () => {
    const other = { ...PUZZLE, challenges: [{ parameters: { ...PUZZLE.challenges[0]!.parameters, nonce: '03' } }] };
    const asked: string[] = [];
    const solver: WatchOptions['solver'] = async (p) => {
      asked.push(p.challenges[0]!.parameters.nonce);
      return `for-${p.challenges[0]!.parameters.nonce}`;
    };
    const net = scripted([
      roomSays({ proof: PUZZLE }, 1),
      roomSays({ proof: other }, 1),
      roomSays({ proof: null }, 1),
      origin(),
    ]);
    await collect(watchRoom(URL_, { fetch: net.fetch, clock: stillClock(), solver }));
    expect(proofHeaders(net.requests)).toEqual(['none', 'for-01', 'for-03', 'none']);
    expect(asked).toEqual(['01', '03']);
  });

  it('hand the origin’s answer over unread, JSON included', async () => {
    const api = new Response('{"seats":[12,13]}', { headers: { 'content-type': 'application/json' } });
    const net = scripted([api]);
    const response = await waitForTurn(URL_, { fetch: net.fetch, clock: stillClock() });
    expect(await response.json()).toEqual({ seats: [12, 13] });
  });
});

describe('stopping', () => {
  it('ends the watch when the app aborts, with no check after it; waitForTurn rejects with the reason', async () => {
    const stop = new AbortController();
    const net = scripted([roomSays({}, 5), roomSays({}, 5), roomSays({}, 5)]);
    const clock = stillClock();
    const seen: string[] = [];
    const waiting = waitForTurn(URL_, {
      fetch: net.fetch,
      clock,
      signal: stop.signal,
      onEvent: (e) => {
        seen.push(e.type);
        if (seen.length === 2) stop.abort(new Error('the app left the queue screen'));
      },
    });
    await expect(waiting).rejects.toThrow('the app left the queue screen');
    expect(seen).toEqual(['waiting', 'waiting']);
    expect(net.requests).toHaveLength(2);
  });

  it('makes no request at all when stopped before it starts', async () => {
    const stop = new AbortController();
    stop.abort();
    const net = scripted([origin()]);
    expect(await collect(watchRoom(URL_, { fetch: net.fetch, clock: stillClock(), signal: stop.signal }))).toEqual([]);
    expect(net.requests).toHaveLength(0);
  });

  it('stops a solver at work when the app leaves the loop', async () => {
    let given: AbortSignal | undefined;
    const solver: WatchOptions['solver'] = (_p, signal) => {
      given = signal;
      return new Promise(() => {});
    };
    const net = scripted([roomSays({ proof: PUZZLE }, 5)]);
    for await (const e of watchRoom(URL_, { fetch: net.fetch, clock: stillClock(), solver })) {
      if (e.type === 'waiting') break;
    }
    expect(given?.aborted).toBe(true);
  });
});

describe('an app invited into a priority lane', () => {
  it('waits in the lane, told so in every answer, and walks in on its turn', async () => {
    const inviteKey = Uint8Array.from({ length: 32 }, (_, i) => (i * 7 + 3) & 255);
    const room = new FakeRoom({
      settings: {
        allow_percentage: '10',
        wait_period_duration: '30',
        lanes: 'members:30',
        lane_names: 'members:Club members',
      },
      keys: { [KID]: KEY_BASE64, 'invite.k1': Buffer.from(inviteKey).toString('base64') },
    });
    const invitation = await signInvite(
      { room: 'default', sub: DEFAULT_IDENTITY, exp: room.nowSec + 3600, lane: 'members' },
      'k1',
      inviteKey,
    );
    const events = await collect(
      watchRoom(URL_, {
        fetch: roomFetch(room),
        clock: roomClock(room),
        random: () => 0.5,
        headers: { 'waiting-room-invite': invitation },
      }),
    );
    expect(events.at(-1)!.type).toBe('turn');
    const waits = events.filter((e) => e.type === 'waiting') as Extract<RoomEvent, { type: 'waiting' }>[];
    expect(waits.length).toBeGreaterThan(0);
    for (const { answer } of waits) {
      expect(answer.lane).toEqual({ id: 'members', name: 'Club members' });
      expect(answer.text?.lane).toBe('Your lane: Club members');
    }
    expect(decisions(room).every((l) => l.lane === 'members')).toBe(true);
  });
});
