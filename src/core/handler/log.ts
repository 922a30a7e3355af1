// The decision line for one exchange, assembled here and nowhere else: the handler hands in what it
// answered (the decision's result and the status) and the exchange supplies the rest.
import { decisionLine, logWeight, type OriginFailure } from '../log/index.js';
import { type DecideResult, tokensNote } from '../decision/index.js';
import type { ReasonCode } from '../types.js';
import type { Exchange } from './exchange.js';

/** What the room answered: the decision's result (or a stand-in for one) and how it went out. */
export interface Outcome {
  result: DecideResult;
  status: number;
  /** The language of the answer, when the room made it (a page, the JSON answer, the 429, the 502). */
  lang?: string | null;
  /** The visitor's variant of the waiting page in an A/B test (page_variants), null without one. */
  variant?: string | null;
  /** Why the variant's page was not shown (the built-in page was): `missing`, `unreadable`, `template`. */
  variantFallback?: string;
  /** The origin failed and the room answered 502. */
  originError?: boolean;
  /** On a request sent to the origin: ms from sending it to the origin's headers, or to its failure. */
  originMs?: number;
  /** On the same requests: the origin's status, or why none came. */
  originStatus?: number | OriginFailure;
  /** The reason, when the answer changed it (the origin revoked the session). */
  reason?: ReasonCode;
}

export function logOutcome(exchange: Exchange, outcome: Outcome): void {
  const { config, deps } = exchange;
  const endpoint = config.logEndpoint;
  if (endpoint === null) return;
  const { result } = outcome;
  // A waiting decision is logged only for tokens in the sample (log_sample_rate), weighted; the rest always.
  const weight = logWeight(result, config.logSampleRate);
  if (weight === null) return;
  // Only the identity's kind and token ids: the log must never carry an address or a user id.
  const line = decisionLine({
    nowMs: exchange.nowMs,
    pop: deps.pop || 'local',
    room: config.room,
    rule: exchange.rule,
    invite: exchange.invite,
    tokens: tokensNote(exchange.cookies.tokens),
    waitPeriodSeconds: config.waitPeriodSeconds,
    decision: result.decision,
    outcome: result.outcome,
    reason: outcome.reason ?? result.reason,
    kid: result.kid,
    method: exchange.request.method,
    path: exchange.url.pathname,
    identity: exchange.identity,
    status: outcome.status,
    lang: outcome.lang ?? null,
    variant: outcome.variant ?? null,
    variantFallback: outcome.variantFallback,
    originError: outcome.originError,
    originMs: outcome.originMs,
    originStatus: outcome.originStatus,
    result,
    weight,
  });
  try {
    deps.log(endpoint, line);
  } catch (error) {
    deps.diag(`log_endpoint "${endpoint}": could not log (${String(error)})`);
  }
}
