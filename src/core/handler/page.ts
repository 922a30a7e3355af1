// The waiting, countdown or deny answer, made at the edge: the origin never sees a queued request.
import { renderAnswer } from '../pages/index.js';
import { applyAnswerLanguage, variantPageKey, visitorVariant } from '../answer/index.js';
import { clearRoomCookie, setRoomCookie } from '../request/index.js';
import type { DecideResult } from '../decision/index.js';
import type { PageName } from '../types.js';
import { type Exchange, languageOf, NO_STORE, wantsJson } from './exchange.js';
import { logOutcome } from './log.js';

export function roomPage(exchange: Exchange, result: DecideResult): Response {
  const { config, deps, request } = exchange;
  const language = languageOf(exchange);
  // An A/B test of the waiting page (page_variants): the visitor's variant, by the token they hold after this answer.
  const variant = visitorVariant(config.pageVariants, result.set === null ? result.used?.sub : result.set.sub);
  let variantFallback: string | undefined;
  const storedKey = (name: PageName) => variantPageKey(name, config.pages, variant);
  const answer = renderAnswer({
    config,
    result,
    nowMs: exchange.nowMs,
    random: deps.random ?? Math.random,
    json: wantsJson(request),
    storedPage: (name) => {
      const key = storedKey(name);
      const stored = deps.stores.page(key);
      // A variant's page not stored: the built-in page (one read, as without a test), said once a sandbox.
      if (stored === null && key !== variantPageKey(name, config.pages, null)) {
        variantFallback = 'missing';
        exchange.note(
          `waiting_room_pages.${key} is missing: variant ${variant} shows the built-in page (npm run pages stores it)`,
        );
      }
      return stored;
    },
    storedKey,
    fellBack: (why) => (variantFallback = variant === null ? undefined : why),
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
  logOutcome(exchange, { result, status, lang: language.language.strings.tag, variant, variantFallback });
  return new Response(request.method === 'HEAD' ? null : answer.body, { status, headers });
}
