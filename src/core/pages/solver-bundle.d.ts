// The waiting page's solver, bundled at build time (lib/solver-bundle.ts: esbuild for the Wasm,
// vitest.config.ts for the tests): its text and 8 hex characters of its SHA-256.
declare module 'waiting-room:solver' {
  export const source: string;
  export const hash: string;
}
