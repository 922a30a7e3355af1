// The Fastly CLI: where its binary is (`npm start`, `npm run control`), and running it for the
// production side of `tune`, `keys` and `event`. Every command is printed before it runs, so an
// operator can see (and with --dry-run, copy) exactly what changes.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { repoRoot } from './paths.js';

/**
 * The Fastly CLI binary itself, from @fastly/cli's per-platform package (the way @fastly/cli finds it).
 * Not node_modules/.bin/fastly: that is a Node wrapper that does not pass SIGTERM on, so stopping it
 * would leave the CLI and its local server running.
 */
export const fastlyBin = ((): string => {
  // A Fastly CLI installed elsewhere (and the tests' stand-in).
  if (process.env.WR_FASTLY_BIN) return process.env.WR_FASTLY_BIN;
  try {
    const pkg = createRequire(import.meta.url).resolve(`@fastly/cli-${process.platform}-${process.arch}/package.json`);
    const bin = join(dirname(pkg), process.platform === 'win32' ? 'fastly.exe' : 'fastly');
    if (existsSync(bin)) return bin;
  } catch {
    // fall through to the wrapper
  }
  return join(repoRoot, 'node_modules', '.bin', 'fastly');
})();

/** Quotes an argument for a POSIX shell only when it needs it, so printed commands stay readable. */
export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function formatCommand(args: readonly string[], stdinNote?: string): string {
  const line = ['fastly', ...args].map(shellQuote).join(' ');
  return stdinNote ? `${stdinNote} | ${line}` : line;
}

export interface FastlyRunner {
  readonly dryRun: boolean;
  /** Runs `fastly ...args`; returns its stdout, or null on a dry run. Throws with the CLI's stderr on failure. */
  run(args: readonly string[], options?: { stdin?: string; stdinNote?: string }): string | null;
}

export function fastlyRunner(dryRun: boolean, print: (line: string) => void = (l) => console.log(l)): FastlyRunner {
  return {
    dryRun,
    run(args, options = {}) {
      print(`${dryRun ? '' : '$ '}${formatCommand(args, options.stdinNote)}`);
      if (dryRun) return null;
      // FASTLY_API_TOKEN or a stored profile authenticates; nothing here touches credentials.
      const result = spawnSync(fastlyBin, [...args], {
        input: options.stdin ?? '',
        encoding: 'utf8',
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      if (result.error) throw new Error(`could not run the Fastly CLI (${fastlyBin}): ${result.error.message}`);
      if (result.status !== 0) {
        throw new Error(`fastly ${args.slice(0, 2).join(' ')} failed (exit ${result.status}): ${(result.stderr || result.stdout).trim()}`);
      }
      return result.stdout;
    },
  };
}

/**
 * The id of the store a service links under `storeName`. Resource links are per service, so this
 * finds the right store even when the account holds several stores of that name.
 */
export function resolveStoreId(fastly: FastlyRunner, serviceId: string, storeName: string): string {
  const out = fastly.run(['resource-link', 'list', '--service-id', serviceId, '--version', 'active', '--json']);
  if (out === null) return `<id of ${storeName}>`;
  let links: unknown;
  try {
    links = JSON.parse(out);
  } catch {
    throw new Error(`could not read the resource links of service ${serviceId}; pass the store id yourself`);
  }
  // The CLI prints go-fastly structs; accept either field spelling rather than pin one CLI version.
  for (const link of Array.isArray(links) ? links : []) {
    const l = link as Record<string, unknown>;
    const name = l.name ?? l.Name;
    const id = l.resource_id ?? l.ResourceID;
    if (name === storeName && typeof id === 'string') return id;
  }
  throw new Error(`service ${serviceId} has no store linked as "${storeName}" in its active version; pass the store id yourself`);
}

/** The items of a Config Store, as `fastly config-store-entry list --json` prints them. */
export function parseStoreList(out: string): Record<string, string> {
  let items: unknown;
  try {
    items = JSON.parse(out);
  } catch {
    throw new Error('could not read the Config Store\'s items (fastly config-store-entry list --json did not print JSON)');
  }
  const store: Record<string, string> = {};
  // The CLI prints go-fastly structs; accept either field spelling rather than pin one CLI version.
  for (const item of Array.isArray(items) ? items : []) {
    const i = item as Record<string, unknown>;
    const key = i.item_key ?? i.key ?? i.Key;
    const value = i.item_value ?? i.value ?? i.Value;
    if (typeof key === 'string' && typeof value === 'string') store[key] = value;
  }
  return store;
}

/** One CLI call per store value written ('' deletes it): the CLI changes one item a call. */
export function writeServiceValues(fastly: FastlyRunner, id: string, writes: Record<string, string>): void {
  for (const [key, value] of Object.entries(writes)) {
    if (value === '') fastly.run(['config-store-entry', 'delete', '--store-id', id, '--key', key]);
    else fastly.run(['config-store-entry', 'update', '--upsert', '--store-id', id, '--key', key, '--value', value]);
  }
}
