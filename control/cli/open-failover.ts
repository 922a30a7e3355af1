// Restart and failover as the command line sets them up: the state file read (unless --fresh), the
// lease checked, the API budget's hour restored from the file (control/failover/).
import { resolve } from 'node:path';
import { UsageError } from '../../lib/cli.js';
import { localConfigFile } from '../../lib/local-store.js';
import {
  Failover,
  DEFAULT_LEASE_SECONDS,
  defaultStateFile,
  readStateFile,
  removeLeftTemps,
  StateFileError,
  StateSaver,
  writeStateFile,
  type ControllerState,
} from '../failover/index.js';
import type { ApiBudget } from '../store/index.js';
import { positive } from './options.js';

export /** The state file read (unless --fresh) and the failover it sets up, the budget's hour restored from it: a file that cannot be used stops the start. */
async function startFailover(
  values: { state?: string; fresh?: boolean; lease?: string; service?: string; file?: string },
  leadSeconds: number,
  budget: ApiBudget,
  log: (message: string) => void,
): Promise<{ failover: Failover; file: string }> {
  const leaseSeconds = positive('lease', values.lease, DEFAULT_LEASE_SECONDS);
  if (leaseSeconds < 60)
    throw new UsageError(
      `--lease must be at least 60 seconds (a lease shorter than the writes' spacing would lapse between them), not "${values.lease}"`,
    );
  const localFile = resolve(localConfigFile(values.file, () => {}));
  const file = values.state ?? defaultStateFile(values.service, localFile);
  const storeName = values.service !== undefined ? `service ${values.service}` : `file ${localFile}`;
  let resume: ControllerState | null = null;
  try {
    resume = values.fresh ? null : await readStateFile(file, storeName);
  } catch (error) {
    if (error instanceof StateFileError) throw new UsageError(error.message);
    throw error;
  }
  // A write cut short by a kill leaves its temporary file beside the state file: never read, so removed.
  for (const name of await removeLeftTemps(file)) log(`removed ${name}, the temporary file of a state write cut short`);
  if (values.fresh) log(`--fresh: not reading ${file}; it is overwritten as the controller goes`);
  const saver = new StateSaver((state) => writeStateFile(file, state), log);
  return {
    failover: new Failover({
      store: storeName,
      leaseSeconds,
      leadSeconds,
      resume,
      saver,
      budget,
      startedMs: Date.now(),
      log,
    }),
    file,
  };
}

export /** Makes the rooms, whose saved models are restored at once: one that cannot be read stops the start, naming the file. */
async function resumedAsync<T>(file: string, make: () => Promise<T>): Promise<T> {
  try {
    return await make();
  } catch (error) {
    throw new UsageError(
      `cannot resume from the state file ${file}: ${(error as Error).message}. Start without it: npm run control -- --fresh ... (learning mode), or name another with --state FILE`,
    );
  }
}
