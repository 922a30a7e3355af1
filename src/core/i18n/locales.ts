// The languages the room ships: each catalog (catalogs/TAG.ts) with its plural rule and categories
// from make-plural (CLDR's rules as plain functions: the runtime has no Intl.PluralRules).
import type { PluralCategory } from '@messageformat/parser';
import { ar, de, en, es, fa, fr, he, id, it, ja, ko, nl, pl, pt, ru, tr, zh } from 'make-plural';
import * as categories from 'make-plural/pluralCategories';
import * as arEG from './catalogs/ar-EG.js';
import * as deDE from './catalogs/de-DE.js';
import * as enUS from './catalogs/en-US.js';
import * as esES from './catalogs/es-ES.js';
import * as faIR from './catalogs/fa-IR.js';
import * as frFR from './catalogs/fr-FR.js';
import * as heIL from './catalogs/he-IL.js';
import * as idID from './catalogs/id-ID.js';
import * as itIT from './catalogs/it-IT.js';
import * as jaJP from './catalogs/ja-JP.js';
import * as koKR from './catalogs/ko-KR.js';
import * as nlNL from './catalogs/nl-NL.js';
import * as plPL from './catalogs/pl-PL.js';
import * as ptBR from './catalogs/pt-BR.js';
import * as ruRU from './catalogs/ru-RU.js';
import * as trTR from './catalogs/tr-TR.js';
import * as zhCN from './catalogs/zh-CN.js';
import * as zhTW from './catalogs/zh-TW.js';
import type { Catalog } from './catalogs/en-US.js';
import type { LocaleInfo, PluralRule } from './types.js';

export interface Locale {
  info: LocaleInfo;
  catalog: Catalog;
  plural: PluralRule;
  /** The cardinal plural categories the language has: every plural in its catalog has a case for each. */
  categories: readonly PluralCategory[];
}

function locale(
  module: { info: LocaleInfo; catalog: Catalog },
  plural: PluralRule,
  categories: { cardinal: readonly string[] },
): Locale {
  return { info: module.info, catalog: module.catalog, plural, categories: categories.cardinal as PluralCategory[] };
}

/** Every built-in language, in the order the language links list them. */
export const LOCALES: readonly Locale[] = [
  locale(enUS, en as PluralRule, categories.en),
  locale(esES, es as PluralRule, categories.es),
  locale(deDE, de as PluralRule, categories.de),
  locale(frFR, fr as PluralRule, categories.fr),
  locale(itIT, it as PluralRule, categories.it),
  locale(jaJP, ja as PluralRule, categories.ja),
  locale(koKR, ko as PluralRule, categories.ko),
  locale(ptBR, pt as PluralRule, categories.pt),
  locale(zhCN, zh as PluralRule, categories.zh),
  locale(zhTW, zh as PluralRule, categories.zh),
  locale(nlNL, nl as PluralRule, categories.nl),
  locale(plPL, pl as PluralRule, categories.pl),
  locale(idID, id as PluralRule, categories.id),
  locale(trTR, tr as PluralRule, categories.tr),
  locale(arEG, ar as PluralRule, categories.ar),
  locale(ruRU, ru as PluralRule, categories.ru),
  locale(faIR, fa as PluralRule, categories.fa),
  locale(heIL, he as PluralRule, categories.he),
];

export const DEFAULT_TAG = 'en-US';

const BY_TAG = new Map(LOCALES.map((l) => [l.info.tag.toLowerCase(), l]));

/** The built-in locale with this tag (any case), or undefined. */
export function localeByTag(tag: string): Locale | undefined {
  return BY_TAG.get(tag.toLowerCase());
}

export const LOCALE_TAGS: readonly string[] = LOCALES.map((l) => l.info.tag);
