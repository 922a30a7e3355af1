// Which of the room's languages an answer speaks: the visitor's explicit choice (the language links'
// `wr_lang` query parameter, then the `wr_lang` cookie they set), then the browser's Accept-Language,
// then the room's default_language. Only languages the room offers count. Pure and bounded: a header
// of any size or shape costs at most MAX_HEADER_CHARS characters and MAX_RANGES entries, and never throws.
import { sandboxMemory } from '../memory/index.js';
import { LOCALES, type Locale } from './locales.js';

/** The most characters of an Accept-Language header read; browsers send well under 200. */
export const MAX_HEADER_CHARS = 1024;
/** The most language ranges read from one header. */
export const MAX_RANGES = 32;

export interface LanguageRange {
  /** The tag as sent (any case); never `*`. */
  tag: string;
  /** 0 < q <= 1. */
  q: number;
}

// RFC 5646 in its loose shape: letters, then subtags of letters and digits (private-use `x-` kept).
const TAG = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/;
const QVALUE = /^q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i;

/**
 * The ranges of an Accept-Language header the visitor accepts, most wanted first: q=0 and `*` left
 * out, ties kept in the header's order, anything unreadable skipped.
 */
export function parseAcceptLanguage(header: string | null): LanguageRange[] {
  if (header === null) return [];
  const ranges: LanguageRange[] = [];
  const parts = header.slice(0, MAX_HEADER_CHARS).split(',', MAX_RANGES);
  for (const part of parts) {
    const semi = part.indexOf(';');
    const tag = (semi < 0 ? part : part.slice(0, semi)).trim();
    if (!TAG.test(tag)) continue;
    let q = 1;
    if (semi >= 0) {
      const m = QVALUE.exec(part.slice(semi + 1).trim());
      if (m === null) continue;
      q = Number(m[1]);
    }
    if (q > 0) ranges.push({ tag, q });
  }
  // Array.prototype.sort is stable: equal q keep the header's order.
  return ranges.sort((a, b) => b.q - a.q);
}

const TRADITIONAL_REGIONS = new Set(['tw', 'hk', 'mo']);

/** The Chinese locale a `zh` tag asks for, by its script, else its region, else Simplified. */
function chineseTarget(subtags: readonly string[]): 'zh-tw' | 'zh-cn' {
  if (subtags.includes('hant')) return 'zh-tw';
  if (subtags.includes('hans')) return 'zh-cn';
  // zh-CN, zh-SG and a bare zh are Simplified.
  return subtags.some((s) => TRADITIONAL_REGIONS.has(s)) ? 'zh-tw' : 'zh-cn';
}

/**
 * Languages whose readers are served another tag's: Norwegian (`no`) and Nynorsk (`nn`) readers read
 * Bokmål; Filipino (`fil`) is the standard Tagalog (`tl-PH`); `iw` and `in` are the old codes of
 * Hebrew and Indonesian that Java, and so older Android browsers, still send.
 */
const SAME_LANGUAGE: Readonly<Record<string, string>> = { no: 'nb', nn: 'nb', fil: 'tl', iw: 'he', in: 'id' };

/**
 * The offered locale that serves `requested`: the same tag (any case); for Chinese, the one of its
 * script (zh-Hant, zh-TW, zh-HK, zh-MO: zh-TW; zh, zh-Hans, zh-CN, zh-SG: zh-CN), and no other, as
 * the two scripts are not interchangeable; else the first offered of the same language (pt-PT: pt-BR,
 * en-GB: en-US; Serbian in either script and any country: sr-BA, written in Latin, which readers of
 * both scripts read), counting `no` and `nn` as `nb`, `fil` as `tl`. Null when the room offers nothing for it.
 */
export function matchLocale(requested: string, offered: readonly Locale[]): Locale | null {
  const lower = requested.trim().toLowerCase();
  if (lower === '' || lower === '*') return null;
  for (const l of offered) if (l.info.tag.toLowerCase() === lower) return l;
  const subtags = lower.split('-');
  const primary = SAME_LANGUAGE[subtags[0]!] ?? subtags[0]!;
  if (primary === 'zh') {
    const target = chineseTarget(subtags.slice(1));
    return offered.find((l) => l.info.tag.toLowerCase() === target) ?? null;
  }
  return offered.find((l) => l.info.tag.toLowerCase().split('-')[0] === primary) ?? null;
}

export type LanguageSource = 'query' | 'cookie' | 'header' | 'default';

export interface LanguageRequest {
  /** The `wr_lang` query parameter, null when absent. */
  query: string | null;
  /** The `wr_lang` cookie, null when absent. */
  cookie: string | null;
  /** The Accept-Language header, null when absent. */
  acceptLanguage: string | null;
  /** The room's languages (never empty in a parsed Config). */
  offered: readonly Locale[];
  /** The room's default_language. */
  defaultTag: string;
}

/**
 * What each Accept-Language header chose among one list of languages, kept for the sandbox: browsers
 * send a handful of headers over and over, and working one out (ranges, q-values, each against every
 * offered tag) costs the runtime's interpreter about a tenth of a millisecond. Keyed by the list
 * itself (a room's parsed settings are kept while they do not change), bounded per list.
 */
const headerChoices = sandboxMemory.perObject<readonly Locale[], string, Locale | null>(
  'derived',
  'Accept-Language headers chosen',
  256,
);

function headerChoice(header: string | null, offered: readonly Locale[]): Locale | null {
  if (header === null) return null;
  const choices = headerChoices.of(offered);
  let choice = choices.get(header);
  if (choice === undefined) {
    choice = null;
    for (const range of parseAcceptLanguage(header)) {
      choice = matchLocale(range.tag, offered);
      if (choice !== null) break;
    }
    choices.set(header, choice);
  }
  return choice;
}

/** The language of one answer, and what chose it. */
export function chooseLanguage(request: LanguageRequest): { locale: Locale; source: LanguageSource } {
  const { offered } = request;
  // A tag longer than any real one is garbage: not worth a look.
  const named = (tag: string | null): Locale | null =>
    tag === null || tag.length > 35 ? null : matchLocale(tag, offered);
  const fromQuery = named(request.query);
  if (fromQuery !== null) return { locale: fromQuery, source: 'query' };
  const fromCookie = named(request.cookie);
  if (fromCookie !== null) return { locale: fromCookie, source: 'cookie' };
  const fromHeader = headerChoice(request.acceptLanguage, offered);
  if (fromHeader !== null) return { locale: fromHeader, source: 'header' };
  const fallback =
    offered.find((l) => l.info.tag.toLowerCase() === request.defaultTag.toLowerCase()) ?? offered[0] ?? LOCALES[0]!;
  return { locale: fallback, source: 'default' };
}
