import { describe, expect, it } from 'vitest';
import { builtinPages, renderPage, type PageVars } from '../../../src/core/pages/pages.js';
import type { PageName } from '../../../src/core/types.js';
import { localeByTag } from '../../../src/core/i18n/locales.js';
import type { PageLanguage } from '../../../src/core/i18n/page-language.js';
import { Strings } from '../../../src/core/i18n/strings.js';

function vars(over: Partial<PageVars> = {}): PageVars {
  return {
    status: 'startwaiting',
    retryAfterSeconds: 42,
    refreshIntervalSeconds: 57,
    jitterSeconds: 30,
    allowPercentage: 10,
    waitPeriodSeconds: 30,
    hasEstimate: true,
    waitTime25PercentileSeconds: 130,
    waitTime50PercentileSeconds: 250,
    waitTime75PercentileSeconds: 610,
    message: '',
    eventStartIso: null,
    startsInSeconds: null,
    visitorsAhead: null,
    turnInSeconds: null,
    closed: false,
    queueingMethod: 'random',
    ...over,
  };
}

function b64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

function render(name: PageName, stored: string | null, v: PageVars = vars()) {
  const diags: string[] = [];
  const html = renderPage(name, stored, v, (m) => diags.push(m));
  return { html, diags };
}

describe('renderPage with the built-in pages', () => {
  it('uses the built-in template when the store has none, without a diagnostic', () => {
    const { html, diags } = render('startwaiting', null);
    expect(html).toContain('<h1>You are in the queue</h1>');
    expect(diags).toEqual([]);
  });

  it('tells a returning visitor they are still waiting, and a denied one that the site is closed', () => {
    expect(render('keepwaiting', null).html).toContain('<h1>Still in the queue</h1>');
    expect(render('deny', null, vars({ status: 'deny', hasEstimate: false })).html).toContain(
      '<h1>Closed for now</h1>',
    );
  });

  it('shows the estimated wait as formatted text', () => {
    const { html } = render('startwaiting', null);
    expect(html).toContain('Estimated wait');
    expect(html).toContain('>about 2 to 10 minutes<');
    expect(html).toContain('<li id="w25">1 in 4 visitors get in within about 2 minutes</li>');
    expect(html).toContain('<li id="w50">Half within about 4 minutes</li>');
    expect(html).toContain('<li id="w75">3 in 4 within about 10 minutes</li>');
  });

  it('says it once when the three figures read the same, on the page and in its live update', () => {
    for (const name of ['startwaiting', 'keepwaiting'] as const) {
      const { html } = render(
        name,
        null,
        vars({ waitTime25PercentileSeconds: 5, waitTime50PercentileSeconds: 20, waitTime75PercentileSeconds: 41 }),
      );
      expect(html).toContain('>Most visitors get in within a minute<');
      expect(html).toContain('<ul class="mu" id="wl" hidden>');
      const spread = render(name, null).html;
      expect(spread).toContain('<ul class="mu" id="wl">');
      expect(spread).not.toContain('>Most visitors');
    }
    const three = render(
      'startwaiting',
      null,
      vars({ waitTime25PercentileSeconds: 170, waitTime50PercentileSeconds: 185, waitTime75PercentileSeconds: 200 }),
    ).html;
    expect(three).toContain('>Most visitors get in within about 3 minutes<');
  });

  it('shows no estimate when there is none to give', () => {
    for (const name of ['startwaiting', 'keepwaiting'] as const) {
      const { html } = render(name, null, vars({ hasEstimate: false }));
      expect(html).not.toContain('Estimated wait');
      expect(html).not.toContain('id="wt"');
    }
  });

  it('says the wait is being worked out, with no minutes, while the room has no forecast yet', () => {
    for (const name of ['startwaiting', 'keepwaiting'] as const) {
      const { html } = render(
        name,
        null,
        vars({
          hasEstimate: false,
          waitTime25PercentileSeconds: null,
          waitTime50PercentileSeconds: null,
          waitTime75PercentileSeconds: null,
          waitTimePending: true,
        }),
      );
      expect(html).toContain('<h2>Estimated wait</h2>');
      expect(html).toContain('id="wt">We are still working it out. This page shows it as soon as it is known.<');
      // The list is there for the page's script to fill when a later check brings figures, hidden till then.
      expect(html).toMatch(/<ul class="mu" id="wl" hidden>/);
      expect(html).toContain('<li id="w25"></li>');
    }
  });

  it('shows no estimate when one percentile is missing rather than printing an empty wait', () => {
    const { html } = render('startwaiting', null, vars({ waitTime75PercentileSeconds: null }));
    expect(html).not.toContain('Estimated wait');
  });

  it('puts the check-again timing into the page script and the no-script hint', () => {
    const { html } = render(
      'keepwaiting',
      null,
      vars({ retryAfterSeconds: 17, jitterSeconds: 9, refreshIntervalSeconds: 23 }),
    );
    expect(html).toContain('var S=+"17"||30,J=+"9"||0');
    expect(html).not.toContain('http-equiv="refresh"');
    expect(html).toContain('Your next chance comes in about 23 seconds.</p><p><a href="">Check now</a></p></noscript>');
  });

  it('gives the deny page no automatic reload without script', () => {
    const { html } = render('deny', null, vars({ status: 'deny', hasEstimate: false }));
    expect(html).not.toContain('http-equiv="refresh"');
    expect(html).toContain('<a href="">Try again</a>');
  });

  it('leaves no Mustache tag unrendered in any built-in page', () => {
    for (const name of Object.keys(builtinPages) as PageName[]) {
      expect(render(name, null).html).not.toContain('{{');
    }
  });
});

