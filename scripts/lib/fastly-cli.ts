// Running the Fastly CLI for the production side of `tune` and `keys`. Every command is printed
// before it runs, so an operator can see (and with --dry-run, copy) exactly what changes.
import { spawnSync } from 'node:child_process';
import { fastlyBin } from './paths.js';

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
