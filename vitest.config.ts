import { defineConfig } from 'vitest/config';

// One `npm test` runs every suite. Suites that need the built Wasm or Chromium prepare it in their
// own beforeAll (shared helpers under test/support/), so `vitest run test/core` stays fast.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 240_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
