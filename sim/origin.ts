// The origin behind the room, as the simulator plays it: a pool of workers that serve the requests the
// room forwards first come, first served, each for a log-normal service time. A request that would
// wait too long is shed (503 at once, no worker spent); one not answered within the timeout is a
// `timeout` for the room, though its worker still finishes it. Its capacity is the simulator's
// secret: the controller only sees the times and statuses the decision lines carry. Events change it
// during a sale: workers lost, a slow dependency, an error storm.
import type { OriginStatus } from '../control/types.js';
import type { Random } from '../lib/random.js';
import { MinHeap } from './min-heap.js';

/** Something that happens to the origin during a sale, from `fromMs` until `untilMs` (the end of the run when absent). */
export type OriginEvent =
  /** Only `share` of the workers are left (capacity halves: 0.5); the rest go, each after the request it holds. */
  | { kind: 'workers'; fromMs: number; untilMs?: number; share: number }
  /** A slow dependency: every request that starts in the span holds its worker `addMs` longer. */
  | { kind: 'slow'; fromMs: number; untilMs?: number; addMs: number }
  /** An error storm: `share` of the requests that arrive in the span are answered `status` at once. */
  | { kind: 'storm'; fromMs: number; untilMs?: number; share: number; status: number };

export interface OriginSpec {
  /** Workers serving at once. */
  workers: number;
  /** Mean service time, ms, and the sigma of its log-normal. */
  serviceMs: number;
  serviceSigma: number;
  /** A request that would wait longer than this for a worker is shed: 503 at once. */
  shedAfterMs: number;
  /** A request not answered within this is a `timeout` (its worker still serves it to the end). */
  timeoutMs: number;
  /** How long an answer given at once takes (a shed 503, a storm's 500), ms. */
  quickMs: number;
  events: readonly OriginEvent[];
}

/** What the origin did with one request: its time to headers (to the timeout, when none came) and its status, or `timeout`. */
export interface OriginAnswer {
  ms: number;
  status: OriginStatus;
}

/** An error for the origin's objective, as the controller counts one (docs/control/auto.md): no answer, 429, or 500 and above. */
export function isOriginError(status: OriginStatus): boolean {
  return typeof status !== 'number' || status === 429 || status >= 500;
}

const during = (e: OriginEvent, t: number): boolean => t >= e.fromMs && t < (e.untilMs ?? Number.POSITIVE_INFINITY);

/** The origin: `request` takes the requests in the order they are sent (non-decreasing times). */
export class Origin {
  /** When each worker is next free, the earliest first. */
  private free = new MinHeap<number>((a, b) => a < b);
  private workers: number;
  /** Log-normal median for the mean `serviceMs`: mean = median * exp(sigma^2 / 2). */
  private readonly median: number;

  constructor(
    readonly spec: OriginSpec,
    private readonly rng: Random,
  ) {
    this.workers = spec.workers;
    for (let i = 0; i < spec.workers; i++) this.free.push(0);
    this.median = spec.serviceMs * Math.exp(-(spec.serviceSigma ** 2) / 2);
  }

  /** Workers in service at `t`: the spec's, times every `workers` event in force (at least one). */
  private workersAt(t: number): number {
    let share = 1;
    for (const e of this.spec.events) if (e.kind === 'workers' && during(e, t)) share *= e.share;
    return Math.max(1, Math.round(this.spec.workers * share));
  }

  /** Workers that go keep the requests they hold; those left are the ones free soonest. Workers that come back are free at once. */
  private resize(t: number): void {
    const want = this.workersAt(t);
    if (want === this.workers) return;
    const times: number[] = [];
    while (this.free.size > 0) {
      times.push(this.free.peek()!);
      this.free.pop();
    }
    times.sort((a, b) => a - b);
    const kept =
      want < times.length ? times.slice(0, want) : [...times, ...new Array<number>(want - times.length).fill(t)];
    for (const x of kept) this.free.push(x);
    this.workers = want;
  }

  request(atMs: number): OriginAnswer {
    this.resize(atMs);
    for (const e of this.spec.events) {
      if (e.kind === 'storm' && during(e, atMs) && this.rng.next() < e.share)
        return { ms: this.spec.quickMs, status: e.status };
    }
    const start = Math.max(atMs, this.free.peek()!);
    if (start - atMs > this.spec.shedAfterMs) return { ms: this.spec.quickMs, status: 503 };
    let service = this.rng.logNormal(this.median, this.spec.serviceSigma);
    for (const e of this.spec.events) if (e.kind === 'slow' && during(e, start)) service += e.addMs;
    const finish = start + service;
    this.free.pop();
    this.free.push(finish);
    const ms = finish - atMs;
    return ms > this.spec.timeoutMs
      ? { ms: this.spec.timeoutMs, status: 'timeout' }
      : { ms: Math.round(ms), status: 200 };
  }
}
