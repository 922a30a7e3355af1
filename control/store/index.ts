// The Fastly store the controller reads and writes, and what each call costs: the writer that spaces
// the writes, the Config Store through the API (or the CLI) or the local file, the API budget, and the
// journal of every call. The door of control/store/ for the rest of the controller.
export {
  ApiBudget,
  ApiError,
  type BudgetSaved,
  type CallReporter,
  type CallTake,
  cliRateLimited,
  DEFAULT_API_BUDGET,
  DEFAULT_READ_EVERY_MS,
  type PendingCall,
  RESERVED_CALLS,
  type StoreCall,
} from './api-budget.js';
export { retryDelayMs } from './api-call.js';
export { callKind, fastlyStore } from './fastly-store.js';
export { type JournalLine, openJournal } from './journal.js';
export { journalTargets } from './journal-targets.js';
export { localStore, type Store, Writer } from './writer.js';
