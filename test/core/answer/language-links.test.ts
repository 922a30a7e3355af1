// The language links: the visitor's own query kept, wr_lang set, and the ready-made HTML the built-in
// pages print equal to what a template's loop over `languageLinks` prints.
import Mustache from 'mustache';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../../src/core/answer/html-text.js';
import { LOCALES, localeByTag } from '../../../src/core/i18n/locales.js';
import { Strings } from '../../../src/core/i18n/strings.js';
import { languageHref, languageLinks, languageLinksHtml } from '../../../src/core/answer/language-links.js';

const LOOP =
  '{{#languageLinks}}<a href="{{href}}" lang="{{tag}}" hreflang="{{tag}}"{{#current}} aria-current="true"{{/current}}>{{name}}</a> {{/languageLinks}}';

describe('languageHref', () => {
  it('keeps the other query parameters as written and sets wr_lang last, encoded', () => {
    expect(languageHref('', 'de-DE')).toBe('?wr_lang=de-DE');
    expect(languageHref('?a=1&b=x%20y', 'zh-TW')).toBe('?a=1&b=x%20y&wr_lang=zh-TW');
    expect(languageHref('?wr_lang=fr-FR&a=1&wr_lang=it-IT', 'ja-JP')).toBe('?a=1&wr_lang=ja-JP');
    expect(languageHref('?q', 'a b&c')).toBe('?q&wr_lang=a%20b%26c');
    // However its name is encoded: the room reads `wr%5Flang` as `wr_lang`, so the link replaces it.
    expect(languageHref('?wr%5Flang=de-DE&a=1&wr_lang=fr-FR', 'ja-JP')).toBe('?a=1&wr_lang=ja-JP');
    expect(languageHref('?%E0%A4%A=1', 'ja-JP')).toBe('?%E0%A4%A=1&wr_lang=ja-JP');
  });
});

describe('languageLinksHtml', () => {
  const cases: [string, string, string][] = [
    ['no query', 'ar-EG', ''],
    ['a query of the visitor, with a choice already in it', 'ja-JP', '?item=5&wr_lang=de-DE&q=%3Cscript%3E'],
    ['a query with markup in it', 'en-US', "?a=\"><script>alert(1)</script>&b='x'"],
  ];
  it.each(cases)('prints what the loop over languageLinks prints (%s)', (_what, tag, search) => {
    for (const offered of [LOCALES, [localeByTag('en-US')!, localeByTag(tag)!]]) {
      const language = { strings: new Strings(localeByTag(tag)!), offered, search, message: '' };
      const looped = Mustache.render(LOOP, { languageLinks: languageLinks(language) }, undefined, {
        escape: escapeHtml,
      });
      expect(languageLinksHtml(language)).toBe(looped);
      // Asked again (kept for the sandbox), the same.
      expect(languageLinksHtml(language)).toBe(looped);
    }
  });

  it('never lets the query out of its attribute', () => {
    const language = {
      strings: new Strings(localeByTag('en-US')!),
      offered: LOCALES,
      search: '?a="><script>x</script>',
      message: '',
    };
    expect(languageLinksHtml(language)).not.toMatch(/<script|"></);
  });
});
