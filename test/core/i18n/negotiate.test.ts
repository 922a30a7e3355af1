import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LOCALES, type Locale } from '../../../src/core/i18n/locales.js';
import { chooseLanguage, matchLocale, MAX_RANGES, parseAcceptLanguage } from '../../../src/core/i18n/negotiate.js';
import { LANGUAGE_TAGS } from '../../support/language-tags.js';

/** A stand-in locale: negotiation reads only the tag. */
function fake(tag: string): Locale {
  const base = LOCALES[0]!;
  return { ...base, info: { ...base.info, tag } };
}
const ALL = LANGUAGE_TAGS.map(fake);
const tagOf = (l: Locale | null) => l?.info.tag ?? null;

describe('parseAcceptLanguage', () => {
  it('orders by q, keeps the header order on ties, and drops q=0 and *', () => {
    expect(parseAcceptLanguage('fr;q=0.5, de, ja;q=0.9, *;q=0.1, it;q=0, nl;q=0.9')).toEqual([
      { tag: 'de', q: 1 },
      { tag: 'ja', q: 0.9 },
      { tag: 'nl', q: 0.9 },
      { tag: 'fr', q: 0.5 },
    ]);
  });

  it('skips what it cannot read and keeps the rest', () => {
    expect(parseAcceptLanguage('en-US;q=abc, ;;;, de-DE;Q=0.7, 日本語, fr-FR;q=1.5, es')).toEqual([
      { tag: 'es', q: 1 },
      { tag: 'de-DE', q: 0.7 },
    ]);
    expect(parseAcceptLanguage(null)).toEqual([]);
    expect(parseAcceptLanguage('')).toEqual([]);
  });

  it(`reads at most ${MAX_RANGES} entries of a huge header`, () => {
    const header = `${Array.from({ length: 5000 }, (_, i) => `x${String.fromCharCode(97 + (i % 26))};q=0.${(i % 9) + 1}`).join(',')},de`;
    expect(parseAcceptLanguage(header).length).toBeLessThanOrEqual(MAX_RANGES);
    expect(parseAcceptLanguage(header).some((r) => r.tag === 'de')).toBe(false);
  });
});

describe('matchLocale', () => {
  it('matches the same tag in any case', () => {
    expect(tagOf(matchLocale('DE-de', ALL))).toBe('de-DE');
  });

  it('sends Traditional Chinese to zh-TW and Simplified to zh-CN', () => {
    for (const t of ['zh-Hant', 'zh-TW', 'zh-HK', 'zh-MO', 'zh-Hant-HK', 'zh-hant-tw'])
      expect(tagOf(matchLocale(t, ALL)), t).toBe('zh-TW');
    for (const t of ['zh', 'zh-Hans', 'zh-CN', 'zh-SG', 'zh-Hans-CN', 'zh-Hans-HK'])
      expect(tagOf(matchLocale(t, ALL)), t).toBe('zh-CN');
  });

  it('never serves one Chinese script for the other', () => {
    expect(matchLocale('zh-HK', [fake('en-US'), fake('zh-CN')])).toBeNull();
    expect(matchLocale('zh-CN', [fake('zh-TW')])).toBeNull();
  });

  it('falls back to the offered locale of the same language', () => {
    expect(tagOf(matchLocale('pt-PT', ALL))).toBe('pt-BR');
    expect(tagOf(matchLocale('es-419', ALL))).toBe('es-ES');
    expect(tagOf(matchLocale('es-MX', ALL))).toBe('es-ES');
    expect(tagOf(matchLocale('en-GB', ALL))).toBe('en-US');
    expect(tagOf(matchLocale('ar-SA', ALL))).toBe('ar-EG');
    expect(tagOf(matchLocale('fa-AF', ALL))).toBe('fa-IR');
    expect(tagOf(matchLocale('ja', ALL))).toBe('ja-JP');
    expect(tagOf(matchLocale('sv-FI', ALL))).toBe('sv-SE');
    expect(tagOf(matchLocale('ms', ALL))).toBe('ms-MY');
    expect(tagOf(matchLocale('ms-SG', ALL))).toBe('ms-MY');
    expect(matchLocale('xx-XX', ALL)).toBeNull();
    expect(matchLocale('*', ALL)).toBeNull();
  });

  it('serves Norwegian and Nynorsk readers Bokmål, Filipino readers tl-PH, and the old Java codes', () => {
    for (const t of ['no', 'no-NO', 'nn', 'nn-NO', 'nb', 'NB-no']) expect(tagOf(matchLocale(t, ALL)), t).toBe('nb-NO');
    for (const t of ['fil', 'fil-PH', 'tl', 'tl-PH']) expect(tagOf(matchLocale(t, ALL)), t).toBe('tl-PH');
    expect(tagOf(matchLocale('iw-IL', ALL))).toBe('he-IL');
    expect(tagOf(matchLocale('in-ID', ALL))).toBe('id-ID');
  });

  it('serves Serbian in either script and from any country the Latin sr-BA', () => {
    for (const t of ['sr', 'sr-Latn', 'sr-Cyrl', 'sr-RS', 'sr-Latn-RS', 'sr-Cyrl-BA', 'sr-ME'])
      expect(tagOf(matchLocale(t, ALL)), t).toBe('sr-BA');
    // Croatian and Bosnian are languages of their own: never served Serbian by this rule.
    expect(tagOf(matchLocale('hr', ALL))).toBe('hr-HR');
    expect(matchLocale('bs', ALL)).toBeNull();
  });

  it('leaves a language the room does not offer to the next range', () => {
    expect(
      matchLocale(
        'nb-NO',
        ALL.filter((l) => l.info.tag !== 'nb-NO'),
      ),
    ).toBeNull();
    expect(matchLocale('fil', [fake('en-US')])).toBeNull();
  });
});

