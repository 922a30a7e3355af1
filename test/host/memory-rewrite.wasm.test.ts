// A worker reuses one linear memory across requests and, for the usual js-compute module, puts back
// only what the last guest changed from an image of the data segments (host/src/memory-rewrite.ts,
// guest/memory-pool.ts).
// Every request must still start from exactly what a fresh instance of the original module holds.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importMemory, WASM_PAGE } from '../../host/src/memory-rewrite.js';
import { startHost } from '../../lib/host-process.js';
import { hostFixture } from '../../lib/paths.js';
import { buildWasm } from '../../lib/wasm-build.js';

const MAX = 128 * 1024 * 1024;

/** Imports that satisfy a module without doing anything: enough to instantiate it. */
function stubImports(module: WebAssembly.Module, memory?: WebAssembly.Memory): WebAssembly.Imports {
  const imports: Record<string, Record<string, WebAssembly.ImportValue>> = {};
  for (const imp of WebAssembly.Module.imports(module)) {
    const value = imp.kind === 'memory' ? memory! : () => 0;
    (imports[imp.module] ??= {})[imp.name] = value;
  }
  return imports;
}

// Hand-assembled modules, section by section: [id, ...body] with the body's length filled in.
const section = (id: number, ...body: number[]): number[] => [id, body.length, ...body];
const wasm = (...sections: number[][]): Uint8Array =>
  new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...sections.flat()]);
const typeSection = section(1, 1, 0x60, 0, 0); // one type: [] -> []
const funcSection = section(3, 1, 0); // one function of that type
const memorySection = section(5, 1, 0, 1); // one memory, 1 page, no maximum
const exportStart = section(7, 1, 6, ...Buffer.from('_start'), 0, 0);
const abc = [0x61, 0x62, 0x63];

/** The ids of a module's sections, in order (all sizes here fit a LEB128 walk). */
function sectionIds(bytes: Uint8Array): number[] {
  const ids: number[] = [];
  let pos = 8;
  while (pos < bytes.length) {
    ids.push(bytes[pos]!);
    let size = 0;
    let shift = 0;
    let b: number;
    pos++;
    do {
      b = bytes[pos++]!;
      size += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    pos += size;
  }
  return ids;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'wr-memory-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the memory image', () => {
  it('holds exactly what a fresh instance of the original js-compute module starts with', async () => {
    const original = new Uint8Array(await readFile(await buildWasm(hostFixture('hello.js'))));
    const rewritten = importMemory(original, MAX, { dataToImage: true });
    expect(rewritten?.limits.image).toBeInstanceOf(SharedArrayBuffer);

    const fresh = new WebAssembly.Instance(
      await WebAssembly.compile(original),
      stubImports(await WebAssembly.compile(original)),
    );
    const freshBytes = new Uint8Array((fresh.exports.memory as WebAssembly.Memory).buffer);
    const image = new Uint8Array(rewritten!.limits.image!);
    expect(image.length).toBe(rewritten!.limits.initial * WASM_PAGE);
    expect(Buffer.compare(Buffer.from(image), Buffer.from(freshBytes))).toBe(0);

    // And the module that no longer carries the segments writes nothing over a memory it is given.
    expect(sectionIds(rewritten!.bytes)).not.toContain(11);
    const stripped = await WebAssembly.compile(rewritten!.bytes as Uint8Array<ArrayBuffer>);
    const memory = new WebAssembly.Memory({ initial: rewritten!.limits.initial, maximum: rewritten!.limits.maximum });
    new WebAssembly.Instance(stripped, stubImports(stripped, memory));
    expect(new Uint8Array(memory.buffer).every((b) => b === 0)).toBe(true);
  });

  it('leaves segments it does not understand in the module (a passive segment)', async () => {
    const passive = wasm(
      typeSection,
      funcSection,
      memorySection,
      exportStart,
      section(10, 1, 2, 0, 0x0b),
      section(11, 1, 1, 3, ...abc),
    );
    const rewritten = importMemory(passive, MAX, { dataToImage: true });
    expect(rewritten?.limits.image).toBeNull();
    // Still valid, with its data section, so memory.init would find the segment.
    const module = await WebAssembly.compile(rewritten!.bytes as Uint8Array<ArrayBuffer>);
    expect(WebAssembly.Module.imports(module)).toContainEqual({
      module: 'compute_host',
      name: 'memory',
      kind: 'memory',
    });
    expect(sectionIds(rewritten!.bytes)).toContain(11);
  });
});

describe('serving', () => {
  // That every request starts from the original memory (a global set by one request is unset in
  // the next) is test/host/http.wasm.test.ts's "fresh instance" test.
  it('still loads a module whose code drops a data segment (it keeps its segments)', async () => {
    // An active segment at 16, a data count, and _start doing `data.drop 0`: moving the segments out
    // would leave the drop naming a segment that no longer exists, so the host keeps them in.
    const dropping = wasm(
      typeSection,
      funcSection,
      memorySection,
      exportStart,
      section(12, 1),
      section(10, 1, 5, 0, 0xfc, 0x09, 0, 0x0b),
      section(11, 1, 0, 0x41, 16, 0x0b, 3, ...abc),
    );
    await WebAssembly.compile(dropping as Uint8Array<ArrayBuffer>); // the original is valid
    const file = path.join(dir, 'drop.wasm');
    await writeFile(file, dropping);
    const host = await startHost({ wasm: file });
    try {
      // It loaded and ran: this guest sends no response, which the host reports as a server error.
      const res = await fetch(`${host.url}/`);
      expect(res.status).toBeGreaterThanOrEqual(500);
      expect(host.errors().join('\n')).not.toMatch(/cannot load/);
    } finally {
      await host.stop();
    }
  });
});
