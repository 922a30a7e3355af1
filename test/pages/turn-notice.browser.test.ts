// The waiting page at the turn in a background tab, in real Chromium on Playwright's fake clock: the
// opt-in button (asked only on its click), the title, the tone, the notification, the announcement,
// and going in when the visitor comes back. The packaged Chromium the tests use is the headless shell,
// which has no tabs: every page in it reads 'visible' whatever is opened over it (a page opened over
// it, a minimised window and a background target all leave it so). So the test sets the Page Visibility
// API's answer itself (document.visibilityState and document.hidden, and the visibilitychange event),
// and the page is asserted to read 'hidden'; what a real background tab does to the page's timers is
// measured in a full Chromium by `npm run bench:turn` (docs/how-it-works.md). The headless shell also
// has no notifications: its Notification.permission reads 'denied' whatever the context granted, so
// the test stands in for the Notification API too (the permission, the visitor's answer to the
// prompt, the notifications shown); the bench shows the real one, granted, in a full Chromium.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../lib/chromium.js';
import { localeByTag } from '../../src/core/i18n/locales.js';
import { Strings } from '../../src/core/i18n/strings.js';
import { recorded, recorders, setHidden as hide, type NotifyState } from '../../lib/hidden-tab.js';
import { checksMade, instrument, render, serveRoom, SHOP_URL, type CheckAnswer } from './fake-room.js';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await context?.close();
});

async function open(answer: CheckAnswer, notify: NotifyState = { permission: 'default' }, html?: string) {
  context = await browser.newContext();
  page = await context.newPage();
  await page.clock.install({ time: new Date('2026-03-01T10:00:00Z') });
  await page.clock.pauseAt(new Date('2026-03-01T10:00:01Z'));
  await instrument(page, 0);
  await page.addInitScript(recorders, notify);
  const room = await serveRoom(
    context,
    html ?? render('keepwaiting', { retryAfterSeconds: 20, jitterSeconds: 0 }),
    answer,
  );
  await page.goto(SHOP_URL);
  return room;
}

const rec = () => recorded(page);
const setHidden = (hidden: boolean) => hide(page, hidden);
const button = () => page.getByRole('button', { name: 'Notify me when it is my turn' });
const status = () => page.textContent('[role="status"]');

async function axeViolations(): Promise<string[]> {
  // axe waits on timers: the clock runs again (no check falls due in the seconds it takes).
  await page.clock.resume();
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(d: Document): Promise<{ violations: { id: string }[] }> } }).axe;
    return (await axe.run(document)).violations.map((v) => v.id);
  });
}

const WAITING: CheckAnswer = { kind: 'room', status: 'keepwaiting', retryAfter: 20 };

describe('the notification button', () => {
  it('is offered only with script, and asks nothing until it is clicked', async () => {
    await open(WAITING);
    await expect.poll(() => button().isVisible()).toBe(true);
    expect((await rec()).asks).toBe(0);
    expect(await axeViolations()).toEqual([]);
    await context.close();

    context = await browser.newContext({ javaScriptEnabled: false });
    page = await context.newPage();
    await serveRoom(context, render('keepwaiting'), WAITING);
    await page.goto(SHOP_URL);
    expect(await page.isVisible('#nb')).toBe(false);
    expect(await page.isVisible('noscript, a[href=""]')).toBe(true);
  });

  it('is not offered where the browser has no notifications, or where they were refused before', async () => {
    await open(WAITING, {});
    expect(await page.evaluate(() => 'Notification' in window)).toBe(false);
    expect(await page.isVisible('#nb')).toBe(false);
    await context.close();

    await open(WAITING, { permission: 'denied' });
    expect(await page.isVisible('#nb')).toBe(false);
    expect(await page.isVisible('#next')).toBe(true);
  });

  it('asks on the click, and once allowed says so in place of the button, announced', async () => {
    await open(WAITING, { permission: 'default', answer: 'granted' });
    await button().click();
    await expect
      .poll(() => page.textContent('#nb, p[aria-live]:not(#proof)'))
      .toBe('You will get a notification when it is your turn.');
    expect((await rec()).asks).toBe(1);
    expect(await button().count()).toBe(0);
    expect(await axeViolations()).toEqual([]);
  });

  it('goes away quietly when the visitor refuses', async () => {
    await open(WAITING, { permission: 'default', answer: 'denied' });
    await button().click();
    await expect.poll(() => button().isVisible()).toBe(false);
    expect((await rec()).asks).toBe(1);
    expect(await status()).toBe('');
  });
});

