// The edge rate limiter (rate counters and penalty boxes), kept in the main thread and shared by
// every request, in memory, as one POP's would be.
import type { ErlOp } from './protocol.js';

/**
 * Fastly's edge rate limiter in memory: per-second buckets for rate counters and expiry times
 * for penalty boxes. Rates are counts per second averaged over the asked window.
 */
export class RateLimiter {
  private readonly counters = new Map<string, Map<number, number>>();
  private readonly boxes = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  private second(): number {
    return Math.floor(this.now() / 1000);
  }

  private increment(rc: string, entry: string, delta: number): void {
    const key = `${rc}\0${entry}`;
    let buckets = this.counters.get(key);
    if (!buckets) {
      buckets = new Map();
      this.counters.set(key, buckets);
    }
    const sec = this.second();
    buckets.set(sec, (buckets.get(sec) ?? 0) + delta);
    for (const s of buckets.keys()) if (s < sec - 120) buckets.delete(s);
  }

  private sum(rc: string, entry: string, seconds: number): number {
    const buckets = this.counters.get(`${rc}\0${entry}`);
    if (!buckets) return 0;
    const sec = this.second();
    let total = 0;
    for (const [s, n] of buckets) if (s > sec - seconds) total += n;
    return total;
  }

  private boxed(pb: string, entry: string): boolean {
    const key = `${pb}\0${entry}`;
    const until = this.boxes.get(key);
    if (until === undefined) return false;
    if (until <= this.now()) {
      this.boxes.delete(key);
      return false;
    }
    return true;
  }

  private box(pb: string, entry: string, ttlSec: number): void {
    // Fastly keeps entries whole minutes, between one minute and one hour.
    const ttl = Math.min(3600, Math.max(60, Math.floor(ttlSec / 60) * 60));
    this.boxes.set(`${pb}\0${entry}`, this.now() + ttl * 1000);
  }

  run(op: ErlOp): number {
    switch (op.kind) {
      case 'increment':
        this.increment(op.rc, op.entry, op.delta);
        return 0;
      case 'rate':
        return Math.floor(this.sum(op.rc, op.entry, op.window) / Math.max(1, op.window));
      case 'count':
        return this.sum(op.rc, op.entry, op.duration);
      case 'pbAdd':
        this.box(op.pb, op.entry, op.ttl);
        return 0;
      case 'pbHas':
        return this.boxed(op.pb, op.entry) ? 1 : 0;
      case 'check': {
        if (this.boxed(op.pb, op.entry)) return 1;
        this.increment(op.rc, op.entry, op.delta);
        const rate = this.sum(op.rc, op.entry, op.window) / Math.max(1, op.window);
        if (rate > op.limit) {
          this.box(op.pb, op.entry, op.ttl);
          return 1;
        }
        return 0;
      }
    }
  }
}
