// The simulator's stand-in for a POP's rate counter (Fastly's `RateCounter`): the same two calls the
// room's ceiling makes, counted exactly on the virtual clock. Fastly's own counter estimates; this one
// does not, so a ceiling the simulator shows broken is broken by the room, not by the counter.
import type { AdmissionCounter } from '../src/core/types.js';

export class VirtualRateCounter implements AdmissionCounter {
  /** The request's virtual time, ms: set before each decision. */
  nowMs = 0;
  private readonly events = new Map<string, { times: number[]; head: number }>();

  increment(entry: string, delta: number): void {
    const e = this.events.get(entry) ?? { times: [], head: 0 };
    for (let i = 0; i < delta; i++) e.times.push(this.nowMs);
    this.events.set(entry, e);
  }

  count(entry: string, seconds: number): number {
    const e = this.events.get(entry);
    if (e === undefined) return 0;
    // Nothing older than a minute is ever asked for: drop it as time passes.
    while (e.head < e.times.length && e.times[e.head]! <= this.nowMs - 60_000) e.head++;
    if (e.head > 4096 && e.head > e.times.length / 2) {
      e.times = e.times.slice(e.head);
      e.head = 0;
    }
    const from = this.nowMs - seconds * 1000;
    let n = 0;
    for (let i = e.times.length - 1; i >= e.head && e.times[i]! > from; i--) n++;
    return n;
  }
}
