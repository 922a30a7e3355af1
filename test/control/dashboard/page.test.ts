// The controller's dashboard in a real browser: what an operator sees, and nothing axe objects to.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Controller } from '../../../control/controller.js';
import { startDashboard } from '../../../control/dashboard/server.js';
import { createControlModel } from '../../../control/model/index.js';
import { Writer, type Store } from '../../../control/writer.js';
import { admittedLine } from '../lines.js';
import { launchBrowser } from '../../support/chromium.js';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const NOW = Date.now();
let browser: Browser;
let url: string;
let close: () => void;

beforeAll(async () => {
  browser = await launchBrowser();
  const values: Record<string, string> = { allow_percentage: '100', new_users_per_minute: '60', wait_period_duration: '30' };
  const store: Store = { name: 'test store', read: async () => ({ ...values }), write: async (w) => void Object.assign(values, w) };
  const writer = new Writer(store, 0, () => {});
  const controller = new Controller({ model: createControlModel(), store, writer, sourceName: 'stdin', lagLimitMs: 600_000, log: () => {} });
  for (let i = 0; i < 90; i++) controller.line(`waiting_room_log :: ${admittedLine(NOW - 20_000 + i * 100, i, i % 3 === 0 ? 'FRA' : 'LHR')}`, NOW);
  controller.line('some other output', NOW);
  await controller.tick(NOW);
  const dashboard = await startDashboard(0, () => controller.snapshot(Date.now()));
  url = dashboard.url;
  close = () => dashboard.server.close();
});

afterAll(async () => {
  await browser?.close();
  close?.();
});

describe('the dashboard', () => {
  it('shows the mode, the target, the POPs, the source and the last write', async () => {
    const page = await browser.newPage();
    await page.goto(url);
    await expect.poll(() => page.textContent('#state')).toMatch(/Target 60 a minute/);
    const pops = await page.$$eval('#pops tr td:first-child', (cells) => cells.map((c) => c.textContent));
    expect(pops.sort()).toEqual(['FRA', 'LHR']);
    const io = await page.textContent('#io');
    expect(io).toMatch(/stdin: ok/);
    expect(io).toMatch(/90 read, 0 unusable, 1 not the room's/);
    expect(io).toMatch(/allow_percentage=/);
    expect(await page.$$eval('svg polyline', (lines) => lines.length)).toBeGreaterThanOrEqual(4);
    // Self-contained: nothing but the page and its own JSON was asked for.
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.reload();
    await expect.poll(() => requests.some((r) => r.endsWith('/api/snapshot'))).toBe(true);
    expect(requests.every((r) => r.startsWith(url))).toBe(true);
    await page.close();
  });

  it('has no axe violations', async () => {
    const page = await browser.newPage();
    await page.goto(url);
    await expect.poll(() => page.textContent('#state')).toMatch(/Target/);
    await page.evaluate(axeSource);
    const violations = await page.evaluate(async () => {
      const result = await (window as unknown as { axe: { run(ctx: Document): Promise<{ violations: { id: string }[] }> } }).axe.run(document);
      return result.violations.map((v) => v.id);
    });
    expect(violations).toEqual([]);
    await page.close();
  });
});