describe('the turn in a hidden tab', () => {
  it('changes the title, plays a tone, shows the notification and says so; goes in when the visitor comes back', async () => {
    const room = await open({ kind: 'origin' }, { permission: 'granted' });
    // Allowed on an earlier visit: the page says so at once, no button.
    expect(await page.textContent('p[aria-live]:not(#proof):not([role])')).toBe(
      'You will get a notification when it is your turn.',
    );
    await setHidden(true);
    expect(await page.evaluate(() => document.visibilityState)).toBe('hidden');
    await page.clock.runFor(20_000);
    await expect.poll(() => page.title()).toBe('It is your turn!');
    expect(await status()).toBe('It is your turn! Come back to this tab to go to the site.');
    // No countdown left to read: nothing more is checked.
    expect(await page.isVisible('#next')).toBe(false);
    const seen = await rec();
    expect(seen.notes).toEqual([{ title: 'It is your turn!', body: 'Come back to this tab to go to the site.' }]);
    expect(seen.tones).toBe(1);
    // Hidden, the page stays: no reload, and no more checks however long the visitor is away.
    await page.clock.runFor(3_600_000);
    expect(room.documents).toEqual(['room']);
    expect(await checksMade(page)).toBe(1);
    // Clicking the notification brings the tab forward.
    await page.evaluate(() =>
      (window as unknown as { __shown: { onclick(e: Event): void }[] }).__shown[0]?.onclick(new Event('click')),
    );
    expect((await rec()).focus).toBe(1);
    await setHidden(false);
    await page.waitForURL(SHOP_URL, { waitUntil: 'load' });
    await expect.poll(() => page.textContent('h1')).toBe('Welcome to the shop');
    expect(room.documents).toEqual(['room', 'origin']);
  });

  it('without the permission: the title, the tone and the announcement, no notification', async () => {
    await open({ kind: 'origin' }, { permission: 'default' });
    await setHidden(true);
    await page.clock.runFor(20_000);
    await expect.poll(() => page.title()).toBe('It is your turn!');
    expect(await status()).toBe('It is your turn! Come back to this tab to go to the site.');
    expect((await rec()).notes).toEqual([]);
    expect((await rec()).tones).toBe(1);
  });

  it("speaks the visitor's language", async () => {
    const de = localeByTag('de-DE')!;
    const html = render(
      'keepwaiting',
      { retryAfterSeconds: 20, jitterSeconds: 0 },
      {},
      { strings: new Strings(de), offered: [de], search: '', message: '' },
    );
    await open({ kind: 'origin' }, { permission: 'granted' }, html);
    await setHidden(true);
    await page.clock.runFor(20_000);
    await expect.poll(() => page.title()).toBe('Sie sind an der Reihe!');
    expect((await rec()).notes).toEqual([
      { title: 'Sie sind an der Reihe!', body: 'Kehren Sie zu diesem Tab zurück, um zur Website zu gelangen.' },
    ]);
  });

  it('is not the turn when the room closes: the deny page, no notification', async () => {
    const room = await open({ kind: 'room', status: 'deny', retryAfter: 30 }, { permission: 'granted' });
    await setHidden(true);
    await page.clock.runFor(20_000);
    await expect.poll(() => room.documents).toEqual(['room', 'room']);
    await page.waitForURL(SHOP_URL, { waitUntil: 'load' });
    expect(await page.textContent('h1')).toBe('Closed for now');
  });

  it('in front, the page goes in at once, as it always did: no notification', async () => {
    const room = await open({ kind: 'origin' }, { permission: 'granted' });
    await page.clock.runFor(20_000);
    await page.waitForURL(SHOP_URL, { waitUntil: 'load' });
    await expect.poll(() => page.textContent('h1')).toBe('Welcome to the shop');
    expect(room.documents).toEqual(['room', 'origin']);
  });
});

describe('the clock of a background tab', () => {
  it("checks when due even while the page's own timers do not fire: its worker wakes it", async () => {
    // Real time in the worker, a paused clock in the page: the page's timers never fire, as in a tab
    // Chromium throttles to one wake-up a minute, while its wall clock moves past the due moment.
    await open(
      { kind: 'room', status: 'keepwaiting', retryAfter: 20 },
      { permission: 'default' },
      render('keepwaiting', { retryAfterSeconds: 3, jitterSeconds: 0 }),
    );
    await page.clock.setSystemTime(new Date('2026-03-01T10:00:30Z'));
    await expect.poll(() => checksMade(page), { timeout: 15_000 }).toBe(1);
  });
});
