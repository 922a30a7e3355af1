// The languages the room ships: each catalog (catalogs/TAG.ts) with its plural rule and categories
// from make-plural (CLDR's rules as plain functions: the runtime has no Intl.PluralRules).
import type { PluralCategory } from '@messageformat/parser';
import { en } from 'make-plural';
import { en as enCategories } from 'make-plural/pluralCategories';
import { pl } from 'make-plural';
import { pl as plCategories } from 'make-plural/pluralCategories';
import { ar } from 'make-plural';
import { ar as arCategories } from 'make-plural/pluralCategories';
import { ru } from 'make-plural';
import { ru as ruCategories } from 'make-plural/pluralCategories';
import { fa } from 'make-plural';
import { fa as faCategories } from 'make-plural/pluralCategories';
import { he } from 'make-plural';
import { he as heCategories } from 'make-plural/pluralCategories';
import * as arEG from './catalogs/ar-EG.js';
import * as enUS from './catalogs/en-US.js';
import * as faIR from './catalogs/fa-IR.js';
import * as heIL from './catalogs/he-IL.js';
import * as plPL from './catalogs/pl-PL.js';
import * as ruRU from './catalogs/ru-RU.js';
import type { Catalog } from './catalogs/en-US.js';
import type { LocaleInfo, PluralRule } from './types.js';

export interface Locale {
  info: LocaleInfo;
  catalog: Catalog;
  plural: PluralRule;
  /** The cardinal plural categories the language has: every plural in its catalog has a case for each. */
  categories: readonly PluralCategory[];
}

function locale(module: { info: LocaleInfo; catalog: Catalog }, plural: PluralRule, categories: { cardinal: readonly string[] }): Locale {
  return { info: module.info, catalog: module.catalog, plural, categories: categories.cardinal as PluralCategory[] };
}

/** Every built-in language, in the order the language links list them. */
export const LOCALES: readonly Locale[] = [
  locale(enUS, en as PluralRule, enCategories),
  locale(plPL, pl as PluralRule, plCategories),
  locale(arEG, ar as PluralRule, arCategories),
  locale(ruRU, ru as PluralRule, ruCategories),
  locale(faIR, fa as PluralRule, faCategories),
  locale(heIL, he as PluralRule, heCategories),
];

export const DEFAULT_TAG = 'en-US';

const BY_TAG = new Map(LOCALES.map((l) => [l.info.tag.toLowerCase(), l]));

/** The built-in locale with this tag (any case), or undefined. */
export function localeByTag(tag: string): Locale | undefined {
  return BY_TAG.get(tag.toLowerCase());
}

export const LOCALE_TAGS: readonly string[] = LOCALES.map((l) => l.info.tag);
