// The guest compiled as the host serves it: every function compiled at start-up (on V8's background
// threads), as Fastly compiles a package ahead of time. Compiled lazily, each function's first call
// would compile it on the worker's thread, inside the request's CPU time (a worker's first room
// request: 43 ms of CPU, not 10), and a guest near the 50 ms limit would cross it on its first request.
import { setFlagsFromString } from 'node:v8';
import { capMemory, importMemory, type MemoryLimits } from './memory-rewrite.js';

export interface CompiledGuest {
  module: WebAssembly.Module;
  /** The memory the module imports, when the rewrite could move it out (null: the module keeps its own). */
  memory: MemoryLimits | null;
}

/** Compiles the guest's bytes, its memory capped at `maxMemory` (imported, so a worker can reuse it, when the module allows). */
export async function compileGuest(original: Uint8Array, maxMemory: number): Promise<CompiledGuest> {
  setFlagsFromString('--no-wasm-lazy-compilation');
  const compile = (bytes: Uint8Array): Promise<WebAssembly.Module> =>
    WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>);
  let rewritten = importMemory(original, maxMemory, { dataToImage: true });
  let module: WebAssembly.Module;
  try {
    module = await compile(rewritten?.bytes ?? capMemory(original, maxMemory));
  } catch (err) {
    // Code that names data segments (memory.init, data.drop) needs them in the module.
    if (!rewritten?.limits.image) throw err;
    rewritten = importMemory(original, maxMemory);
    module = await compile(rewritten!.bytes);
  }
  return { module, memory: rewritten?.limits ?? null };
}
