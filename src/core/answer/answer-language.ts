// The language of an answer the room makes itself (a page, the JSON answer, the 429, the 502): chosen
// among the room's languages (i18n/negotiate.ts), its strings under the operator's overrides from
// `waiting_room_pages` (the room's page set's, then the shared ones), and what the answer carries
// for it (the `wr_lang` cookie when the visitor picked a language, `Vary: Accept-Language`). Worked
// out only when the room answers: a visitor on their way to the origin never pays for it.
import { cookieValue, LANGUAGE_COOKIE, setLanguageCookie } from '../request/index.js';
import {
  chooseLanguage,
  checkOverrides,
  overridesKey,
  type CheckedOverrides,
  type PageLanguage,
  Strings,
  type OverrideMessages,
} from '../i18n/index.js';
import type { Config, RoomDeps } from '../types.js';

/** The query parameter the language links set (the origin gets it untouched). */
import { LANGUAGE_PARAM } from './language-links.js';

export interface AnswerLanguageInput {
  config: Config;
  url: URL;
  /** The request's Cookie header as it came. */
  cookieHeader: string | null;
  acceptLanguage: string | null;
  https: boolean;
  deps: Pick<RoomDeps, 'stores' | 'memory' | 'diag'>;
}

export interface AnswerLanguage {
  language: PageLanguage;
  /** The `wr_lang` Set-Cookie, when the query chose a language the cookie does not say yet. */
  setCookie: string | null;
  /** The answer varies with Accept-Language: the room offers more than one language. */
  vary: boolean;
}

/** The overrides under `key`, parsed once per raw value in a reused sandbox, their problems said at each parse. */
function overrides(key: string, tag: string, deps: AnswerLanguageInput['deps']): OverrideMessages {
  const raw = deps.stores.page(key);
  if (raw === null) return {};
  const parse = (): CheckedOverrides => {
    const checked = checkOverrides(tag, raw);
    for (const p of checked.problems)
      deps.diag(`waiting_room_pages.${key}${p.key === '' ? '' : `: ${p.key}`} ${p.message}`);
    return checked;
  };
  return (deps.memory ? deps.memory.parsed(`strings ${key}`, [raw], parse) : parse()).messages;
}

export function answerLanguage({
  config,
  url,
  cookieHeader,
  acceptLanguage,
  https,
  deps,
}: AnswerLanguageInput): AnswerLanguage {
  // Read as the links write and replace it (pages-view.ts): by its decoded name, the first one.
  const query = url.search === '' ? null : url.searchParams.get(LANGUAGE_PARAM);
  const cookie = cookieValue(cookieHeader, LANGUAGE_COOKIE);
  const { locale, source } = chooseLanguage({
    query,
    cookie,
    acceptLanguage,
    offered: config.languages,
    defaultTag: config.defaultLanguage,
  });
  const tag = locale.info.tag;
  // At most two lookups, and only here: the room's page set's wording, then the shared one.
  const own = config.pages === null ? {} : overrides(overridesKey(tag, config.pages), tag, deps);
  const shared = overrides(overridesKey(tag, null), tag, deps);
  const language: PageLanguage = {
    strings: new Strings(locale, [own, shared]),
    offered: config.languages,
    search: url.search,
    message: config.messages[tag] ?? config.message,
  };
  // A stored template written in one language gets the room's default (its overrides not read: such a
  // template prints none of the catalog's strings, only figures).
  const home = config.languages.find((l) => l.info.tag === config.defaultLanguage);
  if (home !== undefined && home !== locale) {
    language.single = {
      strings: new Strings(home),
      offered: config.languages,
      search: url.search,
      message: config.messages[home.info.tag] ?? config.message,
    };
  }
  return {
    language,
    setCookie: source === 'query' && cookie !== tag ? setLanguageCookie(tag, config, https) : null,
    vary: config.languages.length > 1,
  };
}

/** Adds what the answer carries for its language: the cookie and Vary. */
export function applyAnswerLanguage(headers: Headers, language: AnswerLanguage): void {
  if (language.setCookie !== null) headers.append('Set-Cookie', language.setCookie);
  if (language.vary) headers.append('Vary', 'Accept-Language');
}
