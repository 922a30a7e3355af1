// A made-up language for tests of what the room writes in a language other than English, before
// (and independently of) the translators' catalogs.
import type { PluralCategory } from '@messageformat/parser';
import { en, pl } from 'make-plural';
import { en as enCategories, pl as plCategories } from 'make-plural/pluralCategories';
import { enUS, type Catalog } from '../../../src/core/i18n/catalogs/en-US.js';
import type { Locale } from '../../../src/core/i18n/locales.js';
import type { PluralRule } from '../../../src/core/i18n/types.js';

/** A made-up language: Polish plurals (one, few, many, other), its own digits and separators. */
export const fakeLocale: Locale = {
  info: {
    tag: 'xx-PL',
    name: 'Fake',
    dir: 'rtl',
    number: { decimal: '٫', group: '٬', minimumGroupingDigits: 2, digits: '٠١٢٣٤٥٦٧٨٩' },
  },
  catalog: {
    ...enUS,
    durationMinutes:
      '{minutes, plural, one {ok. # minuta} few {ok. # minuty} many {ok. # minut} other {ok. # minuty*}}',
    durationHours:
      '{hours, plural, one {ok. # godzina} few {ok. # godziny} many {ok. # godzin} other {ok. # godziny*}}',
    durationRangeMinutes:
      '{to, plural, one {ok. {from}–# minuta} few {ok. {from}–# minuty} many {ok. {from}–# minut} other {ok. {from}–# minuty*}}',
    durationRange: 'od {from} do {to}',
    peopleAbout: '{count, plural, one {ok. # osoba} few {ok. # osoby} many {ok. # osób} other {ok. # osoby*}}',
    peopleExact: '{count, plural, one {# osoba} few {# osoby} many {# osób} other {# osoby*}}',
    dateUtc: '{weekday}, {day} {month} {year} {time} UTC',
    weekdays: 'nd|pn|wt|śr|cz|pt|sb',
    months: 'sty|lut|mar|kwi|maj|cze|lip|sie|wrz|paź|lis|gru',
  } as Catalog,
  plural: pl as PluralRule,
  categories: plCategories.cardinal as PluralCategory[],
};

/** English with every message marked `§`, so a test sees which words of a page came from the catalog. */
export const markedLocale: Locale = {
  ...fakeLocale,
  info: { ...fakeLocale.info, tag: 'xx-MK', name: 'Marked' },
  plural: en as PluralRule,
  categories: enCategories.cardinal as PluralCategory[],
  catalog: Object.fromEntries(
    Object.entries(enUS).map(([key, text]) => [
      key,
      key === 'weekdays' || key === 'months'
        ? text
            .split('|')
            .map((w) => `§${w}`)
            .join('|')
        : `§${text}`,
    ]),
  ) as Catalog,
};
