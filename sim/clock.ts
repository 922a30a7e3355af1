// The virtual clock: a time-ordered queue of pending actions. Nobody waits for real; the clock jumps
// from one event to the next, so a 30-minute on-sale runs in seconds.

type Action = (nowMs: number) => Promise<void> | void;

interface Pending {
  at: number;
  // Insertion order breaks ties, so two runs with one seed process same-millisecond events alike.
  seq: number;
  action: Action;
}

export class VirtualClock {
  private heap: Pending[] = [];
  private seq = 0;
  private current = 0;

  get nowMs(): number {
    return this.current;
  }

  /** Queue an action at an absolute virtual time; the past is clamped to now. */
  at(timeMs: number, action: Action): void {
    this.push({ at: Math.max(timeMs, this.current), seq: this.seq++, action });
  }

  /** Run queued actions in time order until none is left before `untilMs`. */
  async run(untilMs: number): Promise<void> {
    while (this.heap.length > 0) {
      const top = this.heap[0]!;
      if (top.at > untilMs) break;
      this.pop();
      this.current = top.at;
      await top.action(top.at);
    }
    this.current = Math.max(this.current, untilMs);
  }

  get pending(): number {
    return this.heap.length;
  }

  private before(a: Pending, b: Pending): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  private push(item: Pending): void {
    const h = this.heap;
    h.push(item);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(h[i]!, h[parent]!)) break;
      [h[i], h[parent]] = [h[parent]!, h[i]!];
      i = parent;
    }
  }

  private pop(): void {
    const h = this.heap;
    const last = h.pop()!;
    if (h.length === 0) return;
    h[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < h.length && this.before(h[l]!, h[best]!)) best = l;
      if (r < h.length && this.before(h[r]!, h[best]!)) best = r;
      if (best === i) return;
      [h[i], h[best]] = [h[best]!, h[i]!];
      i = best;
    }
  }
}
