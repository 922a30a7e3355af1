// When each signing key stopped signing: `npm run keys -- rotate` records it beside the key file
// (local/keys.rotations.json for local/keys.json), since the key store holds nothing but key ids and
// their bytes. `remove` reads it to refuse a key whose cookies are still live, and a fresh
// local/config.json (made from the demo settings) reads it to sign with the key the last rotation chose.
import { readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface KeyRotations {
  /** The key the last rotation made active_key. */
  active: string | null;
  /** Key id -> when it stopped signing (ISO 8601). */
  retired: Record<string, string>;
}

export function rotationsFile(keysPath: string): string {
  return join(dirname(keysPath), `${basename(keysPath).replace(/\.json$/, '')}.rotations.json`);
}

/** The record, or an empty one when there is none or it cannot be read (it is a convenience, never a gate on its own). */
export function readRotations(keysPath: string): KeyRotations {
  try {
    const value = JSON.parse(readFileSync(rotationsFile(keysPath), 'utf8')) as Partial<KeyRotations>;
    const retired: Record<string, string> = {};
    for (const [kid, at] of Object.entries(value.retired ?? {}))
      if (typeof at === 'string' && Number.isFinite(Date.parse(at))) retired[kid] = at;
    return { active: typeof value.active === 'string' ? value.active : null, retired };
  } catch {
    return { active: null, retired: {} };
  }
}

async function write(keysPath: string, r: KeyRotations): Promise<void> {
  const file = rotationsFile(keysPath);
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(r, null, 2)}\n`);
  await rename(temp, file);
}

export async function recordRotation(keysPath: string, from: string, to: string, nowMs: number): Promise<void> {
  const r = readRotations(keysPath);
  await write(keysPath, { active: to, retired: { ...r.retired, [from]: new Date(nowMs).toISOString() } });
}

export async function forgetKey(keysPath: string, kid: string): Promise<void> {
  const r = readRotations(keysPath);
  if (!Object.hasOwn(r.retired, kid) && r.active !== kid) return;
  const retired = { ...r.retired };
  delete retired[kid];
  await write(keysPath, { active: r.active === kid ? null : r.active, retired });
}
