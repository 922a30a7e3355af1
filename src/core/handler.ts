// One request through the rooms: the routing (rules, then the most specific route), the room's
// settings, an invitation, the decision, then either the origin or a page made at the edge.
// Runtime-neutral: the Fastly adapter and the tests hand in the same RoomDeps shape.
import { renderAnswer } from './answer-body.js';
import { answerLanguage, applyAnswerLanguage, type AnswerLanguage } from './answer-language.js';
import { applyCookieSplit, clearRoomCookie, setRoomCookie, splitRoomCookie, type RoomCookieSplit } from './cookies.js';
import { decide } from './decide.js';
import { resolveIdentity, type IdentityKind } from './identity.js';
import { createCeiling } from './ceiling.js';
import { checkHammering, hammeringResponse, hammeringResult } from './hammer.js';
import { createKeyRing } from './keys.js';
import { checkInvite, INVITE_HEADER, INVITE_PARAM, inviteFrom, type InviteReason } from './invite.js';
import { decisionLine } from './log-line.js';
import { logWeight } from './log-sample.js';
import { originUnavailable } from './origin-down.js';
import { PROOF_HEADER } from './proof.js';
import { requestFacts } from './request-facts.js';
import { resultWith, type DecideResult } from './result.js';
import { routeRequest, type Target } from './routing.js';
import { solverAsset } from './solver-asset.js';
import { tokensNote } from './usable-token.js';
import { readRouting } from './routing-read.js';
import { readRoomConfig } from './settings/index.js';
import type { Config, Decision, Outcome, ReasonCode, RoomDeps } from './types.js';

/** Origin response header that ends the visitor's session; never passed on. */
export const COMMAND_HEADER = 'waiting-room-command';
const NO_STORE = 'no-store, private';

interface LogFields {
  decision: Decision;
  outcome: Outcome;
  reason: ReasonCode;
  kid: string | null;
  identity: IdentityKind | null;
  status?: number;
  originError?: boolean;
  /** The decision's tokens and draw, for the log line. */
  result?: DecideResult;
  /** The rule that sent the request where it went, if one did. */
  rule?: string | null;
  /** Why an invitation the request carried let nobody in. */
  invite?: InviteReason | null;
  /** The language of the answer, when the room made it (a page, the JSON answer, the 429, the 502). */
  lang?: string | null;
}

interface Context {
  request: Request;
  deps: RoomDeps;
  config: Config;
  url: URL;
  https: boolean;
  nowMs: number;
  /** The request's Cookie header as it came, and the room's split of it (read once per request). */
  cookieHeader: string | null;
  cookies: RoomCookieSplit;
  /** The rule that sent the request here, if one did. */
  rule: string | null;
  /** Why an invitation the request carried let nobody in, for the log line. */
  invite: InviteReason | null;
  /** The request carries a valid invitation for this room and identity. */
  invited: boolean;
  /** Whether the request has an invitation header, once the decision has read it (undefined before). */
  inviteHeader?: boolean;
  /** Whether the request has a proof header, once the decision has read it (undefined before). */
  proofHeader?: boolean;
}

function logDecision(ctx: Context, fields: LogFields): void {
  const endpoint = ctx.config.logEndpoint;
  if (endpoint === null) return;
  // A waiting decision is logged only for tokens in the sample (log_sample_rate), weighted; the rest always.
  const weight = logWeight(fields.result ?? null, ctx.config.logSampleRate);
  if (weight === null) return;
  // Only the identity's kind and token ids: the log must never carry an address or a user id.
  const line = decisionLine({
    nowMs: ctx.nowMs,
    pop: ctx.deps.pop || 'local',
    room: ctx.config.room,
    rule: fields.rule ?? null,
    invite: fields.invite ?? null,
    tokens: tokensNote(ctx.cookies.tokens),
    waitPeriodSeconds: ctx.config.waitPeriodSeconds,
    decision: fields.decision,
    outcome: fields.outcome,
    reason: fields.reason,
    kid: fields.kid,
    method: ctx.request.method,
    path: ctx.url.pathname,
    identity: fields.identity,
    status: fields.status ?? null,
    lang: fields.lang ?? null,
    originError: fields.originError,
    result: fields.result ?? null,
    weight,
  });
  try {
    ctx.deps.log(endpoint, line);
  } catch (error) {
    ctx.deps.diag(`log_endpoint "${endpoint}": could not log (${String(error)})`);
  }
}

