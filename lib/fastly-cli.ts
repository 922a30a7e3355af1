// The Fastly CLI: where its binary is (`npm start`, `npm run control`), and running it for the
// production side of `tune`, `keys` and `event` (a blocking runner: a tool does one thing at a time)
// and for the controller (an async runner: its event loop also serves the log source and the
// dashboard). Every command is printed before it runs, so an operator can see (and with --dry-run,
// copy) exactly what changes.
import { spawn, spawnSync } from 'node:child_process';
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
        throw new Error(
          `${commandName(args)} failed (exit ${result.status}): ${(result.stderr || result.stdout).trim()}`,
        );
      }
      return result.stdout;
    },
  };
}

export interface AsyncFastlyRunner {
  readonly dryRun: boolean;
  /** Runs `fastly ...args` as a child process; resolves its stdout (null on a dry run); rejects with its stderr, or after the timeout. */
  run(args: readonly string[], options?: { stdin?: string; stdinNote?: string }): Promise<string | null>;
}

/** Every CLI call of the async runner is given this long, ms, then stopped and called failed. */
export const CLI_TIMEOUT_MS = 30_000;

/** The Fastly CLI as an async child process, for the controller: its event loop never waits on it. */
export function fastlyRunnerAsync(
  dryRun: boolean,
  print: (line: string) => void,
  o: { bin?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): AsyncFastlyRunner {
  const bin = o.bin ?? fastlyBin;
  const timeoutMs = o.timeoutMs ?? CLI_TIMEOUT_MS;
  return {
    dryRun,
    run(args, options = {}) {
      print(`${dryRun ? '' : '$ '}${formatCommand(args, options.stdinNote)}`);
      if (dryRun) return Promise.resolve(null);
      return new Promise((resolve, reject) => {
        const what = commandName(args);
        const child = spawn(bin, [...args], { stdio: ['pipe', 'pipe', 'pipe'], env: o.env ?? process.env });
        let stdout = '';
        let stderr = '';
        let done = false;
        const finish = (error: Error | null): void => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          if (error === null) resolve(stdout);
          else reject(error);
        };
        const timer = setTimeout(() => {
          child.kill('SIGTERM');
          finish(
            new Error(
              `${what} did not answer within ${timeoutMs / 1000} s: stopped (is the API reachable? check with: fastly whoami)`,
            ),
          );
        }, timeoutMs);
        child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
        child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
        child.on('error', (error) => finish(new Error(`could not run the Fastly CLI (${bin}): ${error.message}`)));
        child.on('close', (code, signal) =>
          finish(
            code === 0
              ? null
              : new Error(
                  `${what} failed (${code === null ? `signal ${signal}` : `exit ${code}`}): ${(stderr || stdout).trim()}`,
                ),
          ),
        );
        child.stdin.on('error', () => {});
        child.stdin.end(options.stdin ?? '');
      });
    },
  };
}

/** A command as a failure names it: `fastly` and its words up to the first flag (`fastly service resource-link list`). */
export function commandName(args: readonly string[]): string {
  const at = args.findIndex((a) => a.startsWith('-'));
  return ['fastly', ...(at === -1 ? args : args.slice(0, at))].join(' ');
}

/** The Fastly CLI's arguments that list a service's resource links (in its active version), as JSON. */
export const resourceLinkArgs = (serviceId: string): string[] => [
  'service',
  'resource-link',
  'list',
  '--service-id',
  serviceId,
  '--version',
  'active',
  '--json',
];

/**
 * The id of the store a service links under `storeName`. Resource links are per service, so this
 * finds the right store even when the account holds several stores of that name.
 */
export function resolveStoreId(fastly: FastlyRunner, serviceId: string, storeName: string): string {
  const out = fastly.run(resourceLinkArgs(serviceId));
  return out === null ? `<id of ${storeName}>` : storeIdFromLinks(out, serviceId, storeName);
}

/** resolveStoreId through the async runner: the event loop goes on while the CLI runs. */
export async function resolveStoreIdAsync(
  fastly: AsyncFastlyRunner,
  serviceId: string,
  storeName: string,
): Promise<string> {
  const out = await fastly.run(resourceLinkArgs(serviceId));
  return out === null ? `<id of ${storeName}>` : storeIdFromLinks(out, serviceId, storeName);
}