describe('renderPage with a template from waiting_room_pages', () => {
  it('renders the stored template instead of the built-in one, UTF-8 intact', () => {
    const stored = b64(
      '<p>Bitte warten – noch {{retryAfterSeconds}} s, meist {{waitTime50Formatted}} ({{allowPercentage}} %)</p>',
    );
    const { html, diags } = render('startwaiting', stored);
    expect(html).toBe('<p>Bitte warten – noch 42 s, meist about 4 minutes (10 %)</p>');
    expect(diags).toEqual([]);
  });

  it('accepts base64 wrapped over several lines, as `base64` prints it', () => {
    const encoded = b64(`<p>${'x'.repeat(200)} {{status}}</p>`);
    const wrapped = encoded.replace(/(.{76})/g, '$1\n');
    expect(render('keepwaiting', wrapped, vars({ status: 'keepwaiting' })).html).toBe(
      `<p>${'x'.repeat(200)} keepwaiting</p>`,
    );
  });

  it('keeps a genuine U+FFFD character and drops a leading byte-order mark', () => {
    const stored = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('<p>\uFFFD {{retryAfterSeconds}}</p>', 'utf8'),
    ]);
    const { html, diags } = render('startwaiting', stored.toString('base64'));
    expect(html).toBe('<p>\uFFFD 42</p>');
    expect(diags).toEqual([]);
  });

  it('HTML-escapes variables so nothing a template prints can inject markup', () => {
    const hostile = vars({ status: '<script>alert(1)</script>' as PageName });
    const { html } = render('startwaiting', b64('<p>{{status}}</p>'), hostile);
    expect(html).toBe('<p>&lt;script&gt;alert(1)&lt;&#x2F;script&gt;</p>');
  });

  it('offers sections for each page and for the estimate', () => {
    const template = b64('{{#isKeepWaiting}}again{{/isKeepWaiting}}{{^hasEstimate}}no estimate{{/hasEstimate}}');
    expect(render('keepwaiting', template, vars({ status: 'keepwaiting', hasEstimate: false })).html).toBe(
      'againno estimate',
    );
    expect(render('startwaiting', template).html).toBe('');
  });

  it.each([
    ['not base64', '%%% not base64 %%%', 'is not valid base64'],
    ['empty', '', 'is empty'],
    ['not UTF-8', Buffer.from([0x3c, 0x70, 0x3e, 0xff, 0xfe]).toString('base64'), 'is not UTF-8'],
    ['a broken Mustache template', b64('<p>{{#hasEstimate}}never closed</p>'), 'is not a valid Mustache template'],
  ])('falls back to the built-in page when the stored value is %s, and names the entry', (_what, stored, problem) => {
    const { html, diags } = render('keepwaiting', stored, vars({ status: 'keepwaiting' }));
    expect(html).toBe(render('keepwaiting', null, vars({ status: 'keepwaiting' })).html);
    expect(diags).toHaveLength(1);
    expect(diags[0]).toContain('waiting_room_pages.keepwaiting');
    expect(diags[0]).toContain(problem);
  });
});

