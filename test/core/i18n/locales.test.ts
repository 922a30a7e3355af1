// Every built-in catalog is complete: every key of the English one, every plural case its language
// needs, lists of the right length, only plain arguments where the page's script fills them, no
// argument English does not pass, and numbers written as Intl writes them for the locale.
import { describe, expect, it } from 'vitest';
import { enUS, type MessageKey } from '../../../src/core/i18n/catalogs/en-US.js';
import { LOCALES } from '../../../src/core/i18n/locales.js';
import { compileMessage, messageArguments, pluralCases, type Compiled } from '../../../src/core/i18n/message.js';
import { formatNumber } from '../../../src/core/i18n/number.js';
import { LANGUAGE_TAGS } from '../../support/language-tags.js';

const KEYS = Object.keys(enUS) as MessageKey[];
const english = (key: MessageKey): Compiled => {
  const c = compileMessage(enUS[key], ['one', 'other']);
  if (!('tokens' in c)) throw new Error(`en-US ${key}: ${c.problem}`);
  return c.tokens;
};

describe.each(LOCALES.map((l) => [l.info.tag, l] as const))('catalog %s', (tag, locale) => {
  it('has every key of the English catalog and no other', () => {
    expect(Object.keys(locale.catalog).sort()).toEqual([...KEYS].sort());
  });

  it.each(KEYS)('%s compiles, with a case for each plural category of the language', (key) => {
    const text = locale.catalog[key];
    expect(text.trim(), `${tag} ${key} is empty`).not.toBe('');
    const compiled = compileMessage(text, locale.categories);
    if (!('tokens' in compiled)) throw new Error(`${tag} ${key}: ${compiled.problem}`);
    for (const plural of pluralCases(compiled.tokens)) {
      for (const category of locale.categories)
        expect(plural.keys, `${tag} ${key}: {${plural.arg}, plural} lacks ${category}`).toContain(category);
    }
    const args = messageArguments(compiled.tokens);
    const englishArgs = messageArguments(english(key));
    for (const arg of args.keys())
      expect(englishArgs.has(arg), `${tag} ${key} uses {${arg}}, which the room does not pass`).toBe(true);
    if (key.startsWith('client'))
      for (const [arg, kind] of args) expect(kind, `${tag} ${key}: {${arg}} must be a plain argument`).toBe('plain');
  });

  it('lists seven weekdays and twelve months', () => {
    expect(locale.catalog.weekdays.split('|')).toHaveLength(7);
    expect(locale.catalog.months.split('|')).toHaveLength(12);
  });

  it('writes numbers as Intl writes them for the locale', () => {
    for (const n of [0, 7, 42, 1200, 12000, 123456, 1234567, 123456789, 1.5, 2.5, 1000.5, 12345.5]) {
      expect(formatNumber(n, locale.info.number), `${tag} ${n}`).toBe(
        new Intl.NumberFormat(tag, { maximumFractionDigits: 1 }).format(n),
      );
    }
  });

  it('is written in its language: nothing left in English where the texts are sentences', () => {
    if (tag === 'en-US') return;
    const same = KEYS.filter((k) => locale.catalog[k] === enUS[k] && /[a-z]{3,} [a-z]{3,}/i.test(enUS[k]));
    expect(same).toEqual([]);
  });
});

describe('the language list', () => {
  it("has Cloudflare Waiting Room's 37 languages and Hebrew, each tag once, with a name and a direction", () => {
    const tags = LOCALES.map((l) => l.info.tag);
    for (const t of LANGUAGE_TAGS) expect(tags).toContain(t);
    expect(tags).toHaveLength(38);
    expect(new Set(tags).size).toBe(tags.length);
    for (const l of LOCALES) {
      expect(l.info.name).not.toBe('');
      expect(l.info.dir).toBe(['ar', 'fa', 'he'].includes(l.info.tag.slice(0, 2)) ? 'rtl' : 'ltr');
    }
  });
});
