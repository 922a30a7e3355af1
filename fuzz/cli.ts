// `npm run fuzz -- [--minutes N] [--requests N] [--seed N] [--concurrency N]`: the fuzz run of the built
// room (fuzz/run.ts). Exits 1 when any request reached the origin without a right in its room, a proof
// of work not the request's own was logged valid (or no right one was, so the check went untested), the
// origin saw a room cookie, any undocumented 5xx came back, or the host went down; 2 on a wrong command line (before anything is started).
import { parseArgs } from 'node:util';
import { isMain, runTool, UsageError } from '../lib/cli.js';
import { PROOF_CONTROL } from './proof-attacks.js';
import { fuzz, type FuzzReport } from './run.js';

export const USAGE = `usage: npm run fuzz -- [--minutes N] [--requests N] [--seed N] [--concurrency N]
  --minutes N       how long to attack the built room (default 1)
  --requests N      stop after this many requests, whatever the time (default 1000000)
  --seed N          the attacks and the settings broken along the way (default 1): same seed, same run
  --concurrency N   requests in flight (default 8)
  Exits 1 when a request reached the origin without a right in its room, a forged, replayed or borrowed
  proof of work was logged valid (or no right one was), the origin saw a room cookie, an undocumented
  5xx came back, or the host went down.`;

const num = (name: string, v: string | undefined): number => {
  const n = Number(v);
  if (v === undefined || v.trim() === '' || !(n > 0))
    throw new UsageError(`--${name} must be a positive number, not "${v}"`);
  return n;
};

export async function main(argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      minutes: { type: 'string', default: '1' },
      requests: { type: 'string', default: '1000000' },
      seed: { type: 'string', default: '1' },
      concurrency: { type: 'string', default: '8' },
    },
  });
  const options = {
    durationMs: num('minutes', values.minutes) * 60_000,
    maxRequests: num('requests', values.requests),
    concurrency: num('concurrency', values.concurrency),
    seed: num('seed', values.seed),
  };
  const report = await fuzz({ ...options, log: (line) => console.error(`[fuzz] ${line}`) });
  console.log(JSON.stringify(report, null, 2));
  console.log(
    `${report.requests} requests (${report.attacks} attacks, ${report.settingsWritten} live store writes, ` +
      `${report.phasesOnBrokenRules} attack phases on a routing with a broken rule; rules ${report.rulesApplied ? 'applied' : 'NOT applied by this build'}): ` +
      `${report.reachedOrigin} reached the origin without a right (${report.reachedWithRight} with one), ` +
      `${report.roomCookieAtOrigin} carried a room cookie to the origin, ${report.undocumented5xx} undocumented 5xx, host ${report.hostUp ? 'up' : 'DOWN'}`,
  );
  for (const line of proofLines(report.proof)) console.log(line);
  const proofTested = report.proof.controls === 0 || report.proof.controlsValid > 0;
  return report.reachedOrigin === 0 &&
    report.proof.accepted === 0 &&
    proofTested &&
    report.roomCookieAtOrigin === 0 &&
    report.undocumented5xx === 0 &&
    report.hostUp
    ? 0
    : 1;
}

/** The proof room's counts as printed: attacks by kind, what the room logged of them, accepted. */
export function proofLines(p: FuzzReport['proof']): string[] {
  const attacks = Object.entries(p.attacksByKind).filter(([kind]) => kind !== PROOF_CONTROL);
  const total = attacks.reduce((sum, [, n]) => sum + n, 0);
  const lines = [
    `proof of work: ${total} attacks, ${p.accepted} accepted; ${p.controlsValid} of ${p.controls} controls (the right solution) logged valid; ${p.unlogged} requests without a decision line`,
  ];
  for (const [kind, n] of attacks.sort(([a], [b]) => a.localeCompare(b))) {
    const said = Object.entries(p.linesByKind[kind] ?? {})
      .map(([what, k]) => `${what} ${k}`)
      .join(', ');
    lines.push(`  ${String(n).padStart(5)}  ${kind.replace(/^proof: /, '')}: ${said || 'no lines'}`);
  }
  return lines;
}

if (isMain(import.meta.url)) runTool('npm run fuzz', USAGE, main);