describe('pages of scheduled sales and first-come queues', () => {
  it('escapes the operator message, so it can never inject markup', () => {
    const html = renderPage(
      'keepwaiting',
      null,
      vars({ status: 'keepwaiting', message: '<script>alert(1)</script> & more' }),
      () => {},
    );
    expect(html).toContain('&lt;script&gt;alert(1)&lt;&#x2F;script&gt; &amp; more');
    expect(html).not.toContain('<script>alert(1)');
  });

  it('hides the message notice when there is none', () => {
    const html = renderPage('startwaiting', null, vars({ message: '' }), () => {});
    expect(html).toMatch(/id="msgbox" role="note" hidden/);
  });

  it('explains a first-come line as one, and a draw as a draw', () => {
    expect(renderPage('startwaiting', null, vars({ queueingMethod: 'fifo' }), () => {})).toContain(
      'in the order they arrived',
    );
    expect(renderPage('startwaiting', null, vars({}), () => {})).toContain('picked at random');
  });

  it('says how many are ahead, rounded as an estimate, instead of the draw percentiles', () => {
    const html = renderPage(
      'keepwaiting',
      null,
      vars({ status: 'keepwaiting', visitorsAhead: 47, turnInSeconds: 130, hasEstimate: false }),
      () => {},
    );
    expect(html).toContain('about 45 people ahead of you');
    expect(html).toContain('Your turn in about 2 minutes.');
    expect(html).not.toContain('1 in 4 visitors');
  });

  it('tells a visitor after a closed event that the sale has ended', () => {
    const html = renderPage('deny', null, vars({ status: 'deny', closed: true, hasEstimate: false }), () => {});
    expect(html).toContain('<title>The sale has ended</title>');
    expect(html).not.toContain('Closed for now');
  });
});

describe('a stored template written in one language', () => {
  const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
  const arabic = localeByTag('ar-EG')!;
  const english = localeByTag('en-US')!;
  const language: PageLanguage = {
    strings: new Strings(arabic),
    offered: [english, arabic],
    search: '',
    message: '',
    single: { strings: new Strings(english), offered: [english, arabic], search: '', message: '' },
  };
  const figures = {
    waitTime25PercentileSeconds: 300,
    waitTime50PercentileSeconds: 400,
    waitTime75PercentileSeconds: 600,
  };

  it('shows its figures in the room default language, so its own sentences and its figures agree', () => {
    const old = b64('<html lang="en"><p>Expected wait: {{waitTimeFormatted}}.</p></html>');
    expect(renderPage('keepwaiting', old, vars(figures), () => {}, language)).toBe(
      '<html lang="en"><p>Expected wait: about 5 to 10 minutes.</p></html>',
    );
  });

  it('one that prints the catalog, lang or the links speaks the visitor language', () => {
    for (const template of [
      '<p>{{t.waitHeading}}: {{waitTimeFormatted}}</p>',
      '<html lang="{{lang}}">{{waitTimeFormatted}}',
      '<nav>{{{languageLinksHtml}}}</nav>{{waitTimeFormatted}}',
    ]) {
      const html = renderPage('keepwaiting', b64(template), vars(figures), () => {}, language);
      expect(html, template).toContain(new Strings(arabic).text('durationRangeMinutes', { from: 5, to: 10 }));
    }
  });
});
