// What every command-line tool here needs: knowing whether it was started or imported, an error that
// means "the command line is wrong", and one way to run as the entry point: `--help` prints the usage
// and exits 0; a wrong command line prints what is wrong and the usage and exits 2; any other error
// prints its message (no stack trace) and exits 1. And one way to print a time.
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

/** A Unix time in seconds as the tools print it: ISO 8601 to the second, in UTC. */
export const isoSeconds = (sec: number): string => new Date(sec * 1000).toISOString().replace('.000Z', 'Z');

/** A wrong command line: an unknown flag, a missing or malformed value. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** `--help` or `-h` among the options (not after a `--`, where it would be a value). */
export function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/** A UsageError, or node:util's parseArgs refusing the command line (an unknown option, a missing value). */
export function isUsageError(error: unknown): error is Error {
  if (error instanceof UsageError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

/** The message an operator reads: parseArgs' advice about positionals that start with '-' dropped. */
function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\. To specify a positional argument[\s\S]*$/, '');
}

/**
 * Runs a tool's main and says what happened, as its entry point does: returns the exit code. `name` is
 * how the operator started it (`npm run event`); `usage` (no final newline) follows a usage error;
 * `help`, by default the usage, answers --help.
 */
export async function runCommand(
  name: string,
  usage: string,
  main: (argv: string[]) => Promise<number>,
  argv: readonly string[],
  help = usage,
): Promise<number> {
  if (wantsHelp(argv)) {
    console.log(help);
    return 0;
  }
  try {
    return await main([...argv]);
  } catch (error) {
    console.error(`${name}: ${messageOf(error)}`);
    if (!isUsageError(error)) return 1;
    console.error(usage);
    return 2;
  }
}

/** The entry point's whole job: run `main` on the process's arguments, then exit with its code. */
export function runTool(name: string, usage: string, main: (argv: string[]) => Promise<number>, help = usage): void {
  void runCommand(name, usage, main, process.argv.slice(2), help).then((code) => process.exit(code));
}

/**
 * For a tool whose settings come from the environment (the benchmarks): --help prints the usage and
 * exits 0, any argument is a usage error (exit 2), both before the tool starts its work.
 */
export function takesNoArguments(name: string, usage: string, argv: readonly string[] = process.argv.slice(2)): void {
  if (argv.length === 0) return;
  if (wantsHelp(argv)) {
    console.log(usage);
    process.exit(0);
  }
  console.error(`${name}: takes no arguments (settings come from environment variables), not "${argv.join(' ')}"`);
  console.error(usage);
  process.exit(2);
}
