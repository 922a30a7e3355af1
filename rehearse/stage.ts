// The project as `fastly compute publish` sees it, staged in a directory of its own: the repository's
// fastly.toml as it is, except its build step. Publish writes the new service's id into the fastly.toml
// it ran on; staged, that is the copy, and the checkout is never changed. The build step copies the
// module `npm run build` made (rebuilt first when the sources are newer), so publish packages exactly
// the Wasm a local run uses.
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { repoRoot, wasmFile } from '../lib/paths.js';
import { ensureRoomWasm } from '../lib/room-wasm.js';

export interface Stage {
  dir: string;
  /** The service id publish wrote into the staged fastly.toml (null before the first publish). */
  serviceId(): Promise<string | null>;
  /** Takes the service id out of the staged fastly.toml, as publish does when it undoes a new service. */
  forgetService(): Promise<void>;
  /** The package publish built: pkg/NAME.tar.gz. */
  packagePath: string;
  remove(): Promise<void>;
}

/** The staged fastly.toml: the repository's, with `[scripts] build` copying the built module in. */
export function stagedManifest(text: string, wasm: string): string {
  const build = /^build = .*$/m;
  if (!build.test(text)) throw new Error('fastly.toml has no [scripts] build line to stage');
  if (wasm.includes("'")) throw new Error(`the module's path holds a quote: ${wasm}`);
  const copy = `mkdir -p bin && cp '${wasm}' bin/main.wasm`;
  return text.replace(build, `build = ${JSON.stringify(copy)}`);
}

export async function stageProject(): Promise<Stage> {
  await ensureRoomWasm();
  const dir = await mkdtemp(join(tmpdir(), 'wr-rehearsal-project-'));
  const text = await readFile(join(repoRoot, 'fastly.toml'), 'utf8');
  const name = String((parse(text) as { name?: unknown }).name);
  await writeFile(join(dir, 'fastly.toml'), stagedManifest(text, wasmFile));
  await mkdir(join(dir, 'bin'), { recursive: true });
  await copyFile(wasmFile, join(dir, 'bin', 'main.wasm'));
  return {
    dir,
    packagePath: join(dir, 'pkg', `${name}.tar.gz`),
    async serviceId() {
      const toml = parse(await readFile(join(dir, 'fastly.toml'), 'utf8')) as { service_id?: unknown };
      return typeof toml.service_id === 'string' && toml.service_id !== '' ? toml.service_id : null;
    },
    async forgetService() {
      const file = join(dir, 'fastly.toml');
      await writeFile(file, (await readFile(file, 'utf8')).replace(/^service_id = .*\n/m, ''));
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
