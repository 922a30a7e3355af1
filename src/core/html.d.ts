// esbuild (loader: text) and vitest (plugin in vitest.config.ts) both turn an imported .html file into its text.
declare module '*.html' {
  const text: string;
  export default text;
}
