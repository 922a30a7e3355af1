// What the pages and the JSON answer say about time and people, in the answer's language: waits
// ("about 3 minutes"), ranges of waits, visitors ahead, the UTC date of a start, the wait's summary.
// The rounding is the room's (estimates are rough: a random draw), the words the catalog's.
import { enUS, type MessageKey } from './catalogs/en-US.js';
import { DEFAULT_TAG, LOCALES, localeByTag } from './locales.js';
import { formatDigits } from './number.js';
import { sandboxMemory } from '../memory/index.js';
import type { PageLanguage } from './page-language.js';
import { Strings } from './strings.js';

/** English with no overrides, for an answer whose renderer was handed no language. */
export function englishLanguage(message: string): PageLanguage {
  const locale = localeByTag(DEFAULT_TAG)!;
  return { strings: new Strings(locale), offered: [locale], search: '', message };
}

/**
 * Formatted messages kept for the sandbox's next answers: a wait or a count takes the runtime tens of
 * microseconds to word (plural rule, number), and a page words several. Keyed by the message as
 * written (the operator's override or the catalog's) and its arguments, so a changed override is a
 * new entry; bounded, since the arguments are the room's rounded figures and repeat.
 */
const worded = sandboxMemory.table<string, string>('derived', 'messages worded', 512);

/** `strings.text(key, args)`, kept for the sandbox's next answers. */
export function wordedText(
  strings: Strings,
  key: MessageKey,
  args: Readonly<Record<string, string | number>> = {},
): string {
  // A built-in message is named by its language and key; an operator's by its text too, so a changed override is a new entry.
  let id = strings.builtin(key)
    ? `${strings.tag}\u0000${key}`
    : `${strings.tag}\u0000${key}\u0001${strings.source(key)}`;
  for (const name in args) id += `\u0000${args[name]}`;
  let text = worded.get(id);
  if (text === undefined) {
    text = strings.text(key, args);
    worded.set(id, text);
  }
  return text;
}

/** A wait as the catalog buckets it: unknown, under a minute, whole minutes, half hours. */
type Bucket = { unit: 'unknown' | 'underMinute' } | { unit: 'minutes' | 'hours'; n: number };

function bucket(seconds: number): Bucket {
  if (!Number.isFinite(seconds) || seconds < 0) return { unit: 'unknown' };
  if (seconds < 60) return { unit: 'underMinute' };
  const minutes = Math.round(seconds / 60);
  if (minutes <= 1) return { unit: 'minutes', n: 1 };
  if (minutes < 60) return { unit: 'minutes', n: minutes };
  // Half hours are precise enough past an hour.
  return { unit: 'hours', n: Math.round(seconds / 1800) / 2 };
}

function bucketText(strings: Strings, b: Bucket): string {
  switch (b.unit) {
    case 'unknown':
      return strings.text('durationUnknown');
    case 'underMinute':
      return strings.text('durationUnderMinute');
    case 'minutes':
      return wordedText(strings, 'durationMinutes', { minutes: b.n });
    case 'hours':
      return wordedText(strings, 'durationHours', { hours: b.n });
  }
}

/**
 * A wait as people say it. Estimates are rough (a random draw), so round generously rather than
 * show false precision: "about 3 minutes", never "2 minutes 47 seconds".
 */
export function formatDuration(strings: Strings, seconds: number): string {
  return bucketText(strings, bucket(seconds));
}

/**
 * A range of waits: "about 2 to 10 minutes" when both ends count the same unit (and neither is the
 * single one, "about a minute"), else "less than a minute to about 3 minutes".
 */
export function formatDurationRange(
  strings: Strings,
  fromSeconds: number,
  toSeconds: number,
  /** Each end as formatDuration words it, when the caller has it already. */
  from = formatDuration(strings, fromSeconds),
  to = formatDuration(strings, toSeconds),
): string {
  const a = bucket(fromSeconds);
  const b = bucket(toSeconds);
  if (from === to) return from;
  if ((a.unit === 'minutes' || a.unit === 'hours') && b.unit === a.unit && 'n' in b && a.n !== 1 && b.n !== 1) {
    return wordedText(strings, a.unit === 'minutes' ? 'durationRangeMinutes' : 'durationRangeHours', {
      from: a.n,
      to: b.n,
    });
  }
  return wordedText(strings, 'durationRange', { from, to });
}

