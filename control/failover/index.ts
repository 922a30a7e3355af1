// Restart and failover (docs/control/failover.md): the controller wrapped with its state file, its
// heartbeat and the lease on what it writes. The door of control/failover/.
export { Failover } from './failover.js';
export { controlLoop, FailoverController } from './failover-controller.js';
export { type Beat, DEFAULT_LEASE_SECONDS, describeBeat, parseBeat } from './heartbeat.js';
export {
  type ControllerState,
  decodeState,
  defaultStateFile,
  encodeState,
  readStateFile,
  RoomsJson,
  removeLeftTemps,
  StateFileError,
  StateSaver,
  writeStateFile,
} from './state-file.js';
