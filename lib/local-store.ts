// The local settings store, local/config.json, belongs to the operator: `npm start -- --control`,
// `npm run tune`, `npm run keys` and the controller write it. So git does not track it: a tracked file
// showed every tuned value as a change to commit, and an event's settings left in it kept saying
// "The sale has ended" long after the sale. The demo settings are committed as
// local/config.example.json, and the first tool that needs the store copies them; deleting
// local/config.json goes back to them.
import { constants, copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { storeWrites } from '../src/core/settings/index.js';
import { decodeBase64, isTokenKid, MIN_KEY_BYTES } from '../src/core/tokens/index.js';
import { applyWrites, type StoreData } from './json-store.js';
import { readRotations } from './key-rotations.js';
import { configFile, keysFile, repoRoot } from './paths.js';
import { roomSettings } from './room-store.js';

/** The committed demo settings. */
export const exampleConfigFile = join(repoRoot, 'local', 'config.example.json');
/** The repository's own local settings store (not tracked by git). */
export const defaultConfigFile = join(repoRoot, 'local', 'config.json');

const shown = (file: string): string => relative(repoRoot, file) || file;

/**
 * Makes `file` a copy of `example` when `file` does not exist; true when it did. An existing file is
 * never replaced, even one another process made a moment ago.
 */
export function ensureConfigFrom(
  file: string,
  example: string,
  signing?: { keys: string; say: (line: string) => void },
): boolean {
  if (existsSync(file)) return false;
  if (!existsSync(example)) {
    throw new Error(
      `${shown(file)} does not exist and the demo settings it is made from, ${shown(example)}, are missing too; restore them: git checkout -- ${shown(example)}`,
    );
  }
  try {
    copyFileSync(example, file, constants.COPYFILE_EXCL);
    if (signing !== undefined) adoptSigningKey(file, signing.keys, signing.say);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * A fresh copy of the demo settings names their key (key1); after a rotation the key file may hold
 * another one only. The copy then signs with the key the last rotation chose, or the key file's one
 * signing key; with several and no record, it is left for npm start to name the choices.
 */
function adoptSigningKey(file: string, keysPath: string, say: (line: string) => void): void {
  if (!existsSync(keysPath)) return;
  let keys: StoreData;
  let store: StoreData;
  try {
    keys = JSON.parse(readFileSync(keysPath, 'utf8')) as StoreData;
    store = JSON.parse(readFileSync(file, 'utf8')) as StoreData;
  } catch {
    return;
  }
  const usable = Object.keys(keys).filter(
    (kid) => isTokenKid(kid) && (decodeBase64(keys[kid] ?? '')?.length ?? 0) >= MIN_KEY_BYTES,
  );
  const named = roomSettings(store, null).config.activeKey;
  const last = readRotations(keysPath).active;
  const pick =
    last !== null && usable.includes(last)
      ? last
      : usable.includes(named)
        ? named
        : usable.length === 1
          ? usable[0]!
          : null;
  if (pick === null || pick === named) return;
  writeFileSync(
    file,
    `${JSON.stringify(applyWrites(store, storeWrites(store, null, { active_key: pick })), null, 2)}\n`,
  );
  say(
    `active_key "${named}" -> "${pick}" in ${shown(file)}: the signing key in ${shown(keysPath)}${last === pick ? ' (its last rotation)' : ''}`,
  );
}

/**
 * The settings file a tool reads and writes, found as `configFile` finds it (argument, WR_CONFIG_FILE,
 * local/config.json). The repository's own local/config.json is made from the demo settings when it
 * does not exist yet; a file named elsewhere is left to its owner.
 */
export function localConfigFile(
  override?: string,
  say: (line: string) => void = (line) => console.error(`[local] ${line}`),
): string {
  const file = configFile(override);
  if (file === defaultConfigFile && ensureConfigFrom(file, exampleConfigFile, { keys: keysFile(), say })) {
    say(`made ${shown(file)} from ${shown(exampleConfigFile)} (the demo settings); delete it to go back to them`);
  }
  return file;
}
