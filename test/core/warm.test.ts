import { describe, expect, it } from 'vitest';
import { sandboxMemory } from '../../src/core/memory/index.js';
import { warmUp } from '../../src/core/warm.js';

describe('build-time warm-up', () => {
  // Each path it misses is paid cold again on every request of that kind (src/core/warm.ts).
  it('takes a new, a waiting, an admitted, a denied, a pre-queued and a proof-asked visitor through the decision, and a request through the rules', async () => {
    expect(await warmUp()).toEqual([
      'startwaiting no_token',
      'keepwaiting wait_not_due',
      'origin allow_valid',
      'deny deny_all',
      'prequeue prequeue_joined',
      // A draw that asks for a proof: the puzzle in the answer, then a wrong solution checked at the draw.
      'startwaiting no_token',
      'startwaiting draw_lost',
      // Past every rule (none matches this request) to the most specific route.
      'route room checkout',
      // Every built-in English message compiled (other languages are compiled as a sandbox first answers in them).
      expect.stringMatching(/^messages \d+$/),
    ]);
  });

  it('fills the sandbox’s memory, the very tables requests read, and keeps nothing of its visitors', async () => {
    await warmUp();
    const size = (name: string) => sandboxMemory.kept().find((t) => t.name === name)?.size;
    // What a request would otherwise work out again: the snapshot holds it.
    for (const name of [
      'built-in messages compiled',
      'messages worded',
      'client messages as JSON',
      'templates parsed',
      'arguments of the English messages',
    ])
      expect(size(name), name).toBeGreaterThan(0);
    // Settings, keys and tokens come from the stores at each request: the warm-up leaves none behind.
    expect(sandboxMemory.size).toEqual({ tokens: 0, keys: 0, parses: 0 });
  });
});