/**
 * Visitors ahead, as people say it. The count is the controller's estimate of who will still be
 * there, so it is rounded (to 5 under a hundred, 10 under a thousand, then 100): "about 1,200
 * people" promises no more precision than it has. Null when there is no count.
 */
export function formatPeople(strings: Strings, count: number | null): string | null {
  if (count === null || !Number.isFinite(count) || count < 0) return null;
  const n = Math.round(count);
  if (n === 0) return strings.text('peopleNone');
  if (n < 10) return wordedText(strings, 'peopleExact', { count: n });
  const step = n < 100 ? 5 : n < 1000 ? 10 : 100;
  return wordedText(strings, 'peopleAbout', { count: Math.round(n / step) * step });
}

/**
 * A moment as people read it, in UTC and saying so: "Tuesday 1 December 2026, 10:00 UTC". The
 * runtime has no Intl, so no local zone here: the countdown's script shows the visitor's own time and
 * zone, and this is what a page without script shows. Null for what is not a time.
 */
export function formatUtc(strings: Strings, iso: string | null): string | null {
  const t = iso === null ? NaN : Date.parse(iso);
  if (!Number.isFinite(t)) return null;
  const d = new Date(t);
  const digits = (n: number, width = 1) => formatDigits(String(n).padStart(width, '0'), strings.locale.info.number);
  return strings.text('dateUtc', {
    weekday: strings.list('weekdays')[d.getUTCDay()] ?? '',
    day: digits(d.getUTCDate()),
    month: strings.list('months')[d.getUTCMonth()] ?? '',
    year: digits(d.getUTCFullYear()),
    time: `${digits(d.getUTCHours(), 2)}:${digits(d.getUTCMinutes(), 2)}`,
  });
}

/** The three wait figures, in seconds. */
export interface Estimate {
  p25: number;
  p50: number;
  p75: number;
}

/** The three figures in words, as formatDuration words each. */
export type EstimateWords = readonly [string, string, string];

export function estimateWords(strings: Strings, e: Estimate): EstimateWords {
  return [formatDuration(strings, e.p25), formatDuration(strings, e.p50), formatDuration(strings, e.p75)];
}

/** The three figures read the same: one sentence says it instead of the same words three times. */
export function estimateCoincides(words: EstimateWords): boolean {
  return words[0] === words[1] && words[1] === words[2];
}

/**
 * The wait in one phrase: the 25–75 % range, or "Most visitors get in within …" when the three
 * figures read the same; while the room has no forecast, the words saying it is being worked out;
 * null when there is nothing to say.
 */
export function waitSummary(
  strings: Strings,
  estimate: Estimate | null,
  pending: boolean,
  words = estimate && estimateWords(strings, estimate),
): string | null {
  if (estimate === null || words === null) return pending ? strings.text('waitPending') : null;
  if (!estimateCoincides(words)) return formatDurationRange(strings, estimate.p25, estimate.p75, words[0], words[2]);
  return estimate.p75 < 60
    ? strings.text('waitWithinMinute')
    : wordedText(strings, 'waitWithin', { duration: words[2] });
}

/**
 * Every built-in message of the default language compiled into the sandbox's memory, for the
 * build-time snapshot (src/core/warm.ts). Only English: each compiled message is objects in the heap,
 * and the runtime collects the whole heap after every request of a reused sandbox, so the seventeen
 * other languages compiled in the snapshot cost every request about 0.3 ms on the local host whatever
 * its language (bench/room-account.ts). Another language's catalog is parsed (the build stores it as
 * one string, locales.ts) and its messages compiled the first time a sandbox answers in it, and kept
 * for the rest of that sandbox's life (up to 1,000 requests).
 * Returns how many messages it formatted.
 */
export function warmPageText(): number {
  const strings = new Strings(localeByTag(DEFAULT_TAG)!);
  const keys = Object.keys(enUS) as MessageKey[];
  for (const key of keys) strings.text(key);
  return keys.length;
}