/** The language of an answer the room makes: worked out only then (answer-language.ts). */
function languageOf(ctx: Context): AnswerLanguage {
  return answerLanguage({
    config: ctx.config,
    url: ctx.url,
    cookieHeader: ctx.cookieHeader,
    acceptLanguage: ctx.request.headers.get('accept-language'),
    https: ctx.https,
    deps: ctx.deps,
  });
}

/** Forward to the origin without the room's cookie; apply the room's own cookie to the answer. */
async function toOrigin(ctx: Context, setToken: string | null, fields: LogFields): Promise<Response> {
  const { deps, config } = ctx;
  // The room's cookie is cut out of the visitor's own request, which then goes on as it is: copying the
  // headers (new Headers / new Request) reads every header back from the host, ~0.3 ms per request.
  applyCookieSplit(ctx.request.headers, ctx.cookieHeader, ctx.cookies);
  // An invitation is the rooms' business: the origin never sees it in a header, whichever path this is
  // (read once: a room's decision read it already).
  if (ctx.inviteHeader ?? ctx.request.headers.has(INVITE_HEADER)) ctx.request.headers.delete(INVITE_HEADER);
  // A proof of work too (docs/bots.md): it is the room's, and a replayed one must not reach the origin's logs.
  if (ctx.proofHeader ?? ctx.request.headers.has(PROOF_HEADER)) ctx.request.headers.delete(PROOF_HEADER);
  let response: Response;
  let revoked = false;
  try {
    const answer = await deps.origin(ctx.request);
    const command = answer.headers.get(COMMAND_HEADER);
    revoked = command !== null && command.trim().toLowerCase() === 'revoke';
    // The origin's answer goes out as it is unless the room adds or removes a header: a copy costs ~0.15 ms.
    if (command === null && setToken === null) {
      logDecision(ctx, { ...fields, status: answer.status });
      return answer;
    }
    // Copy: a fetched response's headers may be immutable.
    response = new Response(answer.body, {
      status: answer.status,
      statusText: answer.statusText,
      headers: new Headers(answer.headers),
    });
    response.headers.delete(COMMAND_HEADER);
  } catch (error) {
    deps.diag(`origin: the backend failed (${error instanceof Error ? error.message : String(error)}); answering 502`);
    const language = languageOf(ctx);
    response = originUnavailable(language.language.strings);
    applyAnswerLanguage(response.headers, language);
    fields = { ...fields, originError: true, lang: language.language.strings.tag };
  }
  if (revoked) {
    response.headers.append('Set-Cookie', clearRoomCookie(config, ctx.https));
    fields = { ...fields, reason: 'revoked' };
  } else if (setToken !== null) {
    // A winner keeps their allow token even when the origin is down: they must not draw again.
    response.headers.append('Set-Cookie', setRoomCookie(setToken, config, ctx.https));
  }
  if (revoked || setToken !== null) response.headers.set('Cache-Control', NO_STORE);
  logDecision(ctx, { ...fields, status: response.status });
  return response;
}

function wantsJson(request: Request): boolean {
  const accept = (request.headers.get('accept') ?? '').toLowerCase();
  return accept.includes('application/json') && !accept.includes('text/html');
}

/** The waiting or deny answer, made here: the origin never sees a queued request. */
function roomPage(ctx: Context, result: DecideResult, identity: IdentityKind): Response {
  const { config, deps } = ctx;
  const language = languageOf(ctx);
  const answer = renderAnswer({
    config,
    result,
    nowMs: ctx.nowMs,
    random: deps.random ?? Math.random,
    json: wantsJson(ctx.request),
    storedPage: (name) => deps.stores.page(config.pages === null ? name : `${config.pages}.${name}`),
    diag: deps.diag,
    language: language.language,
  });
  const headers = new Headers({
    'Cache-Control': NO_STORE,
    'Retry-After': String(answer.facts.retryAfterSeconds),
    'Content-Type': answer.contentType,
  });
  if (result.setToken !== null) headers.append('Set-Cookie', setRoomCookie(result.setToken, config, ctx.https));
  else if (result.clearCookie) headers.append('Set-Cookie', clearRoomCookie(config, ctx.https));
  applyAnswerLanguage(headers, language);
  const status = answer.facts.status;
  logDecision(ctx, {
    decision: result.decision,
    outcome: result.outcome,
    reason: result.reason,
    kid: result.kid,
    identity,
    status,
    result,
    rule: ctx.rule,
    invite: ctx.invite,
    lang: language.language.strings.tag,
  });
  return new Response(ctx.request.method === 'HEAD' ? null : answer.body, { status, headers });
}

