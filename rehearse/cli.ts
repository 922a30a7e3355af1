// `npm run rehearse`: the production path from zero to live, on this machine (docs/production.md).
// The real Fastly CLI publishes the project to a new service on the stand-in of Fastly's API, then
// every tool an operator uses on a service runs against it, while the published package serves on the
// local Compute host from the stores the service links. One line a step (time, API calls, command),
// then the calls by endpoint and what the whole path spent of the token's hourly budget.
import { isMain, runTool, UsageError } from '../lib/cli.js';
import { DEFAULT_CALLS_PER_HOUR } from '../fastly-api/rate-limit.js';
import { rehearse, type StepRecord } from './index.js';

export const USAGE = `usage: npm run rehearse
  publishes the project to a new service on the local stand-in of Fastly's API through the real
  Fastly CLI, then tunes it, rotates its keys, uploads its pages, invites a visitor and runs the
  controller on it (log-tail, then the HTTPS log endpoint), the published package serving meanwhile on
  the local host. Nothing outside this machine is called; the checkout's files are not changed.`;

/** `12  PUT /resources/stores/config/CONFIG_ID/item/KEY 200`, most first. */
export function callCounts(steps: readonly StepRecord[]): string[] {
  const counts = new Map<string, number>();
  for (const c of steps.flatMap((s) => s.calls)) {
    const shape = c.replace(/\/item\/[^/ ]+/, '/item/KEY').replace(/\/secrets\/[^/ ]+ /, '/secrets/NAME ');
    counts.set(shape, (counts.get(shape) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]).map(([shape, n]) => `${String(n).padStart(5)}  ${shape}`);
}

export async function main(argv: readonly string[] = [], print = (line: string) => console.log(line)): Promise<number> {
  if (argv.length > 0) throw new UsageError(`it takes no arguments, not "${argv.join(' ')}"`);
  const started = performance.now();
  print(`${'step'.padEnd(34)} ${'time'.padStart(7)}  ${'API calls'.padStart(9)}  command`);
  const result = await rehearse(print);
  const seconds = (performance.now() - started) / 1000;
  print('');
  print('API calls, by endpoint (those that spend the rate limit):');
  for (const line of callCounts(result.steps)) print(line);
  const tools = result.steps.reduce((n, s) => n + s.calls.length, 0);
  print(
    `${result.steps.length} steps in ${seconds.toFixed(0)} s; ${result.counted} API calls in all ` +
      `(${tools} by the steps above), ${((100 * result.counted) / DEFAULT_CALLS_PER_HOUR).toFixed(1)}% ` +
      `of a token's ${DEFAULT_CALLS_PER_HOUR} an hour; service ${result.serviceId} on the stand-in, now gone`,
  );
  return 0;
}

if (isMain(import.meta.url)) runTool('npm run rehearse', USAGE, () => main(process.argv.slice(2)));
