// The `[local_server]` JSON store files: one flat object of string values, the shape Viceroy (and the
// project's host) accepts for config stores and secret stores alike.
import { randomBytes } from 'node:crypto';
import { chmod, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export type StoreData = Record<string, string>;

/** A store file that cannot be used; the message names the file and the entry at fault. */
export class StoreFileError extends Error {
  override name = 'StoreFileError';
}

/** The operator's settings store (local/config.json) can always be made again from the demo settings. */
const remedy = (file: string): string =>
  basename(file) === 'config.json' && basename(dirname(file)) === 'local'
    ? '; fix it, or go back to the demo settings: rm local/config.json && npm run tune'
    : '';

export async function readStore(file: string): Promise<StoreData> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new StoreFileError(`cannot read ${file}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new StoreFileError(`${file} is not valid JSON: ${(error as Error).message}${remedy(file)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new StoreFileError(`${file} must hold one JSON object of string values${remedy(file)}`);
  }
  for (const [key, value] of Object.entries(parsed)) {
    // Viceroy refuses the whole manifest when one value is not a string, so say which one first.
    if (typeof value !== 'string')
      throw new StoreFileError(`${file}: entry "${key}" must be a string, not ${JSON.stringify(value)}`);
  }
  return parsed as StoreData;
}

/** Null when the file does not exist; every other problem is an error. */
export async function readStoreIfExists(file: string): Promise<StoreData | null> {
  try {
    return await readStore(file);
  } catch (error) {
    if (error instanceof StoreFileError && /ENOENT/.test(error.message)) return null;
    throw error;
  }
}

/**
 * Writes to a temporary file beside the target and renames it over the target. The running host
 * re-reads the file when it changes; a rename means it sees the old file or the new one, never half
 * of one (a plain writeFile truncates first, and a reader in between sees an empty store).
 */
export async function writeStoreAtomic(file: string, data: StoreData, mode = 0o644): Promise<void> {
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temp, `${JSON.stringify(data, null, 2)}\n`, { mode });
    await chmod(temp, mode); // writeFile's mode is filtered by the umask
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** The store after these writes ('' removes a key); the store given is left as it is. */
export function applyWrites(current: StoreData, writes: Record<string, string>): StoreData {
  const next: StoreData = { ...current };
  for (const [key, value] of Object.entries(writes)) {
    if (value === '') delete next[key];
    else next[key] = value;
  }
  return next;
}
