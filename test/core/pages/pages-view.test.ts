import Mustache from 'mustache';
import { describe, expect, it } from 'vitest';
import { enUS } from '../../../src/core/i18n/catalogs/en-US.js';
import { localeByTag, type Locale } from '../../../src/core/i18n/locales.js';
import type { PageLanguage } from '../../../src/core/i18n/page-language.js';
import { Strings } from '../../../src/core/i18n/strings.js';
import { renderPage, type PageVars } from '../../../src/core/pages/pages.js';
import { answerText, templateView } from '../../../src/core/pages/pages-view.js';
import type { PageName } from '../../../src/core/types.js';
import { pageVars } from '../../pages/fake-room.js';
import { fakeLocale, markedLocale } from '../i18n/fake-locale.js';

const enLocale = localeByTag('en-US')!;

function language(locale: Locale, over: Partial<PageLanguage> = {}): PageLanguage {
  return { strings: new Strings(locale), offered: [enLocale, fakeLocale], search: '', message: '', ...over };
}

/** The text of the element with this id in the page, tags inside it removed, entities of Mustache undone. */
function shown(html: string, id: string): string | null {
  const m = new RegExp(`id="${id}"[^>]*>([\\s\\S]*?)</(p|li|span|time|title)>`).exec(html);
  if (!m) return null;
  return m[1]!
    .replace(/<[^>]*>/g, '')
    .replace(/&#x2F;/g, '/')
    .replace(/&amp;/g, '&')
    .replace(/&#39;/g, "'");
}

describe("the view in the answer's language", () => {
  it('names the language and its direction, and words every figure in it', () => {
    const vars = pageVars('keepwaiting', {
      visitorsAhead: 1234,
      turnInSeconds: 300,
      waitTime25PercentileSeconds: 130,
      waitTime75PercentileSeconds: 610,
      refreshIntervalSeconds: 22,
    });
    const view = templateView(vars, language(fakeLocale)) as Record<string, any>;
    expect(view).toMatchObject({ lang: 'xx-PL', dir: 'rtl', language: 'Fake' });
    expect(view).toMatchObject({
      visitorsAheadFormatted: 'ok. ١٢٠٠ osób',
      turnInFormatted: 'ok. ٥ minut',
      waitTime25Formatted: 'ok. ٢ minuty',
      waitTimeSummary: 'ok. ٢–١٠ minut',
    });
    expect(view.t.placeAhead).toBe('ok. ١٢٠٠ osób ahead of you');
    expect(view.t.turnIn).toBe('Your turn in ok. ٥ minut.');
    expect(view.t.wait25).toBe('1 in 4 visitors get in within ok. ٢ minuty');
    expect(view.t.noscriptWaiting).toBe(
      'Scripts are off, so this page cannot check for you. Your next chance comes in about ٢٢ seconds.',
    );
    expect(view.t.waitingTitleKeep).toBe('Still in the queue');
  });

  it("gives a template of the operator's own every message as t.KEY", () => {
    const view = templateView(pageVars('startwaiting', { visitorsAhead: 3 }), language(enLocale));
    expect(
      Mustache.render(
        '<p>{{t.placeAhead}} ({{lang}}, {{dir}})</p><p>{{#visitorsAheadFormatted}}{{t.placeAhead}}{{/visitorsAheadFormatted}}</p>',
        view,
      ),
    ).toBe('<p>3 people ahead of you (en-US, ltr)</p><p>3 people ahead of you</p>');
    const t = (view as { t: Record<string, string> }).t;
    for (const key of Object.keys(enUS)) expect(key in t, key).toBe(true);
  });

  it("hands the page's script the client messages as written, as JSON, and nothing else", () => {
    const view = templateView(pageVars('startwaiting'), language(enLocale)) as { clientText: string };
    const client = JSON.parse(view.clientText) as Record<string, string>;
    expect(Object.keys(client).sort()).toEqual(
      Object.keys(enUS)
        .filter((k) => k.startsWith('client'))
        .sort(),
    );
    expect(client.clientNextCheck).toBe('Next check in {time}');
    const html = renderPage('startwaiting', null, pageVars('startwaiting'), () => {}, language(enLocale));
    const attribute = /<html lang="en-US" dir="ltr" data-t="([^"]*)">/.exec(html)![1]!;
    const decoded = attribute
      .replace(/&quot;/g, '"')
      .replace(/&#x3D;/g, '=')
      .replace(/&#x2F;/g, '/')
      .replace(/&#39;/g, "'")
      .replace(/&#x60;/g, '`')
      .replace(/&amp;/g, '&');
    expect(JSON.parse(decoded)).toEqual(client);
  });
});

describe('the language links', () => {
  it('list the offered languages in order, mark the chosen one, and appear only with a choice', () => {
    const lang = language(fakeLocale, { search: '?event=summer&x=%C3%A9' });
    const view = templateView(pageVars('startwaiting'), lang) as Record<string, any>;
    expect(view.hasLanguageLinks).toBe(true);
    expect(view.languageLinks).toEqual([
      { tag: 'en-US', name: 'English', href: '?event=summer&x=%C3%A9&wr_lang=en-US', current: false },
      { tag: 'xx-PL', name: 'Fake', href: '?event=summer&x=%C3%A9&wr_lang=xx-PL', current: true },
    ]);
    const html = renderPage('startwaiting', null, pageVars('startwaiting'), () => {}, lang);
    expect(html).toContain(
      '<nav aria-label="Language"><a href="?event&#x3D;summer&amp;x&#x3D;%C3%A9&amp;wr_lang&#x3D;en-US" lang="en-US" hreflang="en-US">English</a>',
    );
    expect(html).toContain('hreflang="xx-PL" aria-current="true">Fake</a>');
    const single = renderPage(
      'startwaiting',
      null,
      pageVars('startwaiting'),
      () => {},
      language(enLocale, { offered: [enLocale] }),
    );
    expect(single).not.toContain('<nav');
  });
});

describe('the built-in pages', () => {
  const cases: [PageName, Partial<PageVars>][] = [
    ['startwaiting', { visitorsAhead: 40, turnInSeconds: 200, proofRequired: true }],
    ['keepwaiting', { queueingMethod: 'fifo' }],
    ['keepwaiting', { placeQueue: 'prequeue', hasEstimate: false }],
    ['prequeue', { eventStartIso: '2026-12-01T10:00:00.000Z', startsInSeconds: 95, hasEstimate: false }],
    ['deny', {}],
    ['deny', { closed: true }],
  ];

  it.each(cases)("%s: every word visible without script comes from the language's catalog", (name, over) => {
    const html = renderPage(name, null, pageVars(name, over), () => {}, language(markedLocale, { message: '' }));
    const body = html
      .replace(/<script>[\s\S]*?<\/script>/g, '')
      .replace(/<style>[\s\S]*?<\/style>/g, '')
      .replace(/<noscript>|<\/noscript>/g, '')
      .replace(/<nav[\s\S]*?<\/nav>/g, '');
    const texts = body
      .split(/<[^>]*>/)
      .map((x) => x.trim())
      .filter((x) => x !== '');
    expect(texts.length).toBeGreaterThan(3);
    for (const text of texts) expect(text, text).toMatch(/§/);
  });

  it.each([
    ['a draw', {}, 'waitingIntroKeepRandom'],
    ['a first-come line', { queueingMethod: 'fifo' }, 'waitingIntroKeepFifo'],
    ['a place the pre-queue gave, in a draw room', { placeQueue: 'prequeue' }, 'waitingIntroKeepPrequeue'],
    [
      'a place the pre-queue gave, in a first-come room',
      { queueingMethod: 'fifo', placeQueue: 'prequeue' },
      'waitingIntroKeepPrequeue',
    ],
    ['a first-come place', { queueingMethod: 'fifo', placeQueue: 'fifo' }, 'waitingIntroKeepFifo'],
  ] as const)('keepwaiting says how the visitor goes in: %s', (_what, over, key) => {
    const html = renderPage('keepwaiting', null, pageVars('keepwaiting', over), () => {}, language(enLocale));
    const intros = (['waitingIntroKeepRandom', 'waitingIntroKeepFifo', 'waitingIntroKeepPrequeue'] as const).filter(
      (k) => html.includes(`<p>${enUS[k]}</p>`),
    );
    expect(intros).toEqual([key]);
    expect(templateView(pageVars('keepwaiting', over))).toMatchObject({
      hasPrequeuePlace: key === 'waitingIntroKeepPrequeue',
    });
  });
});

describe("the JSON answer's text", () => {
  const cases: [string, PageName, Partial<PageVars>][] = [
    ['a spread estimate', 'keepwaiting', {}],
    [
      'coinciding figures',
      'startwaiting',
      { waitTime25PercentileSeconds: 5, waitTime50PercentileSeconds: 20, waitTime75PercentileSeconds: 41 },
    ],
    [
      'a pending estimate',
      'startwaiting',
      {
        hasEstimate: false,
        waitTimePending: true,
        waitTime25PercentileSeconds: null,
        waitTime50PercentileSeconds: null,
        waitTime75PercentileSeconds: null,
      },
    ],
    [
      'a place in line',
      'keepwaiting',
      { hasEstimate: false, visitorsAhead: 1234, turnInSeconds: 480, message: 'Section A is sold out.' },
    ],
    [
      'the countdown',
      'prequeue',
      {
        hasEstimate: false,
        eventStartIso: '2026-12-01T10:00:00.000Z',
        startsInSeconds: 95,
        message: 'Doors open at ten.',
      },
    ],
    ['the deny page', 'deny', { hasEstimate: false }],
  ];

  it.each(cases)('is what the page shows (%s), in English and in another language', (_what, name, over) => {
    for (const locale of [enLocale, fakeLocale]) {
      const vars = pageVars(name, over);
      const lang = language(locale, { message: vars.message });
      const html = renderPage(name, null, vars, () => {}, lang);
      const text = answerText(vars, lang);
      expect(shown(html, 'wt') ?? null).toBe(text.waitSummary);
      for (const k of ['w25', 'w50', 'w75'] as const) {
        const key = k.replace('w', 'wait') as 'wait25' | 'wait50' | 'wait75';
        expect(shown(html, k) || null, k).toBe(text[key]);
      }
      expect(shown(html, 'place') ?? null).toBe(text.placeAhead);
      expect(shown(html, 'turn') ?? null).toBe(text.turnIn);
      expect(shown(html, 'left') ?? null).toBe(text.startsIn);
      expect(/<title>([^<]*)<\/title>/.exec(html)![1]).toBe(text.title);
      expect(text.message).toBe(vars.message === '' ? null : vars.message);
    }
  });

  it('says nothing of a turn whose time is not a wait (never "your turn in an unknown time")', () => {
    const vars = pageVars('keepwaiting', { hasEstimate: false, visitorsAhead: 40, turnInSeconds: -3 });
    const lang = language(localeByTag('de-DE')!);
    expect(answerText(vars, lang).turnIn).toBeNull();
    expect(answerText(vars, lang).placeAhead).toBe('Vor Ihnen: etwa 40 Personen');
    expect(
      shown(
        renderPage('keepwaiting', null, vars, () => {}, lang),
        'turn',
      ) ?? '',
    ).toBe('');
  });
});
