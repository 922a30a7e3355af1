// What a waiting, countdown or deny answer says. `answerFacts` works out the facts once (the page,
// status, Retry-After, the estimate, the place in line, the countdown); the JSON body and the HTML page
// only render them (answer-body.ts). Pure, so the handler, the build-time warm-up (warm.ts) and the
// simulator all take their answer from this one function.
import {
  chanceNow,
  type ChanceSource,
  DENY_PAGE_TIMER,
  jitterSeconds,
  retryAfterSeconds,
  shownPlace,
  eventPhase,
  prequeueDraining,
  type DecideResult,
  laneOf,
  laneView,
} from '../decision/index.js';
import { estimateFor, type WaitEstimate } from './estimate.js';
import type { ProofChallenge } from '../tokens/index.js';
import type { Config, PageName, PlaceQueue } from '../types.js';

/** The part of a decision an answer is made from. */
export type AnsweredResult = Pick<DecideResult, 'outcome' | 'reason' | 'waitDueSec' | 'waitExpirySec'> &
  Partial<Pick<DecideResult, 'place' | 'proof' | 'lane'>>;

/** Everything a waiting, countdown or deny answer tells the visitor, before it is rendered. */
export interface AnswerFacts {
  /** The page shown, and the JSON answer's `status`. */
  page: PageName;
  /** The HTTP status. */
  status: number;
  /** Whole seconds until checking again is worth it (the Retry-After header). */
  retryAfterSeconds: number;
  /** Retry-After plus this answer's share of the jitter: when a page without script reloads. */
  refreshIntervalSeconds: number;
  /** J: the page adds uniform(0, J) seconds to Retry-After. */
  jitterSeconds: number;
  allowPercentage: number;
  /** The chance a draw of the current window uses, and where it comes from (chance-now.ts). */
  chancePercentage: number;
  chanceSource: ChanceSource;
  waitPeriodSeconds: number;
  queueingMethod: Config['queueingMethod'];
  /** The operator's `message`, '' when none. */
  message: string;
  /** The wait's 25th, 50th and 75th percentiles, seconds; null when the answer promises none. */
  estimate: WaitEstimate | null;
  /**
   * The visitor waits for draws the room has no forecast for yet (estimate null): a target is set and
   * the controller has published no chances, or a sale's pre-queue still goes first. The page says it
   * is working the wait out rather than promise minutes from a placeholder chance.
   */
  estimatePending: boolean;
  /** A place in line: visitors ahead and seconds until the turn, each null when unknown; null without a place. */
  place: { ahead: number | null; turnSeconds: number | null } | null;
  /**
   * The line that place is in, null without one: `prequeue` for a place a sale's pre-queue gave at
   * the start, let in by that shuffled order whatever `queueingMethod` says; `fifo` for a first-come one.
   */
  placeQueue: PlaceQueue | null;
  /** The countdown's event start (ISO 8601) and whole seconds until it; null on every other page. */
  eventStart: string | null;
  startsInSeconds: number | null;
  /** The deny page shown because the event ended with `event_end_action = close`. */
  closed: boolean;
  /** The puzzle of the draw token the visitor holds, when its draw asks for a proof (docs/bots.md); else null. */
  proof: ProofChallenge | null;
  /** The priority lane the visitor waits in (docs/lanes.md): its id and name; null in the general lane. */
  lane: { id: string; name: string } | null;
}

/**
 * A controller is to plan the draws (a target is set), the room queues (a chance between 0 and 100),
 * and no chance is published yet: `allow_percentage` is then the placeholder the controller starts
 * from (`1` at an opening, or at an event's start on an open room), not a chance anyone planned, and
 * an estimate from it would promise an hour in an empty room.
 */
function unplanned(config: Config): boolean {
  const target = config.control.newUsersPerMinute !== null || config.control.totalActiveUsers !== null;
  // 1 is the placeholder: what the operator sets at an opening and the controller at an event's start.
  // Any other chance, with no controller running, is the one every draw uses: its figures are right.
  return target && config.allowSchedule.length === 0 && config.allowPercentage > 0 && config.allowPercentage <= 1;
}

/**
 * The facts of the answer to `result` at `nowMs`. `random` (uniform [0, 1)) draws the refresh
 * interval's jitter.
 */
export function answerFacts(room: Config, result: AnsweredResult, nowMs: number, random: () => number): AnswerFacts {
  // A lane's visitor is told the lane's chances, not the room's (docs/lanes.md).
  const lane = laneOf(room, result.lane);
  const config = laneView(room, lane?.id ?? null);
  const page: PageName = result.outcome === 'origin' ? 'startwaiting' : result.outcome;
  // The deny page checks again after 300 s plus up to 60 (its script, which the controller counts
  // on): the header and the JSON answer tell apps the same, not a window.
  const denied = page === 'deny';
  const retryAfter = denied
    ? DENY_PAGE_TIMER.seconds
    : retryAfterSeconds(result.waitDueSec, nowMs, config.waitPeriodSeconds);
  const J = denied ? DENY_PAGE_TIMER.jitterSeconds : jitterSeconds(config);
  const nowSec = Math.floor(nowMs / 1000);
  // A place in line the cursor moves: how many are ahead and when the turn comes, from what the
  // controller published (docs/events.md). Without a cursor yet, both are unknown, not guessed.
  const place = shownPlace(result.place ?? null, config, retryAfter);
  const countdown = page === 'prequeue' && config.event !== null ? config.event.start : null;
  // The draw's estimate is for draws: none for a place in line (the turn says it), the countdown, the
  // deny page, or while nobody new is admitted (queue_all). Pending while the room cannot know the
  // draws' chances yet: the pre-queue goes first, or the controller has not planned them.
  const noDraws = page === 'deny' || countdown !== null || place !== null || result.reason === 'queue_all';
  // A winner the ceiling holds has won: the wait left is the ceiling's, a second or two, not another draw.
  const held = result.reason === 'ceiling_held';
  const pending =
    !noDraws &&
    !held &&
    (result.reason === 'behind_prequeue' ||
      prequeueDraining(config, eventPhase(config, nowSec), nowSec) ||
      unplanned(config));
  const chance = chanceNow(config, nowSec);
  const estimate =
    noDraws || pending
      ? null
      : held
        ? { p25: retryAfter, p50: retryAfter, p75: retryAfter + J }
        : estimateFor(config, result.waitDueSec, result.waitExpirySec, nowMs);
  return {
    page,
    // No key to sign with is the room's fault, not the visitor's: say "unavailable" whatever the setting.
    status: result.reason === 'no_signing_key' || result.reason === 'internal_error' ? 503 : config.waitingStatus,
    retryAfterSeconds: retryAfter,
    refreshIntervalSeconds: retryAfter + Math.round(random() * J),
    jitterSeconds: J,
    allowPercentage: config.allowPercentage,
    chancePercentage: chance.percentage,
    chanceSource: chance.source,
    waitPeriodSeconds: config.waitPeriodSeconds,
    queueingMethod: config.queueingMethod,
    message: config.message,
    estimate,
    estimatePending: pending,
    place,
    placeQueue: result.place?.queue ?? null,
    eventStart: countdown === null ? null : new Date(countdown * 1000).toISOString(),
    startsInSeconds: countdown === null ? null : Math.max(0, countdown - nowSec),
    closed: result.reason === 'event_closed',
    proof: result.proof ?? null,
    lane: lane === null || page === 'deny' ? null : { id: lane.id, name: lane.name },
  };
}
