// Waiting on a source in the sources' tests: for a condition (bounded), or a fixed time.
/** Polls until `check` holds (bounded), so a test waits for the source's next poll, not a fixed time. */
export async function until(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
