// A binary heap ordered by `before`: the virtual clock's pending actions (clock.ts) and the bot farm's
// jobs by due time (bot-farm.ts). Items that compare equal keep no order of their own: a caller that
// needs one (the clock, for runs that repeat) puts it in `before`.
export class MinHeap<T> {
  private readonly items: T[] = [];

  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  /** The first item, or undefined when empty. */
  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const h = this.items;
    h.push(item);
    for (let i = h.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (!this.before(h[i]!, h[parent]!)) break;
      [h[i], h[parent]] = [h[parent]!, h[i]!];
      i = parent;
    }
  }

  /** Removes the first item. */
  pop(): void {
    const h = this.items;
    const last = h.pop();
    if (h.length === 0 || last === undefined) return;
    h[0] = last;
    for (let i = 0; ; ) {
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
