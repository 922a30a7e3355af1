// hammer_limit (hammer.ts): a wait token checking too often before it is due gets a 429, cheaply,
// before any signature is checked. Null when the request is not hammering.
import { applyAnswerLanguage, checkHammering, hammeringResponse, hammeringResult } from '../answer/index.js';
import { type Exchange, languageOf, wantsJson } from './exchange.js';
import { logOutcome } from './log.js';

export function hammering(exchange: Exchange): Response | null {
  const { config, request, deps, nowMs, note } = exchange;
  if (config.hammerLimit <= 0) return null;
  const hammered = checkHammering({ config, tokens: exchange.cookies.tokens, nowMs, deps, note });
  if (hammered === null) return null;
  const language = languageOf(exchange);
  logOutcome(exchange, { result: hammeringResult(hammered), status: 429, lang: language.language.strings.tag });
  const response = hammeringResponse(
    hammered,
    wantsJson(request),
    request.method === 'HEAD',
    language.language.strings,
  );
  applyAnswerLanguage(response.headers, language);
  return response;
}
