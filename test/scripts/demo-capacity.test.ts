// The demo shop's capacity on a fake clock: what a request sent through the room would see of the
// shop, its time to headers and its status, as the load on the shop grows.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BUSY, ShopCapacity, type CapacityOptions } from '../../scripts/demo-capacity.js';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

/** Sends `n` requests at once; each resolves to its time to headers (ms) and whether the shop was busy. */
function burst(shop: ShopCapacity, n: number): Promise<{ ms: number; status: 200 | 503 }[]> {
  const start = Date.now();
  return Promise.all(
    Array.from({ length: n }, async () => {
      const answer = await shop.serve(() => 200 as const);
      return { ms: Date.now() - start, status: answer === BUSY ? (503 as const) : answer };
    }),
  );
}

async function settle<T>(pending: Promise<T>): Promise<T> {
  await vi.runAllTimersAsync();
  return pending;
}

const demo: CapacityOptions = { workers: 2, serviceMs: 40, maxWaitMs: 2_000 };

describe("the demo shop's capacity", () => {
  it('answers in its base time while the requests fit its workers', async () => {
    const shop = new ShopCapacity(demo);
    expect(await settle(burst(shop, 2))).toEqual([
      { ms: 40, status: 200 },
      { ms: 40, status: 200 },
    ]);
    // One after another, a visitor browsing alone never waits for a worker.
    for (let i = 0; i < 3; i++) expect(await settle(burst(shop, 1))).toEqual([{ ms: 40, status: 200 }]);
  });

  it('makes the rest wait in line, first come first served, so time to headers grows with the load', async () => {
    const shop = new ShopCapacity(demo);
    const order: number[] = [];
    const all = Promise.all(
      Array.from({ length: 6 }, (_, i) => shop.serve(() => void order.push(i)).then(() => Date.now())),
    );
    const start = Date.now();
    const done = await settle(all);
    expect(done.map((t) => t - start)).toEqual([40, 40, 80, 80, 120, 120]);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('answers 503 at once to a request that waited past its bound, and serves the others', async () => {
    const shop = new ShopCapacity({ workers: 1, serviceMs: 40, maxWaitMs: 1_990 });
    const answers = await settle(burst(shop, 100));
    // The k-th in line gets the worker after 40k ms: those within 1,990 ms (k up to 49) are served.
    const ok = answers.filter((a) => a.status === 200);
    const busy = answers.filter((a) => a.status === 503);
    expect(ok).toHaveLength(50);
    expect(ok.at(-1)!.ms).toBe(2_000);
    expect(busy).toHaveLength(50);
    expect(new Set(busy.map((a) => a.ms))).toEqual(new Set([1_990]));
    expect(shop.counts()).toEqual({ serving: 0, waiting: 0, served: 50, refused: 50 });
    // The storm over, the next visitor is served in the base time again.
    expect(await settle(burst(shop, 1))).toEqual([{ ms: 40, status: 200 }]);
  });

  it('counts what it serves now and what waits', async () => {
    const shop = new ShopCapacity(demo);
    const pending = burst(shop, 5);
    await vi.advanceTimersByTimeAsync(10);
    expect(shop.counts()).toEqual({ serving: 2, waiting: 3, served: 0, refused: 0 });
    await settle(pending);
    expect(shop.counts()).toEqual({ serving: 0, waiting: 0, served: 5, refused: 0 });
  });

  it('holds the worker until the answer is made, and frees it when making it fails', async () => {
    const shop = new ShopCapacity({ workers: 1, serviceMs: 0, maxWaitMs: 1_000 });
    const slow = shop.serve(() => new Promise<string>((resolve) => setTimeout(() => resolve('slow'), 300)));
    const next = shop.serve(() => Date.now());
    const start = Date.now();
    expect(await settle(slow)).toBe('slow');
    expect((await next) as number).toBe(start + 300);
    const failed = expect(shop.serve(() => Promise.reject(new Error('page failed')))).rejects.toThrow('page failed');
    await vi.runAllTimersAsync();
    await failed;
    expect(await settle(shop.serve(() => 'after'))).toBe('after');
  });

  it('refuses a shop with no worker', () => {
    expect(() => new ShopCapacity({ ...demo, workers: 0 })).toThrow(/workers/);
  });
});
