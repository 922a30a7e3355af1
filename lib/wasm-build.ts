import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { compileWasm } from './js-compute.js';
import { repoRoot } from './paths.js';

const cacheDir = path.join(repoRoot, 'node_modules', '.cache', 'wr-wasm');

let jsComputeVersion: string | undefined;
function computeVersion(): string {
  if (jsComputeVersion === undefined) {
    // The package's `exports` hide package.json, so it is read from disk.
    const file = path.join(repoRoot, 'node_modules', '@fastly', 'js-compute', 'package.json');
    jsComputeVersion = (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  }
  return jsComputeVersion;
}

async function exists(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

export interface BuildOptions {
  /** Extra flags for js-compute-runtime (part of the cache key). */
  flags?: string[];
}

// One build per output within a process: two js-compute-runtime runs on one source at once can trip
// over each other's intermediate files (seen as a rare early failure under a loaded full run).
const inFlight = new Map<string, Promise<string>>();

/**
 * Compiles one js-compute app (a single JS file using `fastly:*` modules) to Wasm and returns the
 * path of the module. The result is keyed by the source text, the flags and the js-compute version,
 * so a changed fixture or an upgraded runtime rebuilds while an unchanged one costs a hash.
 */
export async function buildWasm(sourceFile: string, options: BuildOptions = {}): Promise<string> {
  const out = await cachedWasmPath(sourceFile, options);
  if (await exists(out)) return out;
  let build = inFlight.get(out);
  if (build === undefined) {
    build = compile(sourceFile, out, options.flags ?? []).finally(() => inFlight.delete(out));
    inFlight.set(out, build);
  }
  return build;
}

async function compile(sourceFile: string, out: string, flags: string[]): Promise<string> {
  await mkdir(cacheDir, { recursive: true });
  // Two vitest workers may build the same fixture at once: each writes its own temporary file and
  // the rename makes whichever finishes last the cached copy; both are identical, and a reader never
  // sees a half-written module.
  const tmp = path.join(cacheDir, `.tmp-${process.pid}-${Math.random().toString(36).slice(2)}.wasm`);
  try {
    await compileWasm(sourceFile, tmp, { flags });
    await rename(tmp, out);
  } catch (error) {
    await rm(tmp, { force: true });
    throw new Error(
      `js-compute-runtime failed for ${sourceFile}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return out;
}

/** Where `buildWasm` keeps the module for this source text, flags and js-compute version. */
export async function cachedWasmPath(sourceFile: string, options: BuildOptions = {}): Promise<string> {
  const flags = options.flags ?? [];
  const source = await readFile(sourceFile);
  const key = createHash('sha256')
    .update(computeVersion())
    .update('\0')
    .update(flags.join('\0'))
    .update('\0')
    .update(source)
    .digest('hex')
    .slice(0, 24);
  return path.join(cacheDir, `${path.basename(sourceFile, path.extname(sourceFile))}-${key}.wasm`);
}
