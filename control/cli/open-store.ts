// The store the controller writes: the service's Config Store through the API (or the Fastly CLI),
// or the local store file; every call counted by the API budget and written to the journal.
import { localConfigFile } from '../../lib/local-store.js';
import {
  type ApiBudget,
  type StoreCall,
  fastlyStore,
  type openJournal,
  type journalTargets,
  localStore,
} from '../store/index.js';
import type { Log, Values } from './options.js';

export /** The service's Config Store through the API (or the CLI), or the local file; every call counted and journalled. */
function openStore(
  values: Values,
  readEveryMs: number,
  budget: ApiBudget,
  journal: ReturnType<typeof openJournal> | null,
  targets: ReturnType<typeof journalTargets>,
  log: Log,
) {
  const report = (call: StoreCall): void => {
    const now = Date.now();
    budget.record(call, now);
    journal?.append(call, now);
  };
  const token = process.env.FASTLY_API_TOKEN?.trim() || null;
  const rawStore =
    values.service !== undefined
      ? fastlyStore({
          serviceId: values.service,
          storeId: values['store-id'],
          dryRun: values['dry-run'],
          token,
          endpoint: process.env.FASTLY_API_ENDPOINT,
          readEveryMs,
          report,
          log,
        })
      : localStore(localConfigFile(values.file), report);
  if (values.service !== undefined && token === null) {
    log(
      'FASTLY_API_TOKEN is not set: reading and writing through the Fastly CLI, one API call per key written; export FASTLY_API_TOKEN=... to write every room in one call',
    );
  }
  return {
    ...rawStore,
    name: rawStore.name,
    read: async () => {
      const data = await rawStore.read();
      targets.read(data);
      return data;
    },
  };
}
