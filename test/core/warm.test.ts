import { describe, expect, it } from 'vitest';
import { warmUp } from '../../src/core/warm.js';

describe('build-time warm-up', () => {
  // Each path it misses is paid cold again on every request of that kind (src/core/warm.ts).
  it('takes a new, a waiting, an admitted, a denied and a pre-queued visitor through the decision, and a request through the rules', async () => {
    expect(await warmUp()).toEqual([
      'startwaiting no_token',
      'keepwaiting wait_not_due',
      'origin allow_valid',
      'deny deny_all',
      'prequeue prequeue_joined',
      // Past every rule (none matches this request) to the most specific route.
      'route room checkout',
    ]);
  });
});
