// The pages of a scheduled sale and a first-come queue (docs/events.md) in real Chromium: the
// countdown counts down and hands over at the start, the place in line follows each check, the
// operator's message changes live, and axe finds nothing serious on any of them.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageVars } from '../../src/core/pages/pages.js';
import type { PageName } from '../../src/core/types.js';
import { launchBrowser } from '../../lib/chromium.js';
import { instrument, checksMade, render, serveRoom, SHOP_URL, type CheckAnswer } from './fake-room.js';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const START_ISO = '2026-12-01T10:00:00.000Z';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const countdown: Partial<PageVars> = {
  retryAfterSeconds: 30,
  jitterSeconds: 0,
  eventStartIso: START_ISO,
  startsInSeconds: 95,
  message: 'Doors open at ten.',
};
const inLine: Partial<PageVars> = {
  queueingMethod: 'fifo',
  visitorsAhead: 1234,
  turnInSeconds: 480,
  hasEstimate: false,
  message: 'Section A is sold out.',
};

async function open(
  name: PageName,
  vars: Partial<PageVars>,
  answer: CheckAnswer,
  options: Parameters<Browser['newContext']>[0] = {},
) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await instrument(page, 0);
  await page.clock.install();
  const room = await serveRoom(context, render(name, vars), answer);
  await page.goto(SHOP_URL);
  return { page, context, room };
}

async function axe(page: Page): Promise<{ id: string; impact: string | null }[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const run = (
      window as unknown as {
        axe: { run(ctx: Document, opts: object): Promise<{ violations: { id: string; impact: string | null }[] }> };
      }
    ).axe.run;
    return (await run(document, { resultTypes: ['violations'] })).violations.map((v) => ({
      id: v.id,
      impact: v.impact,
    }));
  });
}

const variants: [string, PageName, Partial<PageVars>][] = [
  ['the countdown', 'prequeue', countdown],
  ['the place in line', 'keepwaiting', inLine],
  ['a new place in line', 'startwaiting', inLine],
  ['the closed page', 'deny', { closed: true, message: 'Thank you for coming.' }],
];

describe.each(variants)('%s', (_label, name, vars) => {
  it.each(['light', 'dark'] as const)('has no axe finding in %s mode', async (colorScheme) => {
    const { page, context } = await open(name, vars, { kind: 'room', status: name, retryAfter: 30 }, { colorScheme });
    try {
      const found = await axe(page);
      expect(found.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
      expect(found.map((v) => v.id)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('fits a 320 px wide screen without sideways scrolling', async () => {
    const { page, context } = await open(
      name,
      vars,
      { kind: 'room', status: name, retryAfter: 30 },
      { viewport: { width: 320, height: 640 } },
    );
    try {
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
      ).toBeLessThanOrEqual(0);
    } finally {
      await context.close();
    }
  });
});

describe('the countdown', () => {
  it('counts down each second, checks only when Retry-After says, and takes the visitor on at the start', async () => {
    const answer: CheckAnswer = {
      kind: 'room',
      status: 'prequeue',
      retryAfter: 30,
      extra: { startsInSeconds: 65, message: 'Doors open at ten sharp.' },
    };
    const { page, context, room } = await open('prequeue', countdown, answer);
    try {
      await expect.poll(() => page.locator('#left').textContent()).toBe('1 minute 35 seconds');
      await page.clock.runFor(10_000);
      expect(await page.locator('#left').textContent()).toBe('1 minute 25 seconds');
      expect(await checksMade(page)).toBe(0);
      await page.clock.runFor(21_000);
      await expect.poll(() => page.locator('#msg').textContent()).toBe('Doors open at ten sharp.');
      expect(await checksMade(page)).toBe(1);
      // At the start the room answers with the queue: the page reloads into it.
      room.answer = { kind: 'room', status: 'keepwaiting', retryAfter: 10, vars: inLine };
      await page.clock.runFor(31_000);
      await expect.poll(() => room.documents.length).toBe(2);
      await expect.poll(() => page.locator('h1').textContent()).toBe('Still in the queue');
    } finally {
      await context.close();
    }
  });

  it.each([
    ['America/New_York', 'en-US', /^Tuesday, December 1 at 05:00 AM EST$/],
    // In the page's language (en-US here), whatever the browser's own: the page's words around it are in that language.
    ['Asia/Kolkata', 'en-GB', /^Tuesday, December 1 at 03:30 PM GMT\+5:30$/],
  ])("shows the start in the visitor's own time zone, and names it (%s)", async (timezoneId, locale, shown) => {
    const { page, context } = await open(
      'prequeue',
      countdown,
      { kind: 'room', status: 'prequeue', retryAfter: 30 },
      { timezoneId, locale },
    );
    try {
      await expect.poll(() => page.locator('#at').textContent()).toMatch(shown);
    } finally {
      await context.close();
    }
  });

  it('without script shows the start in UTC and a link to check, with no timed reload', async () => {
    const { page, context } = await open(
      'prequeue',
      countdown,
      { kind: 'room', status: 'prequeue', retryAfter: 30 },
      { javaScriptEnabled: false },
    );
    try {
      expect(await page.locator('time').getAttribute('datetime')).toBe(START_ISO);
      expect(await page.locator('time').textContent()).toBe('Tuesday 1 December 2026, 10:00 UTC');
      expect(await page.locator('meta[http-equiv="refresh"]').count()).toBe(0);
      expect(await page.getByRole('link', { name: 'check now' }).count()).toBe(1);
    } finally {
      await context.close();
    }
  });
});

describe('the place in line', () => {
  it('shows how many are ahead and when the turn comes, and follows each check', async () => {
    const next: CheckAnswer = {
      kind: 'room',
      status: 'keepwaiting',
      retryAfter: 20,
      extra: { visitorsAhead: 803, turnInSeconds: 300, message: '' },
    };
    const { page, context } = await open('keepwaiting', { ...inLine, retryAfterSeconds: 20, jitterSeconds: 0 }, next);
    try {
      expect(await page.locator('#place').textContent()).toBe('about 1,200 people ahead of you');
      expect(await page.locator('#turn').textContent()).toBe('Your turn in about 8 minutes.');
      expect(await page.locator('#msg').textContent()).toBe('Section A is sold out.');
      await page.clock.runFor(21_000);
      await expect.poll(() => page.locator('#place').textContent()).toBe('about 800 people ahead of you');
      expect(await page.locator('#turn').textContent()).toBe('Your turn in about 5 minutes.');
      // The operator cleared the message: its notice goes away.
      expect(await page.locator('#msgbox').isHidden()).toBe(true);
    } finally {
      await context.close();
    }
  });
});
