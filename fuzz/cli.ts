// `npm run fuzz -- [--minutes N] [--requests N] [--seed N]`: the fuzz run of the built room (fuzz/run.ts).
// Exits 1 when any request reached the origin without a right to, any undocumented 5xx came back,
// or the host went down.
import { parseArgs } from 'node:util';
import { fuzz } from './run.js';

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: { minutes: { type: 'string', default: '1' }, requests: { type: 'string', default: '1000000' }, seed: { type: 'string', default: '1' }, concurrency: { type: 'string', default: '8' } },
});
const num = (name: string, v: string | undefined): number => {
  const n = Number(v);
  if (!(n > 0)) throw new Error(`--${name} must be a positive number, not "${v}"`);
  return n;
};
const report = await fuzz({
  durationMs: num('minutes', values.minutes) * 60_000,
  maxRequests: num('requests', values.requests),
  concurrency: num('concurrency', values.concurrency),
  seed: num('seed', values.seed),
  log: (line) => console.error(`[fuzz] ${line}`),
});
console.log(JSON.stringify(report, null, 2));
console.log(
  `${report.requests} requests (${report.attacks} attacks, ${report.settingsWritten} live store writes): ` +
    `${report.reachedOrigin} reached the origin without a right, ${report.undocumented5xx} undocumented 5xx, host ${report.hostUp ? 'up' : 'DOWN'}`,
);
process.exit(report.reachedOrigin === 0 && report.undocumented5xx === 0 && report.hostUp ? 0 : 1);
