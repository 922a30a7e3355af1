// Shared by the script tests: a scratch copy of the local store files, and the console output of a
// script's main() as the operator would read it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, vi } from 'vitest';

export interface Scratch {
  dir: string;
  config: string;
  keys: string;
  cleanup(): void;
}

/** A temp dir with a config file, and WR_CONFIG_FILE / WR_KEYS_FILE pointing the scripts at it. */
export function scratch(config: Record<string, string>): Scratch {
  const dir = mkdtempSync(join(tmpdir(), 'wr-scripts-'));
  const files = { config: join(dir, 'config.json'), keys: join(dir, 'keys.json') };
  writeFileSync(files.config, `${JSON.stringify(config, null, 2)}\n`);
  const saved = { c: process.env.WR_CONFIG_FILE, k: process.env.WR_KEYS_FILE };
  process.env.WR_CONFIG_FILE = files.config;
  process.env.WR_KEYS_FILE = files.keys;
  return {
    dir,
    ...files,
    cleanup() {
      restore('WR_CONFIG_FILE', saved.c);
      restore('WR_KEYS_FILE', saved.k);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

export const readJson = (file: string): Record<string, string> =>
  JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;

/** Runs fn with console.log/error captured; returns what it printed and what it returned or threw. */
export async function captured<T>(
  fn: () => Promise<T>,
): Promise<{ out: string; err: string; result?: T; error?: Error }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  try {
    const result = await fn();
    return { out: out.join('\n'), err: err.join('\n'), result };
  } catch (e) {
    return { out: out.join('\n'), err: err.join('\n'), error: e as Error };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

/** Runs `tool` (tune's main) on `argv` and checks that it refused, leaving `config` as it was; returns what it said. */
export async function refusedBy(
  tool: (argv: string[]) => Promise<number>,
  config: string,
  argv: string[],
): Promise<string> {
  const before = readFileSync(config, 'utf8');
  const r = await captured(() => tool(argv));
  expect(r.result, r.out).toBe(1);
  expect(readFileSync(config, 'utf8')).toBe(before);
  return r.err;
}