/**
 * A request whose URL cannot be parsed (a Host with a port past 65535, say) is not a visitor the
 * room can place: it answers 400, as the edge answers a malformed Host, and tells the operator.
 * Thrown out of the handler, the failure would be a 500.
 */
function badRequest(request: Request, error: unknown, deps: RoomDeps): Response {
  // Up to the path: what failed to parse is the scheme or the authority, and the logs keep query
  // strings out (the decision line names only the path).
  const shown = JSON.stringify(request.url.split(/[?#]/, 1)[0]!.slice(0, 200));
  deps.diag(
    `request URL ${shown} cannot be parsed (${error instanceof Error ? error.message : String(error)}); answering 400`,
  );
  const body = request.method === 'HEAD' ? null : 'Bad Request\n';
  return new Response(body, {
    status: 400,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': NO_STORE },
  });
}

/** The reason a request no room decides goes to the origin with. */
function passReason(target: Target | null): ReasonCode {
  if (target === null) return 'routing_unusable';
  return target.kind === 'bypass' ? 'rule_bypass' : 'no_room';
}

export async function handle(request: Request, deps: RoomDeps): Promise<Response> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch (error) {
    return badRequest(request, error, deps);
  }
  // The page's solver: served before routing, never the origin's, no decision, no log line.
  const asset = solverAsset(request.method, url.pathname);
  if (asset !== null) return asset;
  const nowMs = deps.now();
  const cookieHeader = request.headers.get('cookie');
  const { routing } = readRouting(deps);
  const note = (message: string): void => {
    if (!deps.memory || deps.memory.firstTime(message)) deps.diag(message);
  };
  let target: Target | null;
  try {
    target =
      routing === null
        ? null
        : await routeRequest(routing, requestFacts(request, url, cookieHeader, deps.clientIp, deps.edge ?? null, note));
  } catch (error) {
    // A bug in the routing must neither open every room nor crash: the visitor waits (503), as when
    // a decision fails, and a reused sandbox drops what it kept.
    deps.memory?.forget();
    deps.diag(
      `waiting room: unexpected failure while routing (${error instanceof Error ? (error.stack ?? error.message) : String(error)})`,
    );
    const { config } = readRoomConfig(deps, null);
    const ctx: Context = {
      request,
      deps,
      config,
      url,
      https: url.protocol === 'https:',
      nowMs,
      cookieHeader,
      cookies: splitRoomCookie(cookieHeader, null),
      rule: null,
      invite: null,
      invited: false,
    };
    return roomPage(ctx, resultWith({ decision: 'start', outcome: 'startwaiting', reason: 'internal_error' }), 'ip');
  }
  const room = target?.kind === 'room' ? target.room : null;
  const { config } = readRoomConfig(deps, room);
  const rule = target !== null && target.kind !== 'none' ? target.rule : null;
  const ctx: Context = {
    request,
    deps,
    config,
    url,
    https: url.protocol === 'https:',
    nowMs,
    cookieHeader,
    cookies: splitRoomCookie(cookieHeader, room),
    rule,
    invite: null,
    invited: false,
  };
  const pass = { decision: 'allow', outcome: 'origin', kid: null, identity: null, rule } as const;

  if (room === null) return toOrigin(ctx, null, { ...pass, reason: passReason(target) });
  if (!config.enabled) return toOrigin(ctx, null, { ...pass, reason: 'disabled' });

  // hammer_limit (hammer.ts): a wait token checking too often before it is due gets a 429, cheaply.
  const hammered =
    config.hammerLimit > 0 ? checkHammering({ config, tokens: ctx.cookies.tokens, nowMs, deps, note }) : null;
  if (hammered !== null) {
    const result = hammeringResult(hammered);
    const language = languageOf(ctx);
    logDecision(ctx, {
      decision: 'wait',
      outcome: 'keepwaiting',
      reason: 'hammering',
      kid: null,
      identity: null,
      status: 429,
      result,
      rule,
      lang: language.language.strings.tag,
    });
    const response = hammeringResponse(
      hammered,
      wantsJson(request),
      request.method === 'HEAD',
      language.language.strings,
    );
    applyAnswerLanguage(response.headers, language);
    return response;
  }

  let result: DecideResult;
  let kind: IdentityKind;
  try {
    const who = await resolveIdentity(config, request, deps.clientIp, nowMs);
    kind = who.kind;
    const keys = createKeyRing((kid) => deps.stores.key(kid), deps.diag, deps.memory);
    const inviteHeader = request.headers.get(INVITE_HEADER);
    ctx.inviteHeader = inviteHeader !== null;
    const invite = inviteFrom(url, inviteHeader);
    const invited =
      invite === null
        ? null
        : await checkInvite(invite, { room, identity: who.identity, nowSec: Math.floor(nowMs / 1000) }, (kid) =>
            keys.inviteKey(kid),
          );
    if (invited !== null && !invited.ok) ctx.invite = invited.reason;
    ctx.invited = invited?.ok === true;
    // The counter is opened only when there is a ceiling to keep.
    const ceiling =
      config.popAdmissionsPerSecond === null
        ? null
        : createCeiling(config.popAdmissionsPerSecond, deps.rateCounter, note);
    // The proof header is read only where a proof can be asked.
    const proofHeader = config.proofOfWork === 'off' ? null : request.headers.get(PROOF_HEADER);
    if (config.proofOfWork !== 'off') ctx.proofHeader = proofHeader !== null;
    result = await decide({
      config,
      keys,
      identity: who.identity,
      tokens: ctx.cookies.tokens,
      nowMs,
      ceiling,
      // Successors are for the controller, which reads the log: no log, no extra signature.
      successors: config.logEndpoint !== null,
      diag: deps.diag,
      memory: deps.memory,
      invited: invited?.ok === true,
      proof: { header: proofHeader, json: wantsJson(request) },
      bot: target?.kind === 'room' && target.bot === true,
    });
  } catch (error) {
    // A bug must not open the gate: keep the visitor waiting, say so, issue nothing; and a reused sandbox
    // keeps nothing from before it, in case what it kept is what failed.
    deps.memory?.forget();
    deps.diag(
      `waiting room: unexpected failure while deciding (${error instanceof Error ? (error.stack ?? error.message) : String(error)})`,
    );
    kind = 'ip';
    result = resultWith({ decision: 'start', outcome: 'startwaiting', reason: 'internal_error' });
  }
  if (result.outcome === 'origin') {
    const fields: LogFields = {
      decision: result.decision,
      outcome: result.outcome,
      reason: result.reason,
      kid: result.kid,
      identity: kind,
      result,
      rule,
      invite: ctx.invite,
    };
    const redirect = ctx.invited ? inviteRedirect(ctx, result.setToken) : null;
    if (redirect !== null) {
      logDecision(ctx, { ...fields, status: redirect.status });
      return redirect;
    }
    return toOrigin(ctx, result.setToken, fields);
  }
  return roomPage(ctx, result, kind);
}

/**
 * An invitation followed as a link is answered with its allow token and a redirect to the same
 * address without it: the invitation leaves the address bar (where it would be bookmarked and
 * shared) and never reaches the origin's logs. Null for what a redirect would change the meaning of
 * (a POST) or an invitation that came in the header.
 */
function inviteRedirect(ctx: Context, token: string | null): Response | null {
  const { request, url } = ctx;
  if ((request.method !== 'GET' && request.method !== 'HEAD') || !url.searchParams.has(INVITE_PARAM)) return null;
  const clean = new URL(url.href);
  clean.searchParams.delete(INVITE_PARAM);
  // One leading slash: `//evil.example/x` would be read as another site's address.
  const headers = new Headers({
    Location: `/${clean.pathname.replace(/^\/+/, '')}${clean.search}`,
    'Cache-Control': NO_STORE,
  });
  if (token !== null) headers.append('Set-Cookie', setRoomCookie(token, ctx.config, ctx.https));
  return new Response(null, { status: 303, headers });
}
