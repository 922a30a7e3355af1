// The local settings store, local/config.json, belongs to the operator: `npm start -- --control`,
// `npm run tune`, `npm run keys` and the controller write it. So git does not track it: a tracked file
// showed every tuned value as a change to commit, and an event's settings left in it kept saying
// "The sale has ended" long after the sale. The demo settings are committed as
// local/config.example.json, and the first tool that needs the store copies them; deleting
// local/config.json goes back to them.
import { constants, copyFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { configFile, repoRoot } from './paths.js';

/** The committed demo settings. */
export const exampleConfigFile = join(repoRoot, 'local', 'config.example.json');
/** The repository's own local settings store (not tracked by git). */
export const defaultConfigFile = join(repoRoot, 'local', 'config.json');

const shown = (file: string): string => relative(repoRoot, file) || file;

/**
 * Makes `file` a copy of `example` when `file` does not exist; true when it did. An existing file is
 * never replaced, even one another process made a moment ago.
 */
export function ensureConfigFrom(file: string, example: string): boolean {
  if (existsSync(file)) return false;
  if (!existsSync(example)) {
    throw new Error(`${shown(file)} does not exist and the demo settings it is made from, ${shown(example)}, are missing too; restore them: git checkout -- ${shown(example)}`);
  }
  try {
    copyFileSync(example, file, constants.COPYFILE_EXCL);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * The settings file a tool reads and writes, found as `configFile` finds it (argument, WR_CONFIG_FILE,
 * local/config.json). The repository's own local/config.json is made from the demo settings when it
 * does not exist yet; a file named elsewhere is left to its owner.
 */
export function localConfigFile(override?: string, say: (line: string) => void = (line) => console.error(`[local] ${line}`)): string {
  const file = configFile(override);
  if (file === defaultConfigFile && ensureConfigFrom(file, exampleConfigFile)) {
    say(`made ${shown(file)} from ${shown(exampleConfigFile)} (the demo settings); delete it to go back to them`);
  }
  return file;
}
