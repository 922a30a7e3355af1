// The body of a waiting, countdown or deny answer: its facts (answer.ts) rendered as the JSON answer
// for apps or as the page's template variables and HTML. Nothing here decides what the answer says.
import { answerFacts, type AnsweredResult, type AnswerFacts } from '../answer/index.js';
import { type PageLanguage, englishLanguage } from '../i18n/index.js';
import { type PageFallback, renderPage, type PageVars } from './pages.js';
import { answerText } from './pages-view.js';
import { proofCompact, proofJson } from '../tokens/index.js';
import type { Config, PageName } from '../types.js';

/**
 * The JSON answer for apps (docs/how-it-works.md, "For apps: the JSON answer"), in `language`
 * (absent: English): its live strings as the page shows them, its message in that language.
 */
export function answerJson(facts: AnswerFacts, language: PageLanguage = englishLanguage(facts.message)): string {
  return JSON.stringify({
    waitingRoom: {
      // The built-in page keeps waiting while this is true; a denied visitor is kept out too.
      inWaitingRoom: true,
      status: facts.page,
      refreshIntervalSeconds: facts.refreshIntervalSeconds,
      retryAfterSeconds: facts.retryAfterSeconds,
      waitTime25PercentileSeconds: facts.estimate?.p25 ?? null,
      waitTime50PercentileSeconds: facts.estimate?.p50 ?? null,
      waitTime75PercentileSeconds: facts.estimate?.p75 ?? null,
      waitTimePending: facts.estimatePending,
      allowPercentage: facts.allowPercentage,
      // What a draw uses now: allow_percentage, or a controller's schedule, or its fallback (chance-now.ts).
      chancePercentage: facts.chancePercentage,
      chanceSource: facts.chanceSource,
      jitterSeconds: facts.jitterSeconds,
      queueingMethod: facts.queueingMethod,
      eventStart: facts.eventStart,
      startsInSeconds: facts.startsInSeconds,
      // The line a held place is in: `prequeue` (shuffled at a sale's start) or `fifo`; null for a draw's token.
      placeQueue: facts.placeQueue,
      visitorsAhead: facts.place?.ahead ?? null,
      turnInSeconds: facts.place?.turnSeconds ?? null,
      // The priority lane the visitor waits in (docs/lanes.md), its id and its name; null in the general lane.
      lane: facts.lane?.id ?? null,
      laneName: facts.lane?.name ?? null,
      message: language.message,
      language: language.strings.tag,
      languages: language.offered.map((l) => l.info.tag),
      // The words the page shows for these figures, made by the edge (the page's script shows them as they are).
      text: answerText(pageVars(facts), language),
      // What to solve and how to send it (docs/bots.md, "For apps"), null when no proof is asked.
      proof: facts.proof === null ? null : proofJson(facts.proof),
    },
  });
}

/** The variables a page template sees (pages.ts): the facts under the names templates use. */
export function pageVars(facts: AnswerFacts): PageVars {
  return {
    status: facts.page,
    retryAfterSeconds: facts.retryAfterSeconds,
    refreshIntervalSeconds: facts.refreshIntervalSeconds,
    jitterSeconds: facts.jitterSeconds,
    allowPercentage: facts.allowPercentage,
    waitPeriodSeconds: facts.waitPeriodSeconds,
    hasEstimate: facts.estimate !== null,
    waitTimePending: facts.estimatePending,
    waitTime25PercentileSeconds: facts.estimate?.p25 ?? null,
    waitTime50PercentileSeconds: facts.estimate?.p50 ?? null,
    waitTime75PercentileSeconds: facts.estimate?.p75 ?? null,
    message: facts.message,
    eventStartIso: facts.eventStart,
    startsInSeconds: facts.startsInSeconds,
    visitorsAhead: facts.place?.ahead ?? null,
    turnInSeconds: facts.place?.turnSeconds ?? null,
    placeQueue: facts.placeQueue,
    closed: facts.closed,
    queueingMethod: facts.queueingMethod,
    proofRequired: facts.proof !== null,
    proofSeconds: facts.proof?.seconds ?? null,
    proofCompact: facts.proof === null ? null : proofCompact(facts.proof),
    laneName: facts.lane?.name ?? null,
  };
}

export interface AnswerInput {
  config: Config;
  result: AnsweredResult;
  nowMs: number;
  /** Uniform [0, 1) for the refresh jitter. */
  random: () => number;
  /** The JSON answer for apps, else the HTML page. */
  json: boolean;
  /** The operator's stored template for a page (base64), null for the built-in one. */
  storedPage: (name: PageName) => string | null;
  /** The store key `storedPage` read for a page, for the operator's diagnostics; absent: the page's name. */
  storedKey?: (name: PageName) => string;
  /** Told when a stored page could not be shown and the built-in one was. */
  fellBack?: (why: PageFallback) => void;
  diag: (message: string) => void;
  /** The language chosen for this answer (negotiate.ts); absent: English, with the room's `message`. */
  language?: PageLanguage;
}

export interface RenderedAnswer {
  facts: AnswerFacts;
  contentType: string;
  body: string;
}

/** The answer's facts, rendered as the JSON answer or the page. */
export function renderAnswer({
  config,
  result,
  nowMs,
  random,
  json,
  storedPage,
  storedKey,
  fellBack,
  diag,
  language,
}: AnswerInput): RenderedAnswer {
  const facts = answerFacts(config, result, nowMs, random);
  if (json) return { facts, contentType: 'application/json; charset=utf-8', body: answerJson(facts, language) };
  return {
    facts,
    contentType: 'text/html; charset=utf-8',
    body: renderPage(facts.page, storedPage(facts.page), pageVars(facts), diag, language, {
      key: storedKey?.(facts.page),
      fellBack,
    }),
  };
}
