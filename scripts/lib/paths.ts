// Where the local store files live. Tests and careful operators point the scripts at a copy through
// environment variables, so a test never touches the files a running `npm start` is serving.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** `waiting_room_config` for the local host (committed demo settings). */
export function configFile(override?: string): string {
  return resolve(override ?? process.env.WR_CONFIG_FILE ?? join(repoRoot, 'local', 'config.json'));
}

/** `waiting_room_keys` for the local host (generated, never committed). */
export function keysFile(override?: string): string {
  return resolve(override ?? process.env.WR_KEYS_FILE ?? join(repoRoot, 'local', 'keys.json'));
}

export const pagesFile = join(repoRoot, 'local', 'pages.json');
export const wasmFile = join(repoRoot, 'bin', 'main.wasm');
export const hostBin = join(repoRoot, 'host', 'bin', 'compute-host');
/**
 * The Fastly CLI binary itself, from @fastly/cli's per-platform package (the way @fastly/cli finds it).
 * Not node_modules/.bin/fastly: that is a Node wrapper that does not pass SIGTERM on, so stopping it
 * would leave the CLI and its local server running.
 */
export const fastlyBin = ((): string => {
  // A Fastly CLI installed elsewhere (and the tests' stand-in).
  if (process.env.WR_FASTLY_BIN) return process.env.WR_FASTLY_BIN;
  try {
    const pkg = createRequire(import.meta.url).resolve(`@fastly/cli-${process.platform}-${process.arch}/package.json`);
    const bin = join(dirname(pkg), process.platform === 'win32' ? 'fastly.exe' : 'fastly');
    if (existsSync(bin)) return bin;
  } catch {
    // fall through to the wrapper
  }
  return join(repoRoot, 'node_modules', '.bin', 'fastly');
})();
