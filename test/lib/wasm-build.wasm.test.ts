import { watch } from 'node:fs';
import { mkdtemp, open, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWasm, cachedWasmPath } from '../../lib/wasm-build.js';

// The fixture cache is shared by every suite and vitest worker, so its two promises are tested
// directly: concurrent builds of one source agree, and an unchanged source is not rebuilt.
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'wr-wasm-build-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('buildWasm', () => {
  it('builds one source in two concurrent calls into one valid cached module, then reuses it', async () => {
    const source = path.join(dir, 'cache-probe.js');
    await writeFile(source, "addEventListener('fetch', (e) => e.respondWith(new Response('cache probe')));\n");
    // Start from a cold cache for this source, so the concurrent path is the one exercised.
    await rm(await cachedWasmPath(source), { force: true });

    const [first, second] = await Promise.all([buildWasm(source), buildWasm(source)]);
    expect(second).toBe(first);
    const built = await stat(first);
    const header = Buffer.alloc(4);
    const handle = await open(first, 'r');
    await handle.read(header, 0, 4, 0);
    await handle.close();
    expect(header.toString('binary')).toBe('\0asm');

    expect(await buildWasm(source)).toBe(first);
    expect((await stat(first)).mtimeMs).toBe(built.mtimeMs);
    const leftovers = (await readdir(path.dirname(first))).filter((name) => name.startsWith(`.tmp-${process.pid}-`));
    expect(leftovers).toEqual([]);
    await rm(first, { force: true });
  });

  it('builds two different apps from one directory at the same time', async () => {
    // js-compute-runtime names its first intermediate file the same for every app; CI once saw one
    // fixture build move another's bundle away when two vitest workers built host/fixtures.
    const sources = ['twin-a', 'twin-b'].map((name) => path.join(dir, `${name}.js`));
    await Promise.all(
      sources.map((source, i) =>
        writeFile(source, `addEventListener('fetch', (e) => e.respondWith(new Response('twin ${i}')));\n`),
      ),
    );
    for (const source of sources) await rm(await cachedWasmPath(source), { force: true });

    // The race is narrow, so the test watches for its cause: a build writing into the apps' directory.
    const written = new Set<string>();
    const watcher = watch(dir, (_event, name) => {
      if (name !== null) written.add(name);
    });
    let built: string[];
    try {
      built = await Promise.all(sources.map((source) => buildWasm(source)));
    } finally {
      watcher.close();
    }
    expect(new Set(built).size).toBe(2);
    for (const wasm of built) expect((await stat(wasm)).size).toBeGreaterThan(1_000_000);
    expect([...written]).toEqual([]);
    for (const wasm of built) await rm(wasm, { force: true });
  });

  it('keys the cache by the source text', async () => {
    const a = path.join(dir, 'same-name.js');
    await writeFile(a, '// version one\n');
    const one = await cachedWasmPath(a);
    await writeFile(a, '// version two\n');
    expect(await cachedWasmPath(a)).not.toBe(one);
  });

  it('names the source and the compiler message when the app does not compile', async () => {
    const broken = path.join(dir, 'broken.js');
    await writeFile(broken, "addEventListener('fetch', (e) => {\n");
    await expect(buildWasm(broken)).rejects.toThrow(/js-compute-runtime failed for .*broken\.js/);
    await expect(stat(await cachedWasmPath(broken))).rejects.toThrow();
  });
});
