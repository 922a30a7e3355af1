// The languages the room ships: each catalog (catalogs/TAG.ts) with its plural rule and categories
// from make-plural (CLDR's rules as plain functions: the runtime has no Intl.PluralRules).
//
// A language costs nothing until a visitor reads it. The runtime collects the sandbox's whole heap after
// every request, so every string of every catalog held as an object would cost every request, in any
// language. The Wasm build stores each catalog but English as one JSON string of its messages
// (lib/catalog-bundle.ts); the first answer in that language parses it, and the sandbox keeps it.
import type { PluralCategory } from '@messageformat/parser';
import {
  ar,
  bg,
  cs,
  da,
  de,
  el,
  en,
  es,
  fa,
  fi,
  fil,
  fr,
  he,
  hi,
  hr,
  hu,
  id,
  it,
  ja,
  ko,
  lt,
  ms,
  nb,
  nl,
  pl,
  pt,
  ro,
  ru,
  sk,
  sl,
  sr,
  sv,
  th,
  tr,
  uk,
  vi,
  zh,
} from 'make-plural';
import * as categories from 'make-plural/pluralCategories';
import * as arEG from './catalogs/ar-EG.js';
import * as bgBG from './catalogs/bg-BG.js';
import * as csCZ from './catalogs/cs-CZ.js';
import * as daDK from './catalogs/da-DK.js';
import * as deDE from './catalogs/de-DE.js';
import * as elGR from './catalogs/el-GR.js';
import * as enUS from './catalogs/en-US.js';
import * as esES from './catalogs/es-ES.js';
import * as faIR from './catalogs/fa-IR.js';
import * as fiFI from './catalogs/fi-FI.js';
import * as frFR from './catalogs/fr-FR.js';
import * as heIL from './catalogs/he-IL.js';
import * as hiIN from './catalogs/hi-IN.js';
import * as hrHR from './catalogs/hr-HR.js';
import * as huHU from './catalogs/hu-HU.js';
import * as idID from './catalogs/id-ID.js';
import * as itIT from './catalogs/it-IT.js';
import * as jaJP from './catalogs/ja-JP.js';
import * as koKR from './catalogs/ko-KR.js';
import * as ltLT from './catalogs/lt-LT.js';
import * as msMY from './catalogs/ms-MY.js';
import * as nbNO from './catalogs/nb-NO.js';
import * as nlNL from './catalogs/nl-NL.js';
import * as plPL from './catalogs/pl-PL.js';
import * as ptBR from './catalogs/pt-BR.js';
import * as roRO from './catalogs/ro-RO.js';
import * as ruRU from './catalogs/ru-RU.js';
import * as skSK from './catalogs/sk-SK.js';
import * as slSI from './catalogs/sl-SI.js';
import * as srBA from './catalogs/sr-BA.js';
import * as svSE from './catalogs/sv-SE.js';
import * as thTH from './catalogs/th-TH.js';
import * as tlPH from './catalogs/tl-PH.js';
import * as trTR from './catalogs/tr-TR.js';
import * as ukUA from './catalogs/uk-UA.js';
import * as viVN from './catalogs/vi-VN.js';
import * as zhCN from './catalogs/zh-CN.js';
import * as zhTW from './catalogs/zh-TW.js';
import type { LocaleInfo, PluralRule } from './types.js';

export interface Locale {
  info: LocaleInfo;
  /** The language's messages; parsed on first read when the build stored them as text. */
  readonly catalog: enUS.Catalog;
  plural: PluralRule;
  /** The cardinal plural categories the language has: every plural in its catalog has a case for each. */
  categories: readonly PluralCategory[];
}

/**
 * A catalog module as the source has it (`catalog`), or as the Wasm build stores it (`messages`: a
 * JSON array of the messages in the English catalog's key order, lib/catalog-bundle.ts).
 */
export type CatalogModule = { info: LocaleInfo; catalog: enUS.Catalog } | { info: LocaleInfo; messages: string };

/** The catalog a JSON array of messages in the English catalog's key order stands for. */
export function catalogFromMessages(messages: string): enUS.Catalog {
  const values = JSON.parse(messages) as string[];
  const catalog: Record<string, string> = {};
  let i = 0;
  for (const key of Object.keys(enUS.enUS) as enUS.MessageKey[]) catalog[key] = values[i++] ?? enUS.enUS[key];
  return catalog as enUS.Catalog;
}

function locale(module: CatalogModule, plural: PluralRule, categories: { cardinal: readonly string[] }): Locale {
  const made: Omit<Locale, 'catalog'> = {
    info: module.info,
    plural,
    categories: categories.cardinal as PluralCategory[],
  };
  // A data property once known: a page reads `catalog` some sixty times, and a getter call each time
  // cost the interpreter about a microsecond.
  const known = (catalog: enUS.Catalog): enUS.Catalog => {
    Object.defineProperty(made, 'catalog', { value: catalog, enumerable: true });
    return catalog;
  };
  if ('catalog' in module) known(module.catalog);
  else
    Object.defineProperty(made, 'catalog', {
      get: () => known(catalogFromMessages(module.messages)),
      enumerable: true,
      configurable: true,
    });
  return made as Locale;
}

/**
 * Every built-in language, in the order the language links list them: Cloudflare Waiting Room's
 * first seventeen and Hebrew, then the twenty it added, by tag.
 */
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
  locale(bgBG, bg as PluralRule, categories.bg),
  locale(csCZ, cs as PluralRule, categories.cs),
  locale(daDK, da as PluralRule, categories.da),
  locale(elGR, el as PluralRule, categories.el),
  locale(fiFI, fi as PluralRule, categories.fi),
  locale(hiIN, hi as PluralRule, categories.hi),
  locale(hrHR, hr as PluralRule, categories.hr),
  locale(huHU, hu as PluralRule, categories.hu),
  locale(ltLT, lt as PluralRule, categories.lt),
  locale(msMY, ms as PluralRule, categories.ms),
  locale(nbNO, nb as PluralRule, categories.nb),
  locale(roRO, ro as PluralRule, categories.ro),
  locale(skSK, sk as PluralRule, categories.sk),
  locale(slSI, sl as PluralRule, categories.sl),
  locale(srBA, sr as PluralRule, categories.sr),
  locale(svSE, sv as PluralRule, categories.sv),
  locale(thTH, th as PluralRule, categories.th),
  // Tagalog as Filipino, its standard form: make-plural's `fil` and `tl` are the same rule.
  locale(tlPH, fil as PluralRule, categories.fil),
  locale(ukUA, uk as PluralRule, categories.uk),
  locale(viVN, vi as PluralRule, categories.vi),
];

export const DEFAULT_TAG = 'en-US';

const BY_TAG = new Map(LOCALES.map((l) => [l.info.tag.toLowerCase(), l]));

/** The built-in locale with this tag (any case), or undefined. */
export function localeByTag(tag: string): Locale | undefined {
  return BY_TAG.get(tag.toLowerCase());
}

export const LOCALE_TAGS: readonly string[] = LOCALES.map((l) => l.info.tag);
