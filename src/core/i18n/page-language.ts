// The language an answer speaks, as the handler hands it to the answer's renderer: the strings (the
// chosen locale under the operator's overrides), the room's languages for the links, the request's
// query for their hrefs, and the operator's message in that language.
import type { Locale } from './locales.js';
import type { Strings } from './strings.js';

export interface PageLanguage {
  strings: Strings;
  /** The room's languages, in the order the links list them. */
  offered: readonly Locale[];
  /** The request's query (`url.search`, with its `?`, or ''), kept in the language links. */
  search: string;
  /** The operator's message in this language (`message.TAG`, else `message`), '' when none. */
  message: string;
  /**
   * The room's default language, for a stored template written in one language (it prints none of
   * `t.*`, `lang`, `dir`, the links): its figures in the template's words' language, not the visitor's.
   * Absent: this one.
   */
  single?: PageLanguage;
}
