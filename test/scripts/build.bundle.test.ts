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
    // ~410 KB today (jose 40 KB, mustache 15 KB, the pages, the room: its routing and rules about 45 KB
    // of it, the eighteen languages' catalogs about 125 KB as UTF-8, their parser and plural rules 31 KB,
    // unminified); much more means something heavy slipped in.
    expect(out.outputFiles![0]!.contents.byteLength).toBeLessThan(450_000);
  });
});
