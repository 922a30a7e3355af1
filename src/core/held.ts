// What a waiting or deny answer says: status, Retry-After, the estimate, and the page or JSON body.
// Pure, so the handler, the build-time warm-up (warm.ts) and the simulator run this one piece of code.
import { jitterSeconds, retryAfterSeconds } from './draw.js';
import { estimateFor } from './estimate.js';
import { renderPage, type PageVars } from './pages.js';
import { shownPlace } from './position.js';
import type { DecideResult } from './result.js';
import type { Config, PageName } from './types.js';

export interface HeldInput {
  config: Config;
  result: Pick<DecideResult, 'outcome' | 'reason' | 'waitDueSec' | 'waitExpirySec'> & Partial<Pick<DecideResult, 'place'>>;
  nowMs: number;
  /** Uniform [0, 1) for the refresh jitter. */
  random: () => number;
  /** The JSON answer for apps, else the HTML page. */
  json: boolean;
  /** The operator's stored template for a page (base64), null for the built-in one. */
  storedPage: (name: PageName) => string | null;
  diag: (message: string) => void;
}

export interface HeldAnswer {
  name: PageName;
  status: number;
  retryAfterSeconds: number;
  contentType: string;
  body: string;
}

export function heldAnswer({ config, result, nowMs, random, json, storedPage, diag }: HeldInput): HeldAnswer {
  const name: PageName = result.outcome === 'origin' ? 'startwaiting' : result.outcome;
  const d = config.waitPeriodSeconds;
  const retryAfter = retryAfterSeconds(result.waitDueSec, nowMs, d);
  const J = jitterSeconds(config);
  const refresh = retryAfter + Math.round(random() * J);
  const nowSec = Math.floor(nowMs / 1000);
  // A place in line the cursor moves: how many are ahead and when the turn comes, from what the
  // controller published (docs/events.md). Without a cursor yet, both are unknown, not guessed.
  const place = result.place ?? null;
  const line = shownPlace(place, config, retryAfter);
  const prequeue = name === 'prequeue' && config.event !== null;
  // A held winner has won: the wait left is the ceiling's, a second or two, not another draw.
  const estimate =
    name === 'deny' || prequeue || place !== null || result.reason === 'queue_all' || result.reason === 'behind_prequeue'
      ? null
      : result.reason === 'ceiling_held'
        ? { p25: retryAfter, p50: retryAfter, p75: retryAfter + J }
        : estimateFor(config, result.waitDueSec, result.waitExpirySec, nowMs);
  const queue = {
    queueingMethod: config.queueingMethod,
    eventStart: prequeue ? new Date(config.event!.start * 1000).toISOString() : null,
    startsInSeconds: prequeue ? Math.max(0, config.event!.start - nowSec) : null,
    visitorsAhead: line?.ahead ?? null,
    turnInSeconds: line?.turnSeconds ?? null,
    message: config.message,
  };
  // No key to sign with is the room's fault, not the visitor's: say "unavailable" whatever the setting.
  const status = result.reason === 'no_signing_key' || result.reason === 'internal_error' ? 503 : config.waitingStatus;
  const answer = { name, status, retryAfterSeconds: retryAfter };

  if (json) {
    const body = JSON.stringify({
      waitingRoom: {
        // The built-in page keeps waiting while this is true; a denied visitor is held too.
        inWaitingRoom: true,
        status: name,
        refreshIntervalSeconds: refresh,
        retryAfterSeconds: retryAfter,
        waitTime25PercentileSeconds: estimate?.p25 ?? null,
        waitTime50PercentileSeconds: estimate?.p50 ?? null,
        waitTime75PercentileSeconds: estimate?.p75 ?? null,
        allowPercentage: config.allowPercentage,
        jitterSeconds: J,
        ...queue,
      },
    });
    return { ...answer, contentType: 'application/json; charset=utf-8', body };
  }
  const vars: PageVars = {
    status: name,
    retryAfterSeconds: retryAfter,
    refreshIntervalSeconds: refresh,
    jitterSeconds: J,
    allowPercentage: config.allowPercentage,
    waitPeriodSeconds: d,
    hasEstimate: estimate !== null,
    waitTime25PercentileSeconds: estimate?.p25 ?? null,
    waitTime50PercentileSeconds: estimate?.p50 ?? null,
    waitTime75PercentileSeconds: estimate?.p75 ?? null,
    message: config.message,
    eventStartIso: queue.eventStart,
    startsInSeconds: queue.startsInSeconds,
    visitorsAhead: queue.visitorsAhead,
    turnInSeconds: queue.turnInSeconds,
    closed: result.reason === 'event_closed',
    queueingMethod: config.queueingMethod,
  };
  return { ...answer, contentType: 'text/html; charset=utf-8', body: renderPage(name, storedPage(name), vars, diag) };
}
