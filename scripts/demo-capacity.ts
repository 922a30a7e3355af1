// The demo shop's capacity: a shop that slows down with load, as a real origin does, so the autopilot
// (`target_mode=auto`) has a pace to find on a laptop. `workers` requests are served at once, each
// holding its worker for `serviceMs` before its answer goes; the others wait in line, first come first
// served, for a worker. A request that has waited `maxWaitMs` without one is answered 503 at once,
// as a shop whose threads are all taken does. So time to headers is `serviceMs` while the shop keeps
// up, grows with the line when it does not, and past the bound becomes an error.
import { UsageError } from '../lib/cli.js';

export interface CapacityOptions {
  /** Requests served at once. */
  workers: number;
  /** How long a worker holds a request before its answer goes, ms. */
  serviceMs: number;
  /** The longest a request waits in line for a worker before the shop answers 503, ms. */
  maxWaitMs: number;
}

/** A worker's time on a request, and the longest wait in line before a 503, unless given. */
export const SERVICE_MS = 125;
export const MAX_WAIT_MS = 2_000;
/**
 * The shop npm start runs: two requests at a time, 125 ms each, so 16 pages a second at most. A visitor
 * browsing alone waits 125 ms, and the load test's crowd let in at the README's 120 a minute (about
 * four pages a visit) keeps it half busy; let in much faster (the demo room's own 50% every 10 s, or
 * an autopilot's ceiling of 600) its pages wait in line, and past 2 s they are 503s.
 */
export const DEMO_CAPACITY: CapacityOptions = { workers: 2, serviceMs: SERVICE_MS, maxWaitMs: MAX_WAIT_MS };

/** What the shop has done so far, and holds now. */
export interface CapacityCounts {
  /** Requests being served now. */
  serving: number;
  /** Requests waiting in line for a worker now. */
  waiting: number;
  /** Requests answered after their turn. */
  served: number;
  /** Requests answered 503: no worker came within maxWaitMs. */
  refused: number;
}

/** The request had no worker within maxWaitMs: the shop answers 503. */
export const BUSY = Symbol('busy');

interface Waiter {
  turn: (got: boolean) => void;
  timer: ReturnType<typeof setTimeout>;
}

export class ShopCapacity {
  private serving = 0;
  private readonly line: Waiter[] = [];
  private served = 0;
  private refused = 0;

  constructor(readonly options: CapacityOptions) {
    const { workers, serviceMs, maxWaitMs } = options;
    if (!(Number.isInteger(workers) && workers >= 1)) throw new RangeError(`workers must be 1 or more, not ${workers}`);
    if (!(serviceMs >= 0 && maxWaitMs >= 0)) throw new RangeError('serviceMs and maxWaitMs must be 0 or more');
  }

  /**
   * Runs `work` once a worker is free and has spent `serviceMs` on the request; BUSY when no worker
   * came within `maxWaitMs`. The worker is held until `work` has answered.
   */
  async serve<T>(work: () => T | Promise<T>): Promise<T | typeof BUSY> {
    if (!(await this.worker())) {
      this.refused++;
      return BUSY;
    }
    try {
      if (this.options.serviceMs > 0) await new Promise((resolve) => setTimeout(resolve, this.options.serviceMs));
      return await work();
    } finally {
      this.served++;
      this.release();
    }
  }

  counts(): CapacityCounts {
    return { serving: this.serving, waiting: this.line.length, served: this.served, refused: this.refused };
  }

  /** True once the request holds a worker; false when it waited maxWaitMs in line without one. */
  private worker(): Promise<boolean> {
    if (this.serving < this.options.workers) {
      this.serving++;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const waiter: Waiter = {
        turn: resolve,
        timer: setTimeout(() => {
          this.line.splice(this.line.indexOf(waiter), 1);
          resolve(false);
        }, this.options.maxWaitMs),
      };
      this.line.push(waiter);
    });
  }

  /** The worker goes to the first in line, or back to the pool. */
  private release(): void {
    const next = this.line.shift();
    if (next === undefined) {
      this.serving--;
      return;
    }
    clearTimeout(next.timer);
    next.turn(true);
  }
}

/** A whole number from the command line, `least` or more; undefined when not given. */
function whole(name: string, text: string | undefined, least: number): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!(/^\d+$/.test(text) && n >= least))
    throw new UsageError(`--${name} must be a whole number from ${least}, not "${text}"`);
  return n;
}

/** --capacity and its two companions, or none. */
export function capacityOption(values: {
  capacity?: string | undefined;
  'service-ms'?: string | undefined;
  'max-wait-ms'?: string | undefined;
}): CapacityOptions | undefined {
  const workers = whole('capacity', values.capacity, 1);
  const serviceMs = whole('service-ms', values['service-ms'], 0) ?? SERVICE_MS;
  const maxWaitMs = whole('max-wait-ms', values['max-wait-ms'], 0) ?? MAX_WAIT_MS;
  if (workers === undefined) {
    if (values['service-ms'] !== undefined || values['max-wait-ms'] !== undefined)
      throw new UsageError('--service-ms and --max-wait-ms go with --capacity N');
    return undefined;
  }
  return { workers, serviceMs, maxWaitMs };
}

/** The capacity in words, for the line that says where the shop listens. */
export function capacityText(c: CapacityOptions | undefined): string {
  if (c === undefined) return 'no capacity limit';
  const perSecond = Math.round((c.workers * 1000) / Math.max(1, c.serviceMs));
  return `${c.workers} request${c.workers === 1 ? '' : 's'} at once, ${c.serviceMs} ms each (at most ${perSecond} a second), 503 after ${c.maxWaitMs / 1000} s in line`;
}
