// A fake clock for the load generator, and a network that answers with the room's real handler
// (test/support/fakes.ts FakeRoom) at the fake clock's time: requests take no time, and the clock
// only moves on once every request in flight has its answer.
import type { LoadAnswer, LoadRequest, Send } from '../../load/browser.js';
import type { Clock } from '../../load/clock.js';
import { FakeRoom, T0 } from '../support/fakes.js';

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

export class FakeClock implements Clock {
  private t: number;
  private seq = 0;
  private timers: Timer[] = [];
  /** Something still working outside the clock (a request in flight); the clock waits for it. */
  busy: () => boolean = () => false;

  constructor(startMs = T0) {
    this.t = startMs;
  }

  now(): number {
    return this.t;
  }

  after(ms: number, fn: () => void): () => void {
    const timer: Timer = { at: this.t + Math.max(0, ms), seq: this.seq++, fn, cancelled: false };
    this.timers.push(timer);
    return () => (timer.cancelled = true);
  }

  /** Lets promises and I/O callbacks run until nothing is in flight. */
  async settle(): Promise<void> {
    do await new Promise((resolve) => setImmediate(resolve));
    while (this.busy());
    await new Promise((resolve) => setImmediate(resolve));
  }

  /** Fires every timer due up to `untilMs`, in time order, settling after each. */
  async runUntil(untilMs: number): Promise<void> {
    await this.settle();
    for (;;) {
      this.timers = this.timers.filter((x) => !x.cancelled);
      const next = this.timers.reduce<Timer | null>(
        (best, x) => (best === null || x.at < best.at || (x.at === best.at && x.seq < best.seq) ? x : best),
        null,
      );
      if (next === null || next.at > untilMs) break;
      this.timers.splice(this.timers.indexOf(next), 1);
      this.t = next.at;
      next.fn();
      await this.settle();
    }
    this.t = Math.max(this.t, untilMs);
  }

  async advance(ms: number): Promise<void> {
    await this.runUntil(this.t + ms);
  }
}

export const LOAD_HEADER = 'x-load-visitor';

export interface FakeNet {
  room: FakeRoom;
  send: Send;
  /** Every request, with the fake time it was answered at. */
  log: Array<LoadRequest & { atMs: number; status: number; retryAfter: string | null }>;
  /** Makes the next `n` requests fail as if the room were down. */
  failNext(n: number, cause?: string): void;
}

/** A room keyed on the load header, answering at `clock`'s time (in front of `origin`, default a 200). */
export function fakeNet(
  clock: FakeClock,
  settings: Record<string, string> = {},
  origin?: (request: Request) => Promise<Response>,
): FakeNet {
  const room = new FakeRoom({
    settings: { identity: `header:${LOAD_HEADER}`, wait_period_duration: '30', ...settings },
    nowMs: clock.now(),
    ...(origin ? { origin } : {}),
  });
  const log: FakeNet['log'] = [];
  let inFlight = 0;
  let failing = 0;
  let failCause = 'connection refused';
  clock.busy = () => inFlight > 0;
  const send: Send = async (request) => {
    inFlight++;
    try {
      room.nowMs = clock.now();
      if (failing > 0) {
        failing--;
        log.push({ ...request, atMs: clock.now(), status: 0, retryAfter: null });
        throw new Error(failCause);
      }
      const answer = await room.visit({
        path: request.path,
        headers: { [LOAD_HEADER]: request.visitor, accept: request.json ? 'application/json' : 'text/html' },
        ...(request.cookie !== null ? { cookie: request.cookie } : {}),
      });
      log.push({
        ...request,
        atMs: clock.now(),
        status: answer.response.status,
        retryAfter: answer.response.headers.get('retry-after'),
      });
      const result: LoadAnswer = {
        status: answer.response.status,
        retryAfter: answer.response.headers.get('retry-after'),
        setCookies: answer.response.headers.getSetCookie(),
        body: answer.body,
      };
      return result;
    } finally {
      inFlight--;
    }
  };
  return {
    room,
    send,
    log,
    failNext(n, cause = 'connection refused') {
      failing = n;
      failCause = cause;
    },
  };
}
