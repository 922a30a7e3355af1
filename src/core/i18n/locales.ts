// The languages the room ships: each catalog (catalogs/TAG.ts) with its plural rule and categories
// from make-plural (CLDR's rules as plain functions: the runtime has no Intl.PluralRules).
import type { PluralCategory } from '@messageformat/parser';
import { en } from 'make-plural';
import { en as enCategories } from 'make-plural/pluralCategories';
import { ja } from 'make-plural';
import { ja as jaCategories } from 'make-plural/pluralCategories';
import { ko } from 'make-plural';
import { ko as koCategories } from 'make-plural/pluralCategories';
import { zh } from 'make-plural';
import { zh as zhCategories } from 'make-plural/pluralCategories';
import { id } from 'make-plural';
import { id as idCategories } from 'make-plural/pluralCategories';
import { tr } from 'make-plural';
import { tr as trCategories } from 'make-plural/pluralCategories';
import * as enUS from './catalogs/en-US.js';
import * as jaJP from './catalogs/ja-JP.js';
import * as koKR from './catalogs/ko-KR.js';
import * as zhCN from './catalogs/zh-CN.js';
import * as zhTW from './catalogs/zh-TW.js';
import * as idID from './catalogs/id-ID.js';
import * as trTR from './catalogs/tr-TR.js';
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
  locale(jaJP, ja as PluralRule, jaCategories),
  locale(koKR, ko as PluralRule, koCategories),
  locale(zhCN, zh as PluralRule, zhCategories),
  locale(zhTW, zh as PluralRule, zhCategories),
  locale(idID, id as PluralRule, idCategories),
  locale(trTR, tr as PluralRule, trCategories),
];

export const DEFAULT_TAG = 'en-US';

const BY_TAG = new Map(LOCALES.map((l) => [l.info.tag.toLowerCase(), l]));

/** The built-in locale with this tag (any case), or undefined. */
export function localeByTag(tag: string): Locale | undefined {
  return BY_TAG.get(tag.toLowerCase());
}

export const LOCALE_TAGS: readonly string[] = LOCALES.map((l) => l.info.tag);
