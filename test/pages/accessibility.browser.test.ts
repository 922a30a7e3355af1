// The three built-in pages, rendered as the room serves them, checked with axe-core in real
// Chromium (light and dark), plus what axe does not check: small screens, zoom, reduced motion.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageName } from '../../src/core/types.js';
import { DONE, WORKING } from '../../pages/solver/challenge.js';
import { launchBrowser } from '../../lib/chromium.js';
import { specProof } from '../support/proof-spec.js';
import { localeByTag, type Locale } from '../../src/core/i18n/locales.js';
import type { PageLanguage } from '../../src/core/i18n/page-language.js';
import { Strings } from '../../src/core/i18n/strings.js';
import { fakeLocale } from '../core/i18n/fake-locale.js';
import { render, serveRoom, SHOP_URL } from './fake-room.js';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function openPage(
  name: PageName,
  options: Parameters<Browser['newContext']>[0] = {},
  language?: PageLanguage,
): Promise<{ page: Page; context: BrowserContext }> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  // No check ever comes due while a test looks at the page.
  await page.clock.install();
  const over =
    name === 'prequeue' ? { eventStartIso: '2026-12-01T10:00:00.000Z', startsInSeconds: 95, hasEstimate: false } : {};
  await serveRoom(context, render(name, over, {}, language), { kind: 'room', status: name, retryAfter: 30 });
  await page.goto(SHOP_URL);
  return { page, context };
}

async function axe(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const run = (
      window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: AxeViolation[] }> } }
    ).axe.run;
    const result = await run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  });
}

const PAGES: PageName[] = ['startwaiting', 'keepwaiting', 'deny'];

