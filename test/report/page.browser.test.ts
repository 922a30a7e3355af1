// The report's page in Chromium: nothing axe objects to, no sideways scroll on a 375 px phone, every
// chart inside the page's width, and nothing asked of the network.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../report/cli.js';
import { launchBrowser } from '../../lib/chromium.js';
import { makeLog } from './log-lines.js';
import { autoFields } from './origin-lines.js';
import { LANGUAGE_TAGS } from '../support/language-tags.js';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const T0 = Date.UTC(2026, 10, 26, 10, 0, 0);
const PHONE: BrowserContextOptions = {
  viewport: { width: 375, height: 740 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
};
let browser: Browser;
let pageUrl: string;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'report-page-'));
  // Every language the room ships, so the languages line is as long as it gets (12 named and the rest summed).
  const tags = LANGUAGE_TAGS;
  const zipf = tags.reduce((sum, _, i) => sum + 1 / (i + 1), 0);
  const languages = tags.map((tag, i): [string, number] => [tag, 1 / (i + 1) / zipf]);
  const shop = makeLog({
    startMs: T0,
    minutes: 8,
    arrivals: (m) => (m < 4 ? 500 : 60),
    target: 150,
    leave: 0.05,
    pops: ['LHR', 'FRA', 'AMS'],
    room: 'shop',
    sampleRate: 0.5,
    languages,
  });
  // An A/B test of the waiting page in the checkout: the variants' table and verdicts on the page too.
  const checkout = makeLog({
    startMs: T0,
    minutes: 8,
    arrivals: () => 40,
    target: 30,
    room: 'checkout',
    seed: 5,
    variants: [
      { name: 'a', share: 0.5 },
      { name: 'b', share: 0.5 },
    ],
  });
  // The shop's requests to the origin say what the origin took, and the shop is in auto: its origin section shows too.
  const timed = shop.lines.map((l, i) =>
    l.includes('"outcome":"origin"')
      ? l.replace(/\}$/, `,"originMs":${80 + (i % 400) * 3},"originStatus":${i % 97 === 0 ? 503 : 200}}`)
      : l,
  );
  writeFileSync(join(dir, 'room.log'), [...timed, ...checkout.lines, 'GET / 200 1.2ms'].join('\n'));
  writeFileSync(
    join(dir, 'control.jsonl'),
    JSON.stringify({
      ts: new Date(T0).toISOString(),
      kind: 'write',
      ok: true,
      status: 200,
      calls: 1,
      keys: [],
      rooms: { shop: { new_users_per_minute: 150, ...autoFields(120, 'holding') } },
      remaining: 950,
      error: null,
    }),
  );
  await main(
    [join(dir, 'room.log'), '--journal', join(dir, 'control.jsonl'), '--out', join(dir, 'report.html')],
    () => {},
  );
  pageUrl = `file://${join(dir, 'report.html')}`;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function open(options: BrowserContextOptions = {}): Promise<{ page: Page; requests: string[] }> {
  const context = await browser.newContext({ timezoneId: 'UTC', locale: 'en-GB', ...options });
  const page = await context.newPage();
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(pageUrl);
  return { page, requests };
}

describe("the report's page", () => {
  it('has nothing axe objects to, its folded tables open too', async () => {
    const { page, requests } = await open();
    await page.$$eval('details', (ds) => ds.forEach((d) => ((d as HTMLDetailsElement).open = true)));
    await page.evaluate(axeSource);
    const violations = await page.evaluate(async () => {
      const result = await (
        window as unknown as { axe: { run(ctx: Document): Promise<{ violations: { id: string }[] }> } }
      ).axe.run(document);
      return result.violations.map((v) => v.id);
    });
    expect(violations).toEqual([]);
    expect(requests).toEqual([pageUrl]);
    expect(await page.textContent('#sampled')).toMatch(/sampled/);
    // The checkout's A/B test is on the page: its table and a verdict for b against a.
    expect(await page.textContent('#variants-checkout + .table caption')).toMatch(/each variant's visitors/);
    expect(await page.locator('ul.verdict li').first().textContent()).toMatch(/^Left before their turn, b against a: /);
    await page.context().close();
  });

  it('fits a 375 px phone: no sideways scroll, every chart within the page', async () => {
    const { page } = await open(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // The languages line wraps between languages, never inside one, and stays a few lines long.
    const langs = await page.$eval('section[aria-labelledby="room-shop"] .langs', (p) => ({
      text: p.textContent ?? '',
      height: p.getBoundingClientRect().height,
      right: Math.max(...[...p.querySelectorAll('span')].map((s) => s.getBoundingClientRect().right)),
      lines: parseFloat(getComputedStyle(p).lineHeight),
    }));
    expect(langs.text).toMatch(
      /^Languages of the waiting visitors: en-US [\d,]+, es-ES [\d,]+, .* \d+ more languages [\d,]+\.$/,
    );
    expect(langs.right).toBeLessThanOrEqual(375);
    expect(langs.height / langs.lines).toBeLessThanOrEqual(6);
    const widths = await page.$$eval('figure svg', (svgs) =>
      svgs.filter((s) => s.getBoundingClientRect().width > 0).map((s) => s.getBoundingClientRect().right),
    );
    expect(widths.length).toBe(14);
    for (const right of widths) expect(right).toBeLessThanOrEqual(375);
    await page.context().close();
  });

  for (const [name, options] of [
    ['a 375 px phone', PHONE],
    ['a desktop', {}],
  ] as const) {
    it(`draws its charts with axis labels a person can read on ${name}, and no time label twice`, async () => {
      const { page } = await open(options);
      const charts = await page.$$eval('figure svg', (svgs) =>
        svgs
          .filter((s) => s.getBoundingClientRect().width > 0)
          .map((s) => ({
            id: s.closest('figure')!.id,
            // Text as drawn on the screen: its font size times the SVG's scale on the page.
            sizes: [...s.querySelectorAll('.role-axis-label text')].map((t) => t.getBoundingClientRect().height),
            times: [...s.querySelectorAll('.role-axis-label text')]
              .map((t) => t.textContent ?? '')
              .filter((t) => /^\d\d:\d\d$/.test(t)),
          })),
      );
      expect(charts.length).toBe(14);
      for (const c of charts) {
        expect(Math.min(...c.sizes), `${c.id}: smallest axis label, px`).toBeGreaterThanOrEqual(10);
        expect(c.times.length, c.id).toBeGreaterThan(1);
        expect(new Set(c.times).size, `${c.id}: ${c.times.join(' ')}`).toBe(c.times.length);
      }
      await page.context().close();
    });
  }
});
