// How every tool starts: `--help` prints its usage and exits 0; a wrong command line says what is wrong,
// prints the usage and exits 2; no tool answers either with a stack trace or by starting its work.
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCommand, UsageError, wantsHelp } from '../../lib/cli.js';
import { repoRoot } from '../../lib/paths.js';
import { captured } from '../scripts/helpers.js';

const USAGE = 'usage: npm run thing -- [--n N]';

describe('runCommand', () => {
  it('prints the usage for --help and -h, without running the tool', async () => {
    let ran = false;
    for (const flag of ['--help', '-h']) {
      const r = await captured(() => runCommand('npm run thing', USAGE, async () => ((ran = true), 0), ['seed', flag]));
      expect(r.result).toBe(0);
      expect(r.out).toBe(USAGE);
    }
    expect(ran).toBe(false);
  });

  it('takes a --help after -- as a value, not a request for help', () => {
    expect(wantsHelp(['verify', '--', '--help'])).toBe(false);
  });

  it('answers a usage error with what is wrong, then the usage, and exit code 2', async () => {
    const r = await captured(() =>
      runCommand(
        'npm run thing',
        USAGE,
        async () => {
          throw new UsageError('--n must be a number, not "x"');
        },
        ['--n', 'x'],
      ),
    );
    expect(r.result).toBe(2);
    expect(r.err).toBe(`npm run thing: --n must be a number, not "x"\n${USAGE}`);
  });

  it("treats an option parseArgs does not know as a usage error, without Node's advice about positionals", async () => {
    const { parseArgs } = await import('node:util');
    const r = await captured(() =>
      runCommand('npm run thing', USAGE, async (argv) => (parseArgs({ args: argv, options: {} }), 0), ['--bogus']),
    );
    expect(r.result).toBe(2);
    expect(r.err).toBe(`npm run thing: Unknown option '--bogus'\n${USAGE}`);
  });

  it('answers any other error with its message alone and exit code 1', async () => {
    const r = await captured(() =>
      runCommand(
        'npm run thing',
        USAGE,
        async () => {
          throw new Error('the room is not running');
        },
        [],
      ),
    );
    expect(r.result).toBe(1);
    expect(r.err).toBe('npm run thing: the room is not running');
  });
});

/** Every command an operator can start, with how the README names it. */
const entryPoints: [string, string][] = [
  ['scripts/start.ts', 'npm start'],
  ['scripts/build.ts', 'npm run build'],
  ['scripts/demo-origin.ts', 'demo origin'],
  ['scripts/tune.ts', 'npm run tune'],
  ['scripts/keys.ts', 'npm run keys'],
  ['scripts/event.ts', 'npm run event'],
  ['scripts/pages-to-store.ts', 'npm run pages'],
  ['control/cli.ts', 'npm run control'],
  ['load/cli.ts', 'npm run load'],
  ['sim/cli.ts', 'npm run simulate'],
  ['fuzz/cli.ts', 'npm run fuzz'],
  ['bench/room.ts', 'npm run bench'],
  ['bench/host.ts', 'npm run bench:host'],
  ['bench/control-loop.ts', 'npm run bench:control'],
  ['fastly-api/cli.ts', 'npm run fastly-api'],
  ['report/cli.ts', 'npm run report'],
  ['scripts/invite.ts', 'npm run invite'],
];

/**
 * What a --help leaves unexplained: each option it names (and each subcommand of its usage line) must
 * head a line of its own, `  --option ARG   what it does`: the name left, two spaces, a description.
 */
export function undescribed(help: string, subcommands: readonly string[] = []): string[] {
  const heads = help
    .split('\n')
    .slice(1)
    .flatMap((line) => {
      const m = /^\s+(\S.*?)\s{2,}\S/.exec(line);
      return m ? [m[1]!] : [];
    });
  const names = [...new Set([...(help.match(/--[a-z][a-z0-9-]*/g) ?? []), ...subcommands])];
  const heads$ = heads.map((h) => ` ${h.replace(/[[\]|,()]/g, ' ')} `);
  return names.filter((name) => !heads$.some((h) => h.includes(` ${name} `) || h.includes(` ${name}=`)));
}

interface Run {
  code: number | null;
  out: string;
  err: string;
}

function run(script: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', script, ...args],
      { cwd: repoRoot, timeout: 90_000 },
      (_error, out, err) => resolve({ code: child.exitCode, out, err }),
    );
  });
}

/** At most `n` children at a time: the machine has two cores. */
async function limited<T, R>(items: readonly T[], n: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: n }, worker));
  return results;
}

const STACK_LINE = /^\s+at /m;

describe('every entry point', () => {
  let runs$: Promise<{ help: Run; wrong: Run }[]> | undefined;
  const allRuns = () =>
    (runs$ ??= limited(entryPoints, 3, async ([script]) => ({
      help: await run(script, ['--help']),
      wrong: await run(script, ['--no-such-option']),
    })));

  it('says in --help what each option and subcommand does, a line each', { timeout: 300_000 }, async () => {
    const runs = await allRuns();
    const subcommands: Record<string, string[]> = {
      'npm run keys': ['generate', 'list', 'add', 'rotate', 'remove', 'new', 'add-invite', 'remove-invite'],
      'npm run event': ['seed', 'commitment', 'reveal', 'verify'],
    };
    const missing = entryPoints.flatMap(([, name], i) => {
      const left = undescribed(runs[i]!.help.out, subcommands[name]);
      return left.length === 0 ? [] : [`${name} --help: ${left.join(' ')}`];
    });
    expect(missing).toEqual([]);
  });

  it('prints its usage for --help and exits 0; says what is wrong with an unknown option, prints the usage and exits 2', {
    timeout: 300_000,
  }, async () => {
    const runs = await allRuns();
    const failures: string[] = [];
    for (const [i, [script, name]] of entryPoints.entries()) {
      const { help, wrong } = runs[i]!;
      if (help.code !== 0 || !/^usage: /im.test(help.out) || STACK_LINE.test(help.err)) {
        failures.push(
          `${script} --help: exit ${help.code}, stdout ${JSON.stringify(help.out.slice(0, 200))}, stderr ${JSON.stringify(help.err.slice(0, 300))}`,
        );
      }
      const said = wrong.err.includes('--no-such-option') && /^usage: /im.test(wrong.err) && wrong.err.includes(name);
      if (wrong.code !== 2 || !said || STACK_LINE.test(wrong.err)) {
        failures.push(
          `${script} --no-such-option: exit ${wrong.code}, stderr ${JSON.stringify(wrong.err.slice(0, 300))}`,
        );
      }
    }
    expect(failures).toEqual([]);
  });
});
