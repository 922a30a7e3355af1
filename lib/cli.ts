// What every command-line tool here needs: knowing whether it was started or imported, and an error
// that means "the command line is wrong" (the tool prints its usage and exits 2).
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** True when the module is the script node was started with (not imported by a test or another script). */
export function isMain(moduleUrl: string): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return pathToFileURL(realpathSync(entry)).href === moduleUrl;
  } catch {
    return false;
  }
}

/** A wrong command line: an unknown flag, a missing or malformed value. */
export class UsageError extends Error {
  override name = 'UsageError';
}
