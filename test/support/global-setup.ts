// Once per `vitest run`, before any worker starts: the tools bundled for the suites that start them as
// processes (test/support/tool-bundles.ts), in a folder of this run's own, removed when the run ends.
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from '../../lib/paths.js';
import { BUNDLES_ENV, bundleTools } from './tool-bundles.js';

export default async function setup(): Promise<() => Promise<void>> {
  // Inside the repository, so the bundles find its node_modules as the sources do.
  const parent = path.join(repoRoot, 'build', 'test-tools');
  await mkdir(parent, { recursive: true });
  const dir = await mkdtemp(path.join(parent, 'run-'));
  await bundleTools(dir);
  process.env[BUNDLES_ENV] = dir;
  return () => rm(dir, { recursive: true, force: true });
}