/** The id of the store linked as `storeName` in `fastly service resource-link list --json`'s output. */
export function storeIdFromLinks(out: string, serviceId: string, storeName: string): string {
  let links: unknown;
  try {
    links = JSON.parse(out);
  } catch {
    throw new Error(`could not read the resource links of service ${serviceId} (not JSON); pass the store id yourself`);
  }
  if (!Array.isArray(links))
    throw new Error(
      `could not read the resource links of service ${serviceId}: expected a JSON array of links (name, resource_id); pass the store id yourself`,
    );
  // The CLI prints go-fastly structs; accept either field spelling rather than pin one CLI version.
  for (const link of links) {
    const l = (link ?? {}) as Record<string, unknown>;
    const name = l.name ?? l.Name;
    const id = l.resource_id ?? l.ResourceID;
    if (name === storeName && typeof id === 'string') return id;
  }
  throw new Error(
    `service ${serviceId} has no store linked as "${storeName}" in its active version; pass the store id yourself`,
  );
}

/**
 * The items of a Config Store, as `fastly config-store-entry list --json` prints them (an array of
 * items) or the API answers (that array, or a page of it: `{"data": [...], "meta": {...}}`). JSON of
 * another shape is refused, naming what was expected: an empty store read from a wrong answer would
 * look like settings removed.
 */
export function parseStoreList(out: string): Record<string, string> {
  let items: unknown;
  try {
    items = JSON.parse(out);
  } catch {
    throw new Error(
      "could not read the Config Store's items: the answer is not JSON (expected an array of {item_key, item_value})",
    );
  }
  return storeItems(items);
}

/** The items of a parsed list answer; throws naming the shape expected. */
export function storeItems(items: unknown): Record<string, string> {
  const list = Array.isArray(items)
    ? items
    : items !== null && typeof items === 'object' && Array.isArray((items as { data?: unknown }).data)
      ? (items as { data: unknown[] }).data
      : null;
  if (list === null)
    throw new Error(
      `could not read the Config Store's items: expected an array of {item_key, item_value} (or {"data": [...]}), got ${describeJson(items)}`,
    );
  const store: Record<string, string> = {};
  // The CLI prints go-fastly structs; accept either field spelling rather than pin one CLI version.
  for (const item of list) {
    const i = (item ?? {}) as Record<string, unknown>;
    const key = i.item_key ?? i.key ?? i.Key;
    const value = i.item_value ?? i.value ?? i.Value;
    if (typeof key !== 'string' || typeof value !== 'string')
      throw new Error(
        `could not read the Config Store's items: expected each to have a string item_key and item_value, got ${describeJson(item)}`,
      );
    store[key] = value;
  }
  return store;
}

/** A short description of a JSON value for a message. */
export function describeJson(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}...` : text;
}

/**
 * One CLI call per store value written ('' deletes it): the CLI changes one item a call. A call that
 * fails stops the rest, and the error says which keys were written before it and which were not, and
 * how to finish: the store cannot be changed in one step through the CLI, so it is not rolled back.
 */
export function writeServiceValues(fastly: FastlyRunner, id: string, writes: Record<string, string>): void {
  const keys = Object.keys(writes);
  keys.forEach((key, i) => {
    const value = writes[key]!;
    try {
      if (value === '') fastly.run(['config-store-entry', 'delete', '--store-id', id, '--key', key]);
      else fastly.run(['config-store-entry', 'update', '--upsert', '--store-id', id, '--key', key, '--value', value]);
    } catch (error) {
      const message = (error as Error).message;
      if (keys.length === 1) throw error;
      const done = keys.slice(0, i);
      throw new Error(
        `${message}\n` +
          (done.length === 0
            ? `nothing was written to Config Store ${id} (${keys.join(', ')} left as they were)`
            : `Config Store ${id} is half-changed: written ${done.join(', ')}; not written ${keys.slice(i).join(', ')}. Run the same command again to finish (it writes every value again)`),
      );
    }
  });
}
