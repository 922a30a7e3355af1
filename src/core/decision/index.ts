// The decision's door: what code outside src/core/decision/ may use of it. The decision itself is the
// list of steps in decide.ts; the rest of the folder are the steps and what they share.
export { decide, STEPS } from './decide.js';
export type { ProofInput } from './proof.js';
export type { Step, Answer } from './step.js';
export {
  boundary,
  catchUp,
  firstUsable,
  MAX_TOKEN_CHARS,
  MAX_VERIFIED_TOKENS,
  roomOf,
  tokensNote,
  type TokensNote,
  type TokenInput,
  type Usable,
} from './usable-token.js';
export type { DecideInput, Visit } from './visit.js';
export * from './ceiling.js';
export * from './chance-now.js';
export * from './draw.js';
export * from './queue.js';
export * from './result.js';
export * from './position.js';
export { laneChance, laneOf, laneView, visitLane } from './lane.js';
