// esbuild (loader: text) and vitest (plugin in vitest.config.ts) both turn an imported .html file into its text.
declare module '*.html' {
  const text: string;
  export default text;
}

// `?raw` (vite's own, and an esbuild plugin in scripts/build.ts): any file's text, as the page parts are imported.
declare module '*?raw' {
  const text: string;
  export default text;
}
