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
