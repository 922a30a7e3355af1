// A control model's saved state, as the state file keeps it (control/failover/state-file.ts): its state
// (state.ts), its cursor's, its dashboard rows and its ledger's, JSON-safe and versioned.
import type { MinutePoint } from '../types.js';
import type { CursorSaved } from './cursor-plan.js';
import type { LedgerSaved } from './ledger-saved.js';
import type { SavedState } from './state.js';

/** The version of ModelSaved this code writes and reads: raised when an older controller could not read it; fields added with defaults keep it. */
export const MODEL_SAVED_VERSION = 1;

/** Everything a control model needs to go on after a restart, JSON-safe (createControlModel({ restore })). */
export interface ModelSaved {
  version: number;
  state: SavedState;
  cursor: CursorSaved;
  /** The dashboard's minute rows (history.ts). */
  history: MinutePoint[];
  /** The ledger's own state (ledger-saved.ts), or null in a state saved without one. */
  ledger: LedgerSaved | null;
}
