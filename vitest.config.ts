import { defineConfig } from 'vitest/config';

// One `npm test` runs every suite. Suites that need the built Wasm or Chromium prepare it in their
// own beforeAll (shared helpers under test/support/), so `vitest run test/core` stays fast.
export default defineConfig({
  plugins: [
    {
      // The built-in pages are imported as text, as esbuild's `text` loader does in the Wasm build.
      name: 'html-as-text',
      enforce: 'pre',
      transform(code, id) {
        if (id.endsWith('.html')) return { code: `export default ${JSON.stringify(code)};`, map: null };
        return undefined;
      },
    },
  ],
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 240_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
