// The waiting pages' own script in real Chromium, on Playwright's fake clock: when it checks
// again, what it shows meanwhile, and how it leaves. No sleeps: time moves only when the test says.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../lib/chromium.js';
import { checksMade, instrument, render, serveRoom, SHOP_URL, type CheckAnswer } from './fake-room.js';

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  context = await browser.newContext();
  page = await context.newPage();
  // Paused: time moves only through runFor, never with the wall clock, so timings are exact.
  await page.clock.install({ time: new Date('2026-03-01T10:00:00Z') });
  await page.clock.pauseAt(new Date('2026-03-01T10:00:01Z'));
});
afterEach(async () => {
  await context.close();
});

const STILL_WAITING: CheckAnswer = { kind: 'room', status: 'keepwaiting', retryAfter: 30, estimate: [40, 95, 700] };

async function open(html: string, answer: CheckAnswer, random: number) {
  await instrument(page, random);
  const room = await serveRoom(context, html, answer);
  await page.goto(SHOP_URL);
  return room;
}

const countdown = () => page.textContent('#count');
const status = () => page.textContent('[role="status"]');

describe('the waiting page in Chromium', () => {
  it.each([
    [0, 20],
    [0.5, 25],
    [0.95, 29.5],
  ])(
    'with jitter draw %d it checks at exactly Retry-After + draw x jitter (%d s), not before',
    async (random, dueSeconds) => {
      await open(render('startwaiting', { retryAfterSeconds: 20, jitterSeconds: 10 }), STILL_WAITING, random);
      await page.clock.runFor(dueSeconds * 1000 - 50);
      expect(await checksMade(page)).toBe(0);
      await page.clock.runFor(100);
      expect(await checksMade(page)).toBe(1);
    },
  );

  it('counts down visibly, second by second, without announcing every tick', async () => {
    await open(render('startwaiting', { retryAfterSeconds: 20, jitterSeconds: 10 }), STILL_WAITING, 0.5);
    expect(await page.isVisible('#count')).toBe(true);
    expect(await countdown()).toBe('25 seconds');
    await page.clock.runFor(1000);
    expect(await countdown()).toBe('24 seconds');
    await page.clock.runFor(3000);
    expect(await countdown()).toBe('21 seconds');
    // The countdown is not in the live region; the live region stays quiet until a check has an outcome.
    expect(await page.locator('#count').evaluate((el) => el.closest('[aria-live]'))).toBeNull();
    expect(await page.getAttribute('[role="status"]', 'aria-live')).toBe('polite');
    expect(await status()).toBe('');
  });

  it('shows minutes for long waits', async () => {
    await open(render('startwaiting', { retryAfterSeconds: 125, jitterSeconds: 0 }), STILL_WAITING, 0);
    expect(await countdown()).toBe('2 minutes 5 seconds');
  });

  it('asks for JSON, stays put while still waiting, refreshes the estimate and schedules the next check', async () => {
    const room = await open(render('keepwaiting', { retryAfterSeconds: 20, jitterSeconds: 10 }), STILL_WAITING, 0.5);
    await page.clock.runFor(25_000);
    await expect.poll(status).toBe('Not your turn yet. The next check is in 35 seconds.');
    expect(room.checks).toEqual(['application/json']);
    expect(room.documents).toEqual(['room']);
    // Same wording as the server renders, so the text does not jump when the page is reloaded.
    expect(await page.textContent('#wt')).toBe('less than a minute to about 12 minutes');
    expect(await page.textContent('#w50')).toBe('Half within about 2 minutes');
    expect(await countdown()).toBe('35 seconds');
    // The next check follows the new Retry-After (30) plus the same jitter draw (5), not the first one.
    await page.clock.runFor(34_900);
    expect(await checksMade(page)).toBe(1);
    await page.clock.runFor(200);
    expect(await checksMade(page)).toBe(2);
  });

  it('says the wait is being worked out, then shows the figures a later check brings', async () => {
    const pending = {
      hasEstimate: false,
      waitTimePending: true,
      waitTime25PercentileSeconds: null,
      waitTime50PercentileSeconds: null,
      waitTime75PercentileSeconds: null,
    };
    await open(render('startwaiting', { retryAfterSeconds: 20, jitterSeconds: 0, ...pending }), STILL_WAITING, 0);
    expect(await page.textContent('#wt')).toBe(
      'We are still working it out. This page shows it as soon as it is known.',
    );
    expect(await page.isVisible('#wl')).toBe(false);
    await page.clock.runFor(20_000);
    await expect.poll(() => page.textContent('#wt')).toBe('less than a minute to about 12 minutes');
    expect(await page.isVisible('#wl')).toBe(true);
    expect(await page.textContent('#w75')).toBe('3 in 4 within about 12 minutes');
  });

  it('takes the next delay from the JSON body when a proxy dropped the Retry-After header', async () => {
    await open(
      render('keepwaiting', { retryAfterSeconds: 20, jitterSeconds: 10 }),
      { ...STILL_WAITING, retryAfter: 44, noHeader: true },
      0,
    );
    await page.clock.runFor(20_000);
    await expect.poll(countdown).toBe('44 seconds');
  });

  it('reloads into the site once the check is answered by the origin instead of the room', async () => {
    const room = await open(
      render('startwaiting', { retryAfterSeconds: 20, jitterSeconds: 10 }),
      { kind: 'origin' },
      0,
    );
    await page.clock.runFor(20_000);
    await page.waitForURL(SHOP_URL, { waitUntil: 'load' });
    await expect.poll(() => page.textContent('h1')).toBe('Welcome to the shop');
    expect(room.documents).toEqual(['room', 'origin']);
  });

  it('goes to the deny page when the room closes while the visitor waits', async () => {
    const room = await open(render('startwaiting'), { kind: 'room', status: 'deny', retryAfter: 30 }, 0);
    await page.clock.runFor(20_000);
    await expect.poll(() => room.documents.length).toBe(2);
    // Let the reload finish: closing the context mid-navigation can hang Chromium under load.
    await page.waitForURL(SHOP_URL, { waitUntil: 'load' });
    // The reload shows the page the answer named, not the waiting page again.
    await expect.poll(() => page.textContent('h1')).toBe('Closed for now');
    expect(room.documents).toEqual(['room', 'room']);
  });

  it('says so and tries again later when the site cannot be reached, without reloading into an error', async () => {
    const room = await open(
      render('startwaiting', { retryAfterSeconds: 20, jitterSeconds: 10 }),
      { kind: 'network-error' },
      0,
    );
    await page.clock.runFor(20_000);
    await expect.poll(status).toBe('Could not reach the site. Trying again shortly.');
    expect(room.documents).toEqual(['room']);
    room.answer = STILL_WAITING;
    await page.clock.runFor(20_000);
    expect(await checksMade(page)).toBe(2);
  });

  it('checks at once when a tab whose timers the browser throttled is looked at again past its moment', async () => {
    await open(render('keepwaiting', { retryAfterSeconds: 20, jitterSeconds: 0 }), STILL_WAITING, 0);
    const showTab = () => page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    // Coming back before the moment changes nothing.
    await showTab();
    expect(await checksMade(page)).toBe(0);
    // The wall clock moves on while no timer fires (a throttled background tab).
    await page.clock.setSystemTime(new Date('2026-03-01T10:00:31Z'));
    expect(await checksMade(page)).toBe(0);
    await showTab();
    await expect.poll(() => checksMade(page)).toBe(1);
  });

  it('lets the visitor leave at any time: no beforeunload prompt', async () => {
    let dialogs = 0;
    page.on('dialog', (d) => {
      dialogs++;
      void d.dismiss();
    });
    await open(render('startwaiting'), STILL_WAITING, 0);
    await page.clock.runFor(5_000);
    await page.goto('about:blank');
    expect(page.url()).toBe('about:blank');
    expect(dialogs).toBe(0);
  });
});

