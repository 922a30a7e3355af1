// The app client for the room's JSON answer (docs/apps.md): for a single-page app in front of which the
// room stands, `npm run build:client` makes it one ES module (build/client/index.js, its types beside it).
export { watchRoom, waitForTurn, PROOF_HEADER } from './watch.js';
export { pageSolver, CANNOT_SOLVE } from './proof.js';
export { answerFrom } from './answer.js';
export { roomStatus, RoomStatusError, STATUS_PATH } from './status.js';
export type * from './types.js';
