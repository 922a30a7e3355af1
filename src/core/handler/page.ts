// The waiting, countdown or deny answer, made at the edge: the origin never sees a queued request.
import { renderAnswer } from '../pages/index.js';
import { applyAnswerLanguage } from '../answer/index.js';
import { clearRoomCookie, setRoomCookie } from '../request/index.js';
import type { DecideResult } from '../decision/index.js';
import { type Exchange, languageOf, NO_STORE, wantsJson } from './exchange.js';
import { logOutcome } from './log.js';

export function roomPage(exchange: Exchange, result: DecideResult): Response {
  const { config, deps, request } = exchange;
  const language = languageOf(exchange);
  const answer = renderAnswer({
    config,
    result,
    nowMs: exchange.nowMs,
    random: deps.random ?? Math.random,
    json: wantsJson(request),
    storedPage: (name) => deps.stores.page(config.pages === null ? name : `${config.pages}.${name}`),
    diag: deps.diag,
    language: language.language,
  });
  const headers = new Headers({
    'Cache-Control': NO_STORE,
    'Retry-After': String(answer.facts.retryAfterSeconds),
    'Content-Type': answer.contentType,
  });
  if (result.setToken !== null) headers.append('Set-Cookie', setRoomCookie(result.setToken, config, exchange.https));
  else if (result.clearCookie) headers.append('Set-Cookie', clearRoomCookie(config, exchange.https));
  applyAnswerLanguage(headers, language);
  const status = answer.facts.status;
  logOutcome(exchange, { result, status, lang: language.language.strings.tag });
  return new Response(request.method === 'HEAD' ? null : answer.body, { status, headers });
}
