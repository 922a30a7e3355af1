// The decision table (docs/decisions.md), for one visitor at one moment: an ordered list of steps, each
// of which answers or passes the visit on to the next. Pure: everything it needs is in its input, so the
// handler, the tests and the simulator all run exactly this code. A new feature is a step in its own
// file (steps/) and its place in this list.
import type { DecideResult } from './result.js';
import { withChallenge } from './challenge.js';
import type { Step } from './step.js';
import { botMarked } from './steps/bot-marked.js';
import { denyAll } from './steps/deny-all.js';
import { drawToken } from './steps/draw-token.js';
import { eventClosed } from './steps/event-closed.js';
import { everyoneIn } from './steps/everyone-in.js';
import { allowToken, wonToken } from './steps/held-tokens.js';
import { invitation, inviteOnly } from './steps/invitation.js';
import { joinLine } from './steps/join-line.js';
import { laneJoin } from './steps/lane-join.js';
import { noToken } from './steps/no-token.js';
import { placeInLine } from './steps/place-in-line.js';
import { placeLost } from './steps/place-lost.js';
import { prequeue } from './steps/prequeue.js';
import { queueAll } from './steps/queue-all.js';
import { readTokens } from './steps/tokens.js';
import { type DecideInput, openVisit } from './visit.js';

/** The steps in the order they are asked; the first that answers decides. */
export const STEPS: readonly Step[] = [
  denyAll, // allow_percentage = 0: the deny page, before any token is read
  readTokens, // the presented token that counts, read once (always passes)
  eventClosed, // an event closed: only those inside finish
  invitation, // a valid invitation: in at once
  inviteOnly, // an invite-only room: nobody else gets in
  everyoneIn, // allow_percentage = 100, or an event ended with `pass`
  allowToken, // inside already: kept or renewed
  wonToken, // a win the ceiling held: admitted now
  prequeue, // before the start: the countdown
  botMarked, // a rule's bot mark with `bot_queue` on: the infinite queue
  laneJoin, // a lane invitation on a token of another lane: a new token in its lane
  placeLost, // a place its holder stopped checking on: at the back
  queueAll, // queue_all: everyone waits, nobody draws
  joinLine, // a draw's token in a first-come room: joins the line
  placeInLine, // a place in line: the cursor decides (or the draw while none is published)
  drawToken, // a draw's token: drawn when due
  noToken, // no usable token: a new one (always answers)
];

export async function decide(input: DecideInput): Promise<DecideResult> {
  const visit = openVisit(input);
  // An index, not for...of: the Wasm runtime interprets (no JIT), and an iterator's next() a step adds
  // up over sixteen steps. Most steps pass without a promise: only the ones that return one are awaited,
  // which spares the others a turn of the job queue.
  for (let i = 0; i < STEPS.length; i++) {
    const given = STEPS[i]!(visit);
    const answer = given instanceof Promise ? await given : given;
    // Every waiting answer of a draw token carries its puzzle when its draw asks for a proof.
    if (answer === null) continue;
    // Every answer names the lane the visit is in (docs/lanes.md), for the page and the log line.
    answer.lane = visit.lane;
    return withChallenge(visit, answer);
  }
  throw new Error('decide: no step answered (the last step always does)');
}
