import { describe, expect, it } from 'vitest';
import { MinHeap } from '../../sim/min-heap.js';

describe('MinHeap', () => {
  it('gives its items back in the order of `before`, ties in the order the comparison makes', () => {
    let seq = 0;
    const heap = new MinHeap<{ at: number; seq: number }>((a, b) => a.at < b.at || (a.at === b.at && a.seq < b.seq));
    for (const at of [5, 1, 9, 1, 3, 5, 0, 7, 3]) heap.push({ at, seq: seq++ });
    const out: string[] = [];
    for (let top = heap.peek(); top !== undefined; top = heap.peek()) {
      out.push(`${top.at}/${top.seq}`);
      heap.pop();
    }
    expect(out).toEqual(['0/6', '1/1', '1/3', '3/4', '3/8', '5/0', '5/5', '7/7', '9/2']);
    expect(heap.size).toBe(0);
    heap.pop();
    expect(heap.peek()).toBeUndefined();
  });
});
