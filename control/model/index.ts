// The pure control model (docs/control/model.md): decision lines in, the chance of each coming window
// out. The door of control/model/: the planner thread makes its models through it
// (createControlModel), and the simulator and the benches read its ledger and queue through it.
export { createControlModel, type Model, type ModelOptions } from './control-model.js';
export { CursorPlanner } from './cursor-plan.js';
export { Ledger } from './ledger.js';
export { lowerBound } from './queue.js';
export type { ModelSaved } from './saved.js';
export { parseScheduleText } from './schedule-text.js';
export { laneChances, splitAdmissions, withLaneLease } from './lanes.js';
