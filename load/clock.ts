// Time for the virtual browsers: the real clock in a run, a fake one in the tests.

export interface Clock {
  now(): number;
  /** Calls `fn` after `ms`; returns a function that cancels the call. */
  after(ms: number, fn: () => void): () => void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, Math.max(0, ms));
    return () => clearTimeout(timer);
  },
};
