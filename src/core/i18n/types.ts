// What a language is to the room: its tag, its own name, its direction and how it writes numbers.
// The runtime has no Intl, so these are data, held equal to what Intl writes by a test
// (test/core/i18n/locales.test.ts, under Node, whose Intl has every locale).
import type { PluralCategory } from '@messageformat/parser';

export interface NumberSymbols {
  /** Between the whole part and the fraction: '.' in en-US, ',' in de-DE, '٫' in ar-EG. */
  decimal: string;
  /** Between groups of three digits: ',' in en-US, '.' in de-DE, U+202F in fr-FR, '٬' in ar-EG. */
  group: string;
  /** 2 where a four-digit number is written without a group separator (es-ES, pl-PL: "1200" but "12 000"). */
  minimumGroupingDigits: 1 | 2;
  /** The size of the groups after the first three, when not three: 2 in hi-IN ("12,34,567"). */
  secondaryGroup?: 2;
  /** The ten digits, 0 to 9, as the locale's default numbering system writes them. */
  digits: string;
}

export interface LocaleInfo {
  /** BCP 47 tag, as the page's `lang` says it: `de-DE`, `zh-TW`. */
  tag: string;
  /** The language's name in itself, for the language links: `Deutsch`, `日本語`. */
  name: string;
  dir: 'ltr' | 'rtl';
  number: NumberSymbols;
}

export type PluralRule = (n: number | string) => PluralCategory;
