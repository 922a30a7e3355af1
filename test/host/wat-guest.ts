// Hand-written guests for the host suites. js-compute apps reach only the hostcalls its JavaScript
// API exposes (3.46 has none for bot detection); a module written in the WebAssembly text format
// calls any hostcall directly, with the arguments a test wants, and shows the raw status.
//
// What such a module needs to run on compute-host (host/src/cli.ts, memory-rewrite.ts, worker/):
// - exactly one memory of its own, exported as `memory`: the host rewrites the module to import it
//   (so workers can reuse one) and reads and writes guest memory through that export;
// - an exported `_start`, called once per request;
// - no WASI imports: the host supplies only what the module imports, so a guest that never prints
//   or reads the clock declares nothing from `wasi_snapshot_preview1`.
// Hostcalls are imported by their witx module and name (Viceroy's compute-at-edge.witx), with
// pointers and handles as i32 and the FastlyStatus as the i32 result, e.g.
//   (import "fastly_http_req" "body_downstream_get" (func $downstream (param i32 i32) (result i32)))
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import wabt from 'wabt';

let toolkit: ReturnType<typeof wabt> | undefined;

/** Compiles WebAssembly text to a binary module; a syntax or validation error names line and column. */
export async function compileWat(text: string, filename = 'guest.wat'): Promise<Uint8Array> {
  const { parseWat } = await (toolkit ??= wabt());
  const module = parseWat(filename, text);
  try {
    module.resolveNames();
    module.validate();
    return module.toBinary({}).buffer;
  } finally {
    module.destroy();
  }
}

export interface WatGuest {
  /** Path of the compiled module, for `startHost({ wasm })`. */
  wasm: string;
  /** Deletes the temporary directory holding it. */
  remove(): Promise<void>;
}

/** Compiles a guest and writes it as `<name>.wasm` in a fresh temporary directory. */
export async function watGuest(text: string, name = 'guest'): Promise<WatGuest> {
  const binary = await compileWat(text, `${name}.wat`);
  const dir = await mkdtemp(path.join(tmpdir(), 'wr-wat-'));
  const wasm = path.join(dir, `${name}.wasm`);
  await writeFile(wasm, binary);
  return { wasm, remove: () => rm(dir, { recursive: true, force: true }) };
}
