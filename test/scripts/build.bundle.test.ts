// Guard rails on what js-compute is handed: a bundle that still imports a Node built-in (or any
// module outside fastly:*) compiles to Wasm and then fails on the first request at the edge.
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { bundleOptions } from '../../scripts/build.js';

describe('the Wasm bundle', () => {
  it('imports nothing but fastly:* modules and stays within its size budget', async () => {
    const out = await build({ ...bundleOptions, write: false, metafile: true, logLevel: 'silent' });
    const imports = Object.values(out.metafile!.outputs).flatMap((o) => o.imports.map((i) => i.path));
    expect(imports.filter((path) => !path.startsWith('fastly:'))).toEqual([]);
    // ~299 KB today, minified (names too): the eighteen languages' catalogs about half of it as UTF-8,
    // jose about 20 KB (only for an operator's JWT identity), mustache, the message parser and plural
    // rules, the pages and the page's solver as text, the room itself; more means something heavy
    // slipped in, and every byte of code is heap the runtime collects after each request.
    expect(out.outputFiles![0]!.contents.byteLength).toBeLessThan(310_000);
  });
});
