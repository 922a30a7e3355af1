// The dashboard's origin and autopilot in a real browser: the origin's time to headers and error share
// a minute against the objective, the rate the autopilot chose beside admissions under its ceiling,
// and a line of its state, from snapshots made here; a room in manual mode shows the origin without
// an objective, and an edge that logs no origin times says so.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDashboard } from '../../../control/dashboard/server.js';
import type { DashboardSnapshot, PaceSnapshot } from '../../../control/types.js';
import { launchBrowser } from '../../../lib/chromium.js';
import { made, minute } from './made-snapshots.js';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
let browser: Browser;
let url: string;
let current: DashboardSnapshot;
let close: () => void = () => {};

const pace: PaceSnapshot = {
  state: 'cutting',
  why: 'cutting: p90 1250 ms is over 800; cut to 105.4 a minute',
  ratePerMinute: 105.4,
  floorPerMinute: 60,
  ceilingPerMinute: 600,
  objective: { percentile: 90, latencyMs: 800, errorShare: 0.01 },
  latencyMs: 1250,
  errorShare: 0.031,
  requests: 1000,
};
// 17:04 healthy at 150 a minute, 17:05 slow and failing (the autopilot cut to 105), 17:06 so far.
const minutes = [
  minute('17:04', { admissions: 148, target: 150, origin: { requests: 900, latencyMs: 420, errorShare: 0.002 } }),
  minute('17:05', { admissions: 131, target: 105.4, origin: { requests: 1000, latencyMs: 1250, errorShare: 0.031 } }),
  minute('17:06', { admissions: 20, target: 105.4, origin: { requests: 120, latencyMs: 380, errorShare: 0 } }),
];
const targets = { newUsersPerMinute: 600, totalActiveUsers: null, sessionDurationMinutes: 5 };
const auto = made({ why: 'queueing: 2000 waiting', waiting: 2000, targets, minutes, pace });
const manual = made({
  why: 'queueing: 2000 waiting',
  waiting: 2000,
  minutes: minutes.map((m) => ({ ...m, target: 120 })),
});
const older = made({
  why: 'queueing: 2000 waiting',
  waiting: 2000,
  minutes: minutes.map((m) => minute('17:04', { startMs: m.startMs })),
});

beforeAll(async () => {
  browser = await launchBrowser();
  const dashboard = await startDashboard(0, () => current);
  url = dashboard.url;
  close = () => dashboard.server.close();
});
afterAll(async () => {
  await browser?.close();
  close();
});

async function open(snapshot: DashboardSnapshot, options: BrowserContextOptions = {}): Promise<Page> {
  current = snapshot;
  const context = await browser.newContext({ timezoneId: 'UTC', locale: 'en-GB', ...options });
  const page = await context.newPage();
  await page.goto(url);
  await expect.poll(() => page.textContent('#state')).toMatch(/Target|Rate chosen/);
  return page;
}

/** A chart's lines: each polyline's points, and whether it is dashed. */
const drawn = (page: Page, id: string) =>
  page.$$eval(`#${id} polyline`, (lines) =>
    lines.map((l) => ({
      points: l.getAttribute('points')!.split(' ').length,
      dashed: (l.getAttribute('style') ?? '').includes('dasharray'),
      ys: l
        .getAttribute('points')!
        .split(' ')
        .map((p) => Number(p.split(',')[1])),
    })),
  );

