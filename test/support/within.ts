// A promise bounded in time, for tests that would otherwise hang until the suite's timeout.

/** Fails with `what` rather than hanging until the test timeout when `promise` never settles. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(what)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
