// Every built-in language in a real Chromium against bin/main.wasm on the local host, chosen the way a
// visitor's browser chooses it (its Accept-Language): the waiting page, the countdown and the deny
// page each render with no missing string, nothing left in English, the page's language and direction
// declared, no axe finding, no sideways scrolling at 320 px; and what the page's script writes later
// (the countdown, the check's status and estimate) speaks the language of the first render.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../lib/chromium.js';
import { startRoom, type Room } from '../../lib/room-host.js';
import { enUS, type MessageKey } from '../../src/core/i18n/catalogs/en-US.js';
import { LOCALES } from '../../src/core/i18n/locales.js';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const HOUR = 3600_000;

let room: Room;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
  const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
  room = await startRoom({
    // Long windows: no token falls due while a page is looked at, but the page's own check does come.
    settings: { wait_period_duration: '60', allow_percentage: '100', identity: 'ip' },
    store: {
      routing: JSON.stringify({
        rooms: [
          { id: 'wait', routes: ['/wait'] },
          { id: 'pre', routes: ['/pre'] },
          { id: 'deny', routes: ['/deny'] },
        ],
      }),
      // A chance no test run wins: the page always waits, with an estimate of many hours.
      'room.wait': JSON.stringify({ allow_percentage: '0.001' }),
      'room.pre': JSON.stringify({
        event_prequeue_start: iso(Date.now() - HOUR),
        event_start: iso(Date.now() + 2 * HOUR),
      }),
      'room.deny': JSON.stringify({ allow_percentage: '0' }),
    },
  });
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await room?.stop();
});

/**
 * The English catalog's sentences as fragments a page in another language must not contain: the
 * literal text between arguments, where it has at least two words of three letters or more.
 */
const ENGLISH_FRAGMENTS = (Object.keys(enUS) as MessageKey[])
  .flatMap((k) => enUS[k].split(/\{[^{}]*\}|[{}#|]/))
  .map((f) =>
    f
      .trim()
      .replace(/^[,.:;]+|[,.:;]+$/g, '')
      .trim(),
  )
  .filter((f) => /[A-Za-z]{3,}\W+[A-Za-z]{3,}/.test(f));

async function visibleText(page: Page): Promise<string> {
  return page.evaluate(() => `${document.title}\n${document.body.innerText}`);
}

async function expectSpoken(page: Page, tag: string): Promise<void> {
  const text = await visibleText(page);
  expect(text, `${tag}: a placeholder left`).not.toMatch(/\{\{?|\}\}?|undefined|\bnull\b|\bNaN\b/);
  if (tag !== 'en-US') {
    const english = ENGLISH_FRAGMENTS.filter((f) => text.includes(f));
    expect(english, `${tag}: English left on the page`).toEqual([]);
  }
}

async function axe(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const run = (
      window as unknown as {
        axe: { run(ctx: Document, opts: object): Promise<{ violations: { id: string; help: string }[] }> };
      }
    ).axe.run;
    const result = await run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id}: ${v.help}`);
  });
}

async function open(tag: string, path: string): Promise<Page> {
  const context = await browser.newContext({ locale: tag, viewport: { width: 320, height: 640 } });
  const page = await context.newPage();
  await page.clock.install();
  const answer = await page.goto(`${room.url}${path}`);
  expect(answer?.headers().vary ?? '', `${tag} ${path}`).toMatch(/accept-language/i);
  return page;
}

async function expectRendered(page: Page, tag: string, dir: string): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.lang)).toBe(tag);
  expect(await page.evaluate(() => document.documentElement.dir || 'ltr')).toBe(dir);
  expect((await page.title()).trim()).not.toBe('');
  await expectSpoken(page, tag);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    `${tag}: sideways scrolling at 320 px`,
  ).toBeLessThanOrEqual(0);
  expect(await axe(page), tag).toEqual([]);
}

describe.each(LOCALES.map((l) => [l.info.tag, l.info.dir] as const))('%s', (tag, dir) => {
  it('the waiting page, and its check a minute later, speak the language', { timeout: 60_000 }, async () => {
    const page = await open(tag, '/wait');
    try {
      await expectRendered(page, tag, dir);
      // The page's own check (Retry-After plus its jitter): its status line and the estimate it updates.
      await page.clock.runFor(5 * 60_000);
      await expect
        .poll(() => page.evaluate(() => document.querySelector('[role=status]')?.textContent ?? ''), {
          timeout: 20_000,
        })
        .not.toBe('');
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(tag);
      await expectSpoken(page, tag);
    } finally {
      await page.context().close();
    }
  });

  it('the countdown speaks the language as it counts', { timeout: 60_000 }, async () => {
    const page = await open(tag, '/pre');
    try {
      await expectRendered(page, tag, dir);
      await page.clock.runFor(2_000);
      await expectSpoken(page, tag);
    } finally {
      await page.context().close();
    }
  });

  it('the deny page speaks the language', { timeout: 60_000 }, async () => {
    const page = await open(tag, '/deny');
    try {
      await expectRendered(page, tag, dir);
    } finally {
      await page.context().close();
    }
  });
});