describe("the dashboard's origin and autopilot", () => {
  it("says the autopilot's state, why, the rate it chose between its bounds, and what it read", async () => {
    const page = await open(auto);
    expect(await page.isVisible('#pace')).toBe(true);
    expect(await page.textContent('#pace')).toBe(
      'Autopilot (target_mode=auto), cutting: p90 1,250 ms is over 800; cut to 105.4 a minute. Rate chosen: 105 new visitors a minute (floor 60, ceiling 600). The origin lately: p90 1,250 ms (objective 800 ms), errors 3.1% (objective 1%) over 1,000 requests.',
    );
    expect(await page.textContent('#state')).toMatch(/Rate chosen 105 a minute \(ceiling 600\)/);
    await page.context().close();
  });

  it("draws the origin's p90 and error share a minute against the objective, and names the minute's figures", async () => {
    const page = await open(auto);
    expect(await page.textContent('#origin-latency-text')).toBe(
      'Minute 17:05: p90 1,250 ms (objective 800 ms) over 1,000 requests. 17:06 so far: p90 380 ms.',
    );
    expect(await page.textContent('#origin-errors-text')).toBe(
      'Minute 17:05: 3.1% of 1,000 requests failed (objective 1%). 17:06 so far: 0% errors.',
    );
    const [latency, objective] = await drawn(page, 'origin-latency');
    expect(latency).toMatchObject({ points: 3, dashed: false });
    expect(objective).toMatchObject({ points: 3, dashed: true });
    // 17:05 (1,250 ms) above the objective, 17:04 and 17:06 below it: SVG's y grows downwards.
    const rule = objective!.ys[0]!;
    expect(latency!.ys[1]!).toBeLessThan(rule);
    expect(latency!.ys[0]!).toBeGreaterThan(rule);
    expect(latency!.ys[2]!).toBeGreaterThan(rule);
    const [errors, errorRule] = await drawn(page, 'origin-errors');
    expect(errors!.ys[1]!).toBeLessThan(errorRule!.ys[0]!);
    expect(errorRule!.dashed).toBe(true);
    await page.context().close();
  });

  it('draws the rate chosen beside admissions, under the ceiling', async () => {
    const page = await open(auto);
    expect(await page.isVisible('#rate-key')).toBe(true);
    expect(await page.textContent('#target-key')).toBe('ceiling');
    const [admitted, ceiling, rate] = await drawn(page, 'admissions');
    expect(admitted!.dashed).toBe(false);
    expect(ceiling!.dashed).toBe(true);
    expect(rate).toMatchObject({ points: 3, dashed: false });
    // The rate chosen (150, then 105) under the ceiling (600).
    expect(Math.min(...rate!.ys)).toBeGreaterThan(ceiling!.ys[0]!);
    expect(rate!.ys[1]!).toBeGreaterThan(rate!.ys[0]!);
    expect(await page.textContent('#admissions-text')).toMatch(
      /admitted 131, rate chosen 105 a minute \(ceiling 600\)/,
    );
    await page.context().close();
  });

  it('shows the origin without an objective or an autopilot line in manual mode', async () => {
    const page = await open(manual);
    expect(await page.isHidden('#pace')).toBe(true);
    expect(await page.isHidden('#rate-key')).toBe(true);
    expect(await page.textContent('#target-key')).toBe('target');
    expect(await page.textContent('#origin-latency-text')).toBe(
      'Minute 17:05: p90 1,250 ms over 1,000 requests. 17:06 so far: p90 380 ms. No objective: the room is not in target_mode=auto.',
    );
    expect((await drawn(page, 'origin-latency')).map((l) => l.dashed)).toEqual([false]);
    expect(await drawn(page, 'admissions')).toHaveLength(2);
    await page.context().close();
  });

  it('says so when the log carries no origin times (an edge from before them)', async () => {
    const page = await open(older);
    expect(await page.textContent('#origin-latency-text')).toMatch(/^Minute 17:05: no request to the origin counted\./);
    expect(await page.textContent('#origin-errors-text')).toBe('Minute 17:05: no request to the origin counted.');
    expect(await drawn(page, 'origin-latency')).toEqual([]);
    await page.context().close();
  });

  it('fits a 375 px phone, and axe finds nothing in light or dark', async () => {
    const phone = await open(auto, { viewport: { width: 375, height: 740 }, deviceScaleFactor: 2, isMobile: true });
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await phone.context().close();
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await open(auto, { colorScheme });
      await page.evaluate(axeSource);
      const violations = await page.evaluate(async () => {
        const result = await (
          window as unknown as { axe: { run(ctx: Document): Promise<{ violations: { id: string }[] }> } }
        ).axe.run(document);
        return result.violations.map((v) => v.id);
      });
      expect(violations).toEqual([]);
      await page.context().close();
    }
  });
});