describe('the deny page in Chromium', () => {
  it('checks again only after minutes, with its own jitter, and stays while still closed', async () => {
    const html = render('deny', { retryAfterSeconds: 30, jitterSeconds: 10 });
    const room = await open(html, { kind: 'room', status: 'deny', retryAfter: 30 }, 0.5);
    // At least 300 s apart whatever Retry-After says, plus half of max(jitter, 60).
    await page.clock.runFor(329_900);
    expect(await checksMade(page)).toBe(0);
    await page.clock.runFor(200);
    expect(await checksMade(page)).toBe(1);
    await expect.poll(status).toBe('Still closed. This page will check again in a few minutes.');
    expect(room.documents).toEqual(['room']);
  });

  it('reloads once the room answers with something other than the deny page', async () => {
    const room = await open(render('deny'), { kind: 'room', status: 'startwaiting', retryAfter: 30 }, 0);
    await page.clock.runFor(300_100);
    await expect.poll(() => room.documents.length).toBe(2);
    await page.waitForURL(SHOP_URL, { waitUntil: 'load' });
    await expect.poll(() => page.textContent('h1')).toBe('You are in the queue');
  });
});

describe('without script', () => {
  it('the waiting page says when the next chance comes and offers a link to check now, with no timed reload', async () => {
    await context.close();
    context = await browser.newContext({ javaScriptEnabled: false });
    page = await context.newPage();
    await serveRoom(context, render('keepwaiting', { refreshIntervalSeconds: 47 }), STILL_WAITING);
    await page.goto(SHOP_URL);
    expect(await page.locator('meta[http-equiv="refresh"]').count()).toBe(0);
    expect(await page.textContent('main')).toContain('next chance comes in about 47 seconds');
    expect(await page.getByRole('link', { name: 'check now' }).isVisible()).toBe(true);
    // The script's countdown line stays hidden: it would never move.
    expect(await page.isVisible('#next')).toBe(false);
  });
});