describe.each(PAGES)('%s page', (name) => {
  it.each(['light', 'dark'] as const)('has no axe violations in %s mode', async (colorScheme) => {
    const { page, context } = await openPage(name, { colorScheme });
    try {
      const violations = await axe(page);
      // Print every finding (minor ones too) so a regression is easy to see in the test log.
      if (violations.length > 0) console.log(`${name} (${colorScheme}):`, JSON.stringify(violations, null, 1));
      const severe = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(severe.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
      expect(violations.map((v) => v.id)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('fits a 320 px wide screen and 200 % zoom without sideways scrolling', async () => {
    // 200 % zoom of a 1280 px window lays out like a 640 px one; 320 px is WCAG's reflow width.
    for (const viewport of [
      { width: 320, height: 640 },
      { width: 640, height: 400 },
    ]) {
      const { page, context } = await openPage(name, { viewport });
      try {
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, `${viewport.width} px`).toBeLessThanOrEqual(0);
        expect(await page.locator('h1').isVisible()).toBe(true);
      } finally {
        await context.close();
      }
    }
  });

  it('names itself: language, title, one h1 inside the main landmark', async () => {
    const { page, context } = await openPage(name);
    try {
      expect(await page.getAttribute('html', 'lang')).toBe('en-US');
      expect((await page.title()).length).toBeGreaterThan(0);
      expect(await page.locator('main h1').count()).toBe(1);
      expect(await page.locator('[role="status"][aria-live="polite"]').count()).toBe(1);
    } finally {
      await context.close();
    }
  });
});

describe('without script', () => {
  // axe needs script, so the page is shown as a script-less browser parses it: <noscript> content
  // in, <script> out. No timed refresh (WCAG 2.2.1): the "check now" link is the way on.
  it.each(['startwaiting', 'keepwaiting', 'deny'] as const)('%s has no finding without script either', async (name) => {
    const html = render(name)
      .replace(/<\/?noscript>/g, '')
      .replace(/<script>[\s\S]*?<\/script>/g, '');
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.route(SHOP_URL, (route) => route.fulfill({ contentType: 'text/html', body: html }));
      await page.goto(SHOP_URL);
      const findings = (await axe(page)).map((v) => v.id);
      expect(findings).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('motion', () => {
  for (const name of ['startwaiting', 'keepwaiting'] as const) {
    it(`${name}: the activity dot pulses only for visitors who have not asked for reduced motion`, async () => {
      const animation = async (reducedMotion: 'reduce' | 'no-preference') => {
        const { page, context } = await openPage(name, { reducedMotion });
        try {
          return await page.locator('.dot').evaluate((el) => getComputedStyle(el).animationName);
        } finally {
          await context.close();
        }
      };
      expect(await animation('no-preference')).not.toBe('none');
      expect(await animation('reduce')).toBe('none');
    });
  }
});

describe('the proof of work on the waiting page', () => {
  // Working (a challenge no counter solves, so it stays so), done (an easy one), and without script.
  const proof = specProof(
    'wait.token',
    Uint8Array.from({ length: 64 }, (_, i) => i),
    0.2,
  );
  const endless = proof.compact.replace(/(\.[0-9a-f]{32}){8}$/, '.ffffffffffffffffffffffffffffffff'.repeat(8));
  const states = [
    ['working', endless, WORKING],
    ['done', proof.compact, DONE],
  ] as const;

  for (const [state, compact, words] of states) {
    it.each(['light', 'dark'] as const)(
      `${state}: no axe finding in %s mode, and no sideways scrolling at 320 px`,
      async (colorScheme) => {
        const context = await browser.newContext({ colorScheme, viewport: { width: 320, height: 640 } });
        try {
          const page = await context.newPage();
          await page.clock.install();
          await serveRoom(context, render('startwaiting', {}, { proofRequired: true, proofCompact: compact }), {
            kind: 'room',
            status: 'keepwaiting',
            retryAfter: 30,
          });
          await page.goto(SHOP_URL);
          await expect.poll(() => page.textContent('#proof'), { timeout: 30_000 }).toContain(words);
          expect((await axe(page)).map((v) => `${v.id}: ${v.help}`)).toEqual([]);
          expect(
            await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
          ).toBeLessThanOrEqual(0);
        } finally {
          await context.close();
        }
      },
    );
  }

  it.each(['light', 'dark'] as const)(
    'without script: says the rule, no axe finding in %s mode, no sideways scrolling at 320 px',
    async (colorScheme) => {
      const html = render('startwaiting', {}, { proofRequired: true, proofCompact: proof.compact })
        .replace(/<\/?noscript>/g, '')
        .replace(/<script>[\s\S]*?<\/script>/g, '');
      const context = await browser.newContext({ colorScheme, viewport: { width: 320, height: 640 } });
      try {
        const page = await context.newPage();
        await page.route(SHOP_URL, (route) => route.fulfill({ contentType: 'text/html', body: html }));
        await page.goto(SHOP_URL);
        expect(await page.textContent('main')).toContain(
          'While the site is this busy, without scripts your chances are lower.',
        );
        expect((await axe(page)).map((v) => v.id)).toEqual([]);
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
        ).toBeLessThanOrEqual(0);
      } finally {
        await context.close();
      }
    },
  );
});

describe('with a choice of languages, right to left', () => {
  // As many languages as the room ships, with long names and scripts of their own; the page in a
  // right-to-left language.
  const names = [
    'English',
    'Español',
    'Deutsch',
    'Français',
    'Italiano',
    '日本語',
    '한국어',
    'Português (Brasil)',
    '简体中文',
    '繁體中文',
    'Nederlands',
    'Polski',
    'Bahasa Indonesia',
    'Türkçe',
    'العربية',
    'Русский',
    'فارسی',
  ];
  const tags = [
    'en-US',
    'es-ES',
    'de-DE',
    'fr-FR',
    'it-IT',
    'ja-JP',
    'ko-KR',
    'pt-BR',
    'zh-CN',
    'zh-TW',
    'nl-NL',
    'pl-PL',
    'id-ID',
    'tr-TR',
    'ar-EG',
    'ru-RU',
    'fa-IR',
  ];
  // The made-up language's words under each tag: what is checked is the page around them.
  const offered: Locale[] = names.map((name, i) =>
    i === 0 ? localeByTag('en-US')! : { ...fakeLocale, info: { ...fakeLocale.info, tag: tags[i]!, name } },
  );
  const rtl: PageLanguage = { strings: new Strings(offered[14]!), offered, search: '?event=summer', message: '' };

  it.each(['startwaiting', 'keepwaiting', 'prequeue', 'deny'] as const)(
    '%s: the links are found, marked and wrap at 320 px; the page mirrors',
    async (name) => {
      const { page, context } = await openPage(name, { viewport: { width: 320, height: 640 } }, rtl);
      try {
        expect(await page.getAttribute('html', 'dir')).toBe('rtl');
        const nav = page.getByRole('navigation', { name: 'Language' });
        expect(await nav.getByRole('link').count()).toBe(17);
        const current = nav.locator('[aria-current="true"]');
        expect(await current.textContent()).toBe('العربية');
        expect(await current.getAttribute('hreflang')).toBe(offered[14]!.info.tag);
        expect(await nav.getByRole('link', { name: 'Deutsch' }).getAttribute('href')).toBe(
          `?event=summer&wr_lang=${offered[2]!.info.tag}`,
        );
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
        ).toBeLessThanOrEqual(0);
        // The links sit at the foot of the card, after everything else in it.
        expect(await page.locator('.card > :last-child').evaluate((el) => el.tagName)).toBe('NAV');
        expect((await axe(page)).map((v) => `${v.id}: ${v.help}`)).toEqual([]);
        if (name !== 'prequeue') {
          // The notice's accent bar is on the reading side: the right in a right-to-left page.
          const side = await page.locator('.msg').evaluate((el) => {
            el.removeAttribute('hidden');
            const s = getComputedStyle(el);
            return { right: s.borderRightWidth, left: s.borderLeftWidth };
          });
          expect(side).toEqual({ right: '4px', left: '0px' });
        }
      } finally {
        await context.close();
      }
    },
  );
});
