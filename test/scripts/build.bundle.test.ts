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
    // ~440 KB today, minified (names too): the 38 languages' catalogs about 240 KB of it as UTF-8
    // (English as an object, each other one string of its messages that a sandbox parses on first use:
    // about 112 KB for the twenty languages added to the eighteen), jose about 20 KB (only for an
    // operator's JWT identity), mustache, the message parser and plural rules, the pages and the page's
    // solver as text (the waiting page's turn in a background tab, its script and four messages in every
    // language), the room itself (its public status, docs/status.md, about 4 KB; priority lanes,
    // docs/lanes.md, about 5.5 KB; the waiting page's A/B variants, pages/README.md, about 2.5 KB); more
    // means something heavy slipped in, and every byte of code is heap the runtime collects after each request.
    expect(out.outputFiles![0]!.contents.byteLength).toBeLessThan(455_000);
  });
});
