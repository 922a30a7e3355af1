// The origin's answer for a request the room lets through: the request without the room's cookie, the
// invitation or the proof; the answer with the room's own cookie, and the origin's command obeyed.
import { applyAnswerLanguage, originUnavailable } from '../answer/index.js';
import { applyCookieSplit, clearRoomCookie, setRoomCookie } from '../request/index.js';
import { INVITE_HEADER, PROOF_HEADER } from '../tokens/index.js';
import type { DecideResult } from '../decision/index.js';
import { type Exchange, languageOf, NO_STORE } from './exchange.js';
import { logOutcome, type Outcome } from './log.js';
import { originFailure } from './origin-failure.js';

/** Origin response header that ends the visitor's session; never passed on. */
export const COMMAND_HEADER = 'waiting-room-command';

/** Forward to the origin without the room's cookie; apply the room's own cookie (`result.setToken`) to the answer. */
export async function toOrigin(exchange: Exchange, result: DecideResult): Promise<Response> {
  const { deps, request } = exchange;
  const setToken = result.setToken;
  // The room's cookie is cut out of the visitor's own request, which then goes on as it is: copying the
  // headers (new Headers / new Request) reads every header back from the host, ~0.3 ms per request.
  applyCookieSplit(request.headers, exchange.cookieHeader, exchange.cookies);
  // An invitation is the rooms' business: the origin never sees it in a header, whichever path this is
  // (read once: a room's decision read it already).
  if (exchange.inviteHeader ?? request.headers.has(INVITE_HEADER)) request.headers.delete(INVITE_HEADER);
  // A proof of work too (docs/bots.md): it is the room's, and a replayed one must not reach the origin's logs.
  if (exchange.proofHeader ?? request.headers.has(PROOF_HEADER)) request.headers.delete(PROOF_HEADER);
  let response: Response;
  let outcome: Omit<Outcome, 'status'> = { result };
  let revoked = false;
  // The origin's time to headers (docs/control/log.md), on the exchange's clock: the decision's own
  // time is not in it.
  const sentMs = deps.now();
  try {
    const answer = await deps.origin(request);
    outcome = { result, originMs: deps.now() - sentMs, originStatus: answer.status };
    const command = answer.headers.get(COMMAND_HEADER);
    revoked = command !== null && command.trim().toLowerCase() === 'revoke';
    // The origin's answer goes out as it is unless the room adds or removes a header: a copy costs ~0.15 ms.
    if (command === null && setToken === null) {
      logOutcome(exchange, { ...outcome, status: answer.status });
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
    // An answer that came and could not be passed on keeps its status and time.
    if (outcome.originStatus === undefined)
      outcome = { result, originMs: deps.now() - sentMs, originStatus: originFailure(error) };
    deps.diag(`origin: the backend failed (${error instanceof Error ? error.message : String(error)}); answering 502`);
    const language = languageOf(exchange);
    response = originUnavailable(language.language.strings);
    applyAnswerLanguage(response.headers, language);
    outcome = { ...outcome, originError: true, lang: language.language.strings.tag };
  }
  if (revoked) {
    response.headers.append('Set-Cookie', clearRoomCookie(exchange.config, exchange.https));
    outcome = { ...outcome, reason: 'revoked' };
  } else if (setToken !== null) {
    // A winner keeps their allow token even when the origin is down: they must not draw again.
    response.headers.append('Set-Cookie', setRoomCookie(setToken, exchange.config, exchange.https));
  }
  if (revoked || setToken !== null) response.headers.set('Cache-Control', NO_STORE);
  logOutcome(exchange, { ...outcome, status: response.status });
  return response;
}
