// What a preview link's page says (docs/operating.md, "Previewing a page"): the facts of a waiting,
// countdown or deny answer for the room's own settings, with made-up figures where a visitor would
// see their own: a plausible wait, a place in line, a countdown. Nothing here is decided: no token, no
// draw, no store value beyond the room's settings.
import { chanceNow, DENY_PAGE_TIMER, jitterSeconds } from '../decision/index.js';
import type { AnswerFacts } from './answer.js';
import type { PreviewClaims, ProofChallenge } from '../tokens/index.js';
import type { Config, PageName } from '../types.js';

/** The made-up figures, chosen to read naturally in every language (plurals past "one", a range that differs). */
export const MADE_UP = {
  /** The draw's wait: its 25th, 50th and 75th percentiles, seconds (4, 9 and 15 minutes). */
  estimate: { p25: 240, p50: 540, p75: 900 },
  /** A first-come place: visitors ahead, and seconds until the turn (7 minutes 30 seconds). */
  place: { ahead: 1234, turnSeconds: 450 },
  /** Seconds to the sale's start when the room has no future `event_start` (2 hours 15 minutes). */
  startsInSeconds: 8100,
  /** The 429's seconds until the token is due. */
  hammerSeconds: 20,
};

/** The page of the room's set a preview page is rendered from (the hammer and origin-down pages are the room's own, not templates). */
export function previewPageName(page: PreviewClaims['page']): PageName | null {
  if (page === 'hammer' || page === 'origin-down') return null;
  return page === 'closed' ? 'deny' : page;
}

/**
 * The facts of the page `claims` names, for `config` at `nowMs`. `proof`: a made-up puzzle for a
 * waiting page asked with a proof (the page's solver works it out as it would a real one).
 */
export function previewFacts(
  config: Config,
  claims: PreviewClaims,
  nowMs: number,
  proof: ProofChallenge | null,
): AnswerFacts {
  const page = previewPageName(claims.page) ?? 'keepwaiting';
  const waiting = page === 'startwaiting' || page === 'keepwaiting';
  const mode = claims.mode ?? config.queueingMethod;
  const fifo = waiting && mode === 'fifo';
  const nowSec = Math.floor(nowMs / 1000);
  // The room's own sale start when it is still to come, so the date reads as it will; else made up.
  const start =
    config.event !== null && config.event.start > nowSec ? config.event.start : nowSec + MADE_UP.startsInSeconds;
  const countdown = page === 'prequeue' ? start : null;
  const retryAfter = page === 'deny' ? DENY_PAGE_TIMER.seconds : config.waitPeriodSeconds;
  const chance = chanceNow(config, nowSec);
  return {
    page,
    status: 200,
    retryAfterSeconds: retryAfter,
    refreshIntervalSeconds: retryAfter,
    jitterSeconds: page === 'deny' ? DENY_PAGE_TIMER.jitterSeconds : jitterSeconds(config),
    allowPercentage: config.allowPercentage,
    chancePercentage: chance.percentage,
    chanceSource: chance.source,
    waitPeriodSeconds: config.waitPeriodSeconds,
    queueingMethod: mode,
    message: config.message,
    estimate: waiting && !fifo ? { ...MADE_UP.estimate } : null,
    estimatePending: false,
    place: fifo ? { ...MADE_UP.place } : null,
    placeQueue: fifo ? 'fifo' : null,
    eventStart: countdown === null ? null : new Date(countdown * 1000).toISOString(),
    startsInSeconds: countdown === null ? null : countdown - nowSec,
    closed: claims.page === 'closed',
    proof: waiting ? proof : null,
    // A preview is of the general lane's page: no lane badge (docs/lanes.md).
    lane: null,
  };
}
