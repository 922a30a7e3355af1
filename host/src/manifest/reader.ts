// What every section of `[local_server]` shares: the error that names its key, and the reader of
// the files a section points at (each file is watched for live reloads).
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * What tells one state of a file from the next: mtime, size and inode, "missing" when it is not
 * there. Taken before the file is read, so a change made while (or just after) it is read still
 * differs. The inode tells apart two same-size versions written by rename (as editors and the test
 * harness do) within one tick of the file system's clock, which mtime alone cannot; a same-size
 * rewrite in place within one tick stays invisible.
 */
export function fileVersion(stats: { mtimeMs: number; size: number; ino: number } | undefined): string {
  return stats === undefined || (stats.mtimeMs === 0 && stats.size === 0)
    ? 'missing'
    : `${stats.mtimeMs}:${stats.size}:${stats.ino}`;
}

export function currentVersion(file: string): string {
  try {
    return fileVersion(statSync(file));
  } catch {
    return 'missing';
  }
}

export class ConfigError extends Error {
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(`${key}: ${message}`);
    this.name = 'ConfigError';
  }
}

export type Table = Record<string, unknown>;

export const isTable = (v: unknown): v is Table => typeof v === 'object' && v !== null && !Array.isArray(v);

// Fastly's production defaults; Viceroy only knows the last two, connect is our extension.

export class Reader {
  readonly files: string[] = [];
  readonly versions = new Map<string, string>();
  constructor(private readonly baseDir: string) {}

  path(key: string, value: unknown): string {
    if (typeof value !== 'string' || value.trim() === '') throw new ConfigError(key, 'expected a non-empty file path');
    const full = resolve(this.baseDir, value);
    this.files.push(full);
    if (!this.versions.has(full)) this.versions.set(full, currentVersion(full));
    return full;
  }

  bytes(key: string, value: unknown): Uint8Array {
    const file = this.path(key, value);
    try {
      return new Uint8Array(readFileSync(file));
    } catch (err) {
      throw new ConfigError(key, `cannot read ${file}: ${(err as Error).message}`);
    }
  }

  text(key: string, value: unknown): string {
    return Buffer.from(this.bytes(key, value)).toString('utf8');
  }

  json(key: string, value: unknown): unknown {
    const text = this.text(key, value);
    try {
      return JSON.parse(text);
    } catch (err) {
      throw new ConfigError(key, `${this.files.at(-1)} is not valid JSON: ${(err as Error).message}`);
    }
  }
}