describe('chooseLanguage', () => {
  const base = { query: null, cookie: null, acceptLanguage: null, offered: ALL, defaultTag: 'en-US' };

  it('takes the query, then the cookie, then the header, then the default', () => {
    const all = { ...base, query: 'ja-JP', cookie: 'de-DE', acceptLanguage: 'fr' };
    expect(chooseLanguage(all)).toMatchObject({ locale: { info: { tag: 'ja-JP' } }, source: 'query' });
    expect(chooseLanguage({ ...all, query: null })).toMatchObject({
      locale: { info: { tag: 'de-DE' } },
      source: 'cookie',
    });
    expect(chooseLanguage({ ...all, query: null, cookie: null })).toMatchObject({
      locale: { info: { tag: 'fr-FR' } },
      source: 'header',
    });
    expect(chooseLanguage(base)).toMatchObject({ locale: { info: { tag: 'en-US' } }, source: 'default' });
  });

  it('ignores a query or cookie naming a language the room does not offer', () => {
    const r = chooseLanguage({
      ...base,
      offered: [fake('en-US'), fake('de-DE')],
      query: 'ja-JP',
      cookie: 'xx',
      acceptLanguage: 'de',
    });
    expect(r).toMatchObject({ locale: { info: { tag: 'de-DE' } }, source: 'header' });
  });

  it('takes the most wanted language the room offers, skipping q=0', () => {
    const offered = [fake('en-US'), fake('fr-FR'), fake('de-DE')];
    expect(tagOf(chooseLanguage({ ...base, offered, acceptLanguage: 'sv, ja;q=0.9, de;q=0.8, fr;q=0.8' }).locale)).toBe(
      'de-DE',
    );
    expect(tagOf(chooseLanguage({ ...base, offered, acceptLanguage: 'fr;q=0, de;q=0.1' }).locale)).toBe('de-DE');
    expect(chooseLanguage({ ...base, offered, defaultTag: 'fr-FR', acceptLanguage: 'fr;q=0' })).toMatchObject({
      locale: { info: { tag: 'fr-FR' } },
      source: 'default',
    });
  });

  it('uses the first offered when the default is not offered', () => {
    expect(tagOf(chooseLanguage({ ...base, offered: [fake('de-DE'), fake('fr-FR')] }).locale)).toBe('de-DE');
  });

  it('never throws and always answers an offered locale, whatever it is sent', () => {
    const text = fc.oneof(
      fc.constant(null),
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc
        .array(fc.constantFrom('zh', 'Hant', 'TW', '-', ',', ';', 'q=', '0.5', '*', 'en', ' ', 'x'), { maxLength: 40 })
        .map((a) => a.join('')),
    );
    fc.assert(
      fc.property(
        text,
        text,
        text,
        fc.subarray(ALL, { minLength: 1 }),
        fc.string(),
        (query, cookie, acceptLanguage, offered, defaultTag) => {
          const { locale } = chooseLanguage({ query, cookie, acceptLanguage, offered, defaultTag });
          expect(offered).toContain(locale);
        },
      ),
    );
  });
});
