// The decision line: one JSON object per decision for the operator's log endpoint, and what the
// controller (control/) and the simulator read. Field order is fixed, and docs/control/log.md lists each
// field. It names tokens by id, never the visitor: no address, no user id, no identity hash.
import { type DecideResult, tokenId } from '../decision/index.js';
import type { IdentityKind } from '../request/index.js';
import type { PreviewPage } from '../tokens/index.js';
import type { Decision, Outcome, PreviewReason, ReasonCode } from '../types.js';

/**
 * A preview link's line (docs/operating.md, "Previewing a page"): decision and outcome `preview`, the
 * reason `preview` for a page shown or why the link was refused. Never a visitor: the controller and
 * the report count these lines apart.
 */
export const PREVIEW_DECISION = 'preview';

/**
 * Why a request sent to the origin got no answer (handler/origin-failure.ts): no headers in time
 * (`timeout`), no connection (`refused`), or anything else (`failed`).
 */
export type OriginFailure = 'timeout' | 'refused' | 'failed';

export interface LineFields {
  nowMs: number;
  pop: string;
  /** The room that decided, null when none did (a bypass rule, no route). */
  room: string | null;
  /** The rule that sent the request where it went, null when no rule did. */
  rule: string | null;
  /** Why an invitation the request carried let nobody in (invite.ts), null when it had none or it worked. */
  invite?: string | null;
  /** `tokens_ignored` when the request had more room cookies than are verified (decision/usable-token.ts). */
  tokens?: string | null;
  /** d in force: `win` is the start of the window `nowMs` falls in. */
  waitPeriodSeconds: number;
  decision: Decision | typeof PREVIEW_DECISION;
  outcome: Outcome | typeof PREVIEW_DECISION;
  reason: ReasonCode | PreviewReason;
  kid: string | null;
  method: string;
  path: string;
  identity: IdentityKind | null;
  status: number | null;
  /**
   * The language chosen for an answer the room made itself (a page, the JSON answer, the 429, the 502),
   * its tag (`de-DE`), written as `lang`; absent when the answer carries none (the origin's, a redirect).
   */
  lang?: string | null;
  /** The visitor's variant of the waiting page in an A/B test (`page_variants`), written as `variant`; absent without one. */
  variant?: string | null;
  /** Why that variant's page was not shown, the built-in one instead (`missing`, `unreadable`, `template`). */
  variantFallback?: string;
  originError?: boolean;
  /**
   * On a request sent to the origin: the time from sending it to the origin's response headers, or to
   * its failure when none came, written as whole ms `originMs`; absent on every other line.
   */
  originMs?: number;
  /** On the same lines: the origin's HTTP status, or why it gave none, written as `originStatus`. */
  originStatus?: number | OriginFailure;
  /**
   * How many decisions the line stands for: 1/log_sample_rate for a sampled waiting decision
   * (log-sample.ts), written as `w`; absent or 1 for a line always logged.
   */
  weight?: number;
  /** The page a preview link named (PREVIEW_DECISION's lines), written as `preview`. */
  preview?: PreviewPage | null;
  /** The decision's tokens and draw, when there was one. */
  result?:
    | (Pick<DecideResult, 'used' | 'setToken' | 'set' | 'nextToken' | 'pct'> &
        Partial<Pick<DecideResult, 'place' | 'proofCheck' | 'bot' | 'lane'>>)
    | null;
}

export function decisionLine(f: LineFields): string {
  const r = f.result ?? null;
  const d = f.waitPeriodSeconds;
  const nowSec = Math.floor(f.nowMs / 1000);
  return JSON.stringify({
    wr: 1,
    ts: new Date(f.nowMs).toISOString(),
    pop: f.pop,
    room: f.room,
    rule: f.rule,
    win: Math.floor(nowSec / d) * d,
    period: d,
    decision: f.decision,
    outcome: f.outcome,
    reason: f.reason,
    kid: f.kid,
    method: f.method,
    path: f.path,
    identity: f.identity,
    status: f.status,
    tid: r?.used ? tokenId(r.used.token) : null,
    exp: r?.used?.exp ?? null,
    dec: r?.used?.dec ?? null,
    newTid: r?.setToken ? tokenId(r.setToken) : null,
    newExp: r?.set?.exp ?? null,
    newDec: r?.set?.dec ?? null,
    nextTid: r?.nextToken ? tokenId(r.nextToken) : null,
    pct: r?.pct ?? null,
    // The visitor's place in line (docs/events.md), 6 decimals: the pre-queue lies within one second.
    pos: r?.place ? Math.round(r.place.pos * 1e6) / 1e6 : null,
    // The language of the room's own answer; none on the origin's, to keep the line short.
    ...(f.lang ? { lang: f.lang } : {}),
    // The waiting page's variant the visitor keeps in an A/B test, and why its page fell back, if it did.
    ...(f.variant ? { variant: f.variant } : {}),
    ...(f.variant && f.variantFallback ? { variantFallback: f.variantFallback } : {}),
    // How the origin answered a request sent to it (docs/control/log.md); absent when none was sent.
    ...(f.originMs !== undefined ? { originMs: Math.max(0, Math.round(f.originMs)) } : {}),
    ...(f.originStatus !== undefined ? { originStatus: f.originStatus } : {}),
    ...(f.weight !== undefined && f.weight !== 1 ? { w: f.weight } : {}),
    ...(r !== null && f.reason === 'ceiling_held' ? { held: true } : {}),
    ...(f.invite ? { invite: f.invite } : {}),
    ...(f.preview ? { preview: f.preview } : {}),
    ...(f.tokens ? { tokens: f.tokens } : {}),
    // The proof a draw asked for and what the request brought; a token of the infinite queue (docs/bots.md).
    ...(r?.proofCheck ? { proof: r.proofCheck } : {}),
    ...(r?.bot ? { bot: true } : {}),
    // The priority lane the visitor is in (docs/lanes.md); absent in the general lane.
    ...(r?.lane ? { lane: r.lane } : {}),
    ...(f.originError ? { originError: true } : {}),
  });
}
