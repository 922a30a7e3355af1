// A Reader over a temp folder for the manifest's section tests, and the key a ConfigError names.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, Reader } from '../../../host/src/manifest/reader.js';

/** A reader whose relative paths resolve in a new temp folder holding `files`. */
export function readerWith(files: Record<string, string> = {}): Reader {
  const dir = mkdtempSync(join(tmpdir(), 'wr-manifest-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return new Reader(dir);
}

/** The key a parse names when it refuses its input, or 'accepted'. */
export function refusedKey(parse: () => unknown): string {
  try {
    parse();
    return 'accepted';
  } catch (error) {
    if (error instanceof ConfigError) return error.key;
    throw error;
  }
}
