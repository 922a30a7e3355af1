// The language links at the foot of every built-in page: one per language the room offers, each the
// request's own query with `wr_lang` set to it (so a visitor on /item?id=5 stays on it). The built-in
// pages print them ready-made (`languageLinksHtml`): a Mustache loop over eighteen links cost the
// runtime's interpreter about a millisecond a page, this a string join. Templates of one's own may
// loop over `languageLinks` instead; both give the same HTML (test/core/language-links.test.ts).
import type { Locale, PageLanguage } from '../i18n/index.js';
import { escapeHtml } from './html-text.js';
import { sandboxMemory } from '../memory/index.js';

/** The query parameter (and cookie) that names a visitor's choice of language. */
export const LANGUAGE_PARAM = 'wr_lang';

export interface LanguageLink {
  tag: string;
  name: string;
  href: string;
  current: boolean;
}

/** A query part's name as URLSearchParams reads it (`wr%5Flang` is `wr_lang`), or the part as written when it cannot be decoded. */
function paramName(part: string): string {
  const name = part.split('=')[0]!;
  if (!name.includes('%') && !name.includes('+')) return name;
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** The request's query without any `wr_lang`, every other parameter as it was written; '' for none. */
function otherParams(search: string): string {
  if (search === '' || search === '?') return '';
  return search
    .replace(/^\?/, '')
    .split('&')
    .filter((p) => p !== '' && paramName(p) !== LANGUAGE_PARAM)
    .join('&');
}

/** The request's query with `wr_lang` set to `tag`, last: every other parameter kept as it was written. */
export function languageHref(search: string, tag: string): string {
  const others = otherParams(search);
  return `?${others === '' ? '' : `${others}&`}${LANGUAGE_PARAM}=${encodeURIComponent(tag)}`;
}

export function languageLinks(language: PageLanguage): LanguageLink[] {
  const chosen = language.strings.tag;
  return language.offered.map((l) => ({
    tag: l.info.tag,
    name: l.info.name,
    href: languageHref(language.search, l.info.tag),
    current: l.info.tag === chosen,
  }));
}

/**
 * Each link's HTML after its href's query prefix, by offered list and chosen language: the same for
 * every answer of a room in one language, so made once per sandbox. Keyed by the list itself (a room's
 * parsed settings are kept while they do not change), so an answer never walks the 38 tags to find them.
 */
const linkTails = sandboxMemory.perObject<readonly Locale[], string, readonly string[]>(
  'derived',
  'language links as HTML',
  64,
);

/** The links as the built-in templates' markup would print them from `languageLinks`, escaped as Mustache escapes. */
export function languageLinksHtml(language: PageLanguage): string {
  const chosen = language.strings.tag;
  const byChosen = linkTails.of(language.offered);
  let tails = byChosen.get(chosen);
  if (tails === undefined) {
    tails = language.offered.map((l) => {
      const tag = escapeHtml(l.info.tag);
      const current = l.info.tag === chosen ? ' aria-current="true"' : '';
      return `${escapeHtml(`${LANGUAGE_PARAM}=${encodeURIComponent(l.info.tag)}`)}" lang="${tag}" hreflang="${tag}"${current}>${escapeHtml(l.info.name)}</a> `;
    });
    byChosen.set(chosen, tails);
  }
  const others = otherParams(language.search);
  const head = `<a href="${escapeHtml(`?${others === '' ? '' : `${others}&`}`)}`;
  return head + tails.join(head);
}
