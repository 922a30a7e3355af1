// Where the project's files are: the local store files, the built room, the host and its guest apps.
// Tests and careful operators point the scripts at a copy of the store files through environment
// variables, so a test never touches the files a running `npm start` is serving.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** `waiting_room_config` for the local host (made from local/config.example.json: lib/local-store.ts). */
export function configFile(override?: string): string {
  return resolve(override ?? process.env.WR_CONFIG_FILE ?? join(repoRoot, 'local', 'config.json'));
}

/** `waiting_room_keys` for the local host (generated, never committed). */
export function keysFile(override?: string): string {
  return resolve(override ?? process.env.WR_KEYS_FILE ?? join(repoRoot, 'local', 'keys.json'));
}

/** `waiting_room_pages` for the local host (`npm run pages` writes it; `npm run build` too). */
export function pagesFile(override?: string): string {
  return resolve(override ?? process.env.WR_PAGES_FILE ?? join(repoRoot, 'local', 'pages.json'));
}
export const wasmFile = join(repoRoot, 'bin', 'main.wasm');
export const hostBin = join(repoRoot, 'host', 'bin', 'compute-host');
/** One of the host's guest apps (host/fixtures), which the host's tests and its bench run. */
export const hostFixture = (name: string): string => join(repoRoot, 'host', 'fixtures', name);
