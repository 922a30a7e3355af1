// The virtual clock: a time-ordered queue of pending actions. Nobody waits for real; the clock jumps
// from one event to the next, so a 30-minute on-sale runs in seconds.
import { MinHeap } from './min-heap.js';

type Action = (nowMs: number) => Promise<void> | void;

interface Pending {
  at: number;
  // Insertion order breaks ties, so two runs with one seed process same-millisecond events alike.
  seq: number;
  action: Action;
}

export class VirtualClock {
  /** In time order, then insertion order (`seq`). */
  private readonly heap = new MinHeap<Pending>((a, b) => a.at < b.at || (a.at === b.at && a.seq < b.seq));
  private seq = 0;
  private current = 0;

  get nowMs(): number {
    return this.current;
  }

  /** Queue an action at an absolute virtual time; the past is clamped to now. */
  at(timeMs: number, action: Action): void {
    this.heap.push({ at: Math.max(timeMs, this.current), seq: this.seq++, action });
  }

  /** Run queued actions in time order until none is left before `untilMs`. */
  async run(untilMs: number): Promise<void> {
    for (let top = this.heap.peek(); top !== undefined && top.at <= untilMs; top = this.heap.peek()) {
      this.heap.pop();
      this.current = top.at;
      await top.action(top.at);
    }
    this.current = Math.max(this.current, untilMs);
  }

  get pending(): number {
    return this.heap.size;
  }
}
