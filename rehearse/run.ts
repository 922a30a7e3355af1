// One step of the rehearsal as it is recorded: how long it took, and the API calls it made, as Fastly
// would count them against the token's hourly budget (the commands run through lib/run-to-end.ts).
import type { ApiCall, FastlyApi } from '../fastly-api/server.js';
import type { Run } from '../lib/run-to-end.js';

export interface StepRecord {
  name: string;
  /** The command as an operator types it (or what the step did, for one that runs none). */
  command: string;
  ms: number;
  /** The calls that spend the API's rate limit, as `METHOD /path STATUS`. */
  calls: string[];
}

/** The counted calls among `calls`, ids of stores and services shortened to their kind. */
export function countedCalls(calls: readonly ApiCall[], names: ReadonlyMap<string, string>): string[] {
  return calls
    .filter((c) => c.limited)
    .map((c) => {
      let p = c.path;
      for (const [id, name] of names) p = p.split(id).join(name);
      return `${c.method} ${p} ${c.status}`;
    });
}

export class StepFailed extends Error {
  override name = 'StepFailed';
}

/** Records what `run` did as the step `name`: its time and the calls the stand-in counted meanwhile. */
export async function recordStep<T>(
  api: FastlyApi,
  names: ReadonlyMap<string, string>,
  name: string,
  command: string,
  run: () => Promise<T>,
): Promise<{ value: T; record: StepRecord }> {
  const from = api.calls.length;
  const started = performance.now();
  let value: T;
  try {
    value = await run();
  } catch (error) {
    throw new StepFailed(`${name} (${command}): ${(error as Error).message}`);
  }
  const ms = performance.now() - started;
  return { value, record: { name, command, ms, calls: countedCalls(api.calls.slice(from), names) } };
}

/** The output of a command that must succeed, or an error carrying what it said. */
export function succeeded(o: Run, what: string): string {
  if (o.code !== 0) throw new Error(`${what} exited ${o.code}: ${(o.err || o.out).trim().slice(-2000)}`);
  return o.out;
}
