// The settings of the room's languages (docs/configuration.md): `languages`, the tags the room offers
// in the order its links list them; `default_language`, for a visitor who asks for none of them; and
// `message.TAG`, the operator's message in one language. Each unusable part is a problem named by its
// key, and the room goes on with the rest (all built-in languages when none is left).
import type { Reader } from './config-reader.js';
import { parseMessage } from './config-events.js';
import { DEFAULT_TAG, LOCALE_TAGS, LOCALES, localeByTag, type Locale } from '../i18n/index.js';

/** The settings `message.TAG` are named so: one per built-in language. */
export const MESSAGE_PREFIX = 'message.';
/** The row of docs/configuration.md (and settingsTable) that stands for every `message.TAG`. */
export const MESSAGE_TAG_SETTING = 'message.TAG';

/** `message.ja-jp` -> `message.ja-JP`; null for a name that is not `message.` and a built-in tag. */
export function messageSetting(name: string): string | null {
  if (!name.startsWith(MESSAGE_PREFIX)) return null;
  const locale = localeByTag(name.slice(MESSAGE_PREFIX.length));
  return locale === undefined ? null : `${MESSAGE_PREFIX}${locale.info.tag}`;
}

export interface LanguageSettings {
  /** `languages`: what the room offers, in the order its language links list them; never empty. */
  languages: readonly Locale[];
  /** `default_language`: the tag of one of `languages`. */
  defaultLanguage: string;
  /** `message.TAG` by tag: the operator's message in that language, for the languages that have one. */
  messages: Readonly<Record<string, string>>;
}

function parseLanguages(r: Reader): readonly Locale[] {
  const key = 'languages';
  const value = r.raw(key);
  if (value === null) return LOCALES;
  const offered: Locale[] = [];
  for (const part of value.split(',')) {
    const tag = part.trim();
    if (tag === '') continue;
    const locale = localeByTag(tag);
    if (locale === undefined)
      r.problem(key, tag.slice(0, 40), `must list built-in languages (${LOCALE_TAGS.join(', ')})`, 'skipping this one');
    else if (!offered.includes(locale)) offered.push(locale);
  }
  if (offered.length > 0) return offered;
  r.problem(key, value.slice(0, 60), 'names no built-in language', 'offering all of them');
  return LOCALES;
}

function parseDefaultLanguage(r: Reader, languages: readonly Locale[]): string {
  const key = 'default_language';
  const value = r.raw(key);
  const wanted = localeByTag(value ?? DEFAULT_TAG);
  if (wanted !== undefined && languages.includes(wanted)) return wanted.info.tag;
  const first = languages[0]!.info.tag;
  // Unset, the default (en-US) stands back for the first language a room offers without it.
  if (value !== null)
    r.problem(
      key,
      value,
      `must be one of the languages the room offers (${languages.map((l) => l.info.tag).join(', ')})`,
      `using ${first}`,
    );
  return first;
}

export function parseLanguageSettings(r: Reader): LanguageSettings {
  const languages = parseLanguages(r);
  const messages: Record<string, string> = {};
  for (const tag of LOCALE_TAGS) {
    const text = parseMessage(r, `${MESSAGE_PREFIX}${tag}`);
    if (text !== '') messages[tag] = text;
  }
  return { languages, defaultLanguage: parseDefaultLanguage(r, languages), messages };
}
