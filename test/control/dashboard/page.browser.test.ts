// The controller's dashboard in a real browser: what an operator sees, on a laptop and on a phone, in
// light and dark, and nothing axe objects to. One dashboard runs on a real controller; another serves
// snapshots made here, so each figure the page formats is known.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Controller } from '../../../control/controller.js';
import { startDashboard } from '../../../control/dashboard/server.js';
import { createControlModel } from '../../../control/model/index.js';
import type { DashboardSnapshot } from '../../../control/types.js';
import { at, made, minute, modelOf, popRow } from './made-snapshots.js';
import { Writer, type Store } from '../../../control/store/index.js';
import { admittedLine } from '../lines.js';
import { launchBrowser } from '../../../lib/chromium.js';
import { storeFromSettings } from '../../../src/core/settings/index.js';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const NOW = Date.now();
let browser: Browser;
let url: string;
let madeUrl: string;
const closers: (() => void)[] = [];

const schedule = [at('17:05:20') / 1000, at('17:05:40') / 1000, at('17:06:00') / 1000]
  .map((w, i) => `${w}=${[12, 14.5, 87.566238][i]}`)
  .join(',');
const busy = made(
  {
    why: 'queueing: 1438 waiting, next window at 87.566238%',
    allowPercentage: 87.566238,
    waiting: 1438,
    activeSessions: 414,
    minutes: [
      minute('17:04', { admissions: 131, draws: 900, waiting: 1500, allowPercentage: 62.123456, activeSessions: 300 }),
      minute('17:05', { admissions: 120, draws: 950, waiting: 1450, allowPercentage: 70.987654, activeSessions: 380 }),
      minute('17:06', { admissions: 14, draws: 300, waiting: 1438, allowPercentage: 87.566238, activeSessions: 414 }),
    ],
    // The POPs' admissions in 17:05 add up to that minute's 120.
    pops: [popRow('LHR', 60), popRow('FRA', 30), popRow('AMS', 20), popRow('NRT', 6), popRow('SYD', 4)],
  },
  { lastWrite: { atMs: at('17:05:00'), values: { default: { allow_schedule: schedule } }, ok: true, error: null } },
);
const idle = made({
  mode: 'open',
  why: 'open: 1 admissions a minute, under the target',
  allowPercentage: 100,
  waiting: 1,
  activeSessions: 1,
  minutes: [minute('17:05', { admissions: 1, draws: 1, waiting: 1, activeSessions: 1 }), minute('17:06', {})],
  pops: [popRow('local', 1)],
});
const empty = made(
  { mode: 'observing', why: 'waiting for the first decision line' },
  {
    source: {
      name: 'stdin',
      state: 'starting',
      lagMs: null,
      lastLineMs: null,
      lines: 0,
      bad: 0,
      foreign: 0,
      previews: 0,
      error: null,
    },
  },
);
// Two rooms on one service: the shop queueing to its 600 a minute, the checkout open under its 120.
const twoRooms: DashboardSnapshot = {
  ...busy,
  rooms: [
    {
      id: 'shop',
      model: modelOf({
        ...busy.rooms[0]!.model,
        targets: { newUsersPerMinute: 600, totalActiveUsers: null, sessionDurationMinutes: 5 },
      }),
      lines: 9_000,
    },
    { id: 'checkout', model: idle.rooms[0]!.model, lines: 300 },
  ],
  unrouted: { rule_bypass: 42 },
  lastWrite: {
    atMs: at('17:05:00'),
    values: { shop: { allow_schedule: schedule }, checkout: { allow_percentage: '100' } },
    ok: true,
    error: null,
  },
};
// The API budget as the controller reports it on a real service (absent on the local store file).
interface ApiPanel {
  perHour: number;
  usedLastHour: { reads: number; writes: number; heartbeats: number; logTails: number };
  remaining: number | null;
  backoffUntilMs: number | null;
  why: string | null;
  nextReadMs: number | null;
}
type Snapshot = Omit<DashboardSnapshot, 'api'> & { api?: ApiPanel | null };
const budgeted: Snapshot = {
  ...busy,
  api: {
    perHour: 300,
    usedLastHour: { reads: 60, writes: 1_150, heartbeats: 20, logTails: 4 },
    remaining: 0,
    backoffUntilMs: at('17:07:05'),
    why: 'Fastly answered 429: rate limit spent',
    nextReadMs: at('17:07:20'),
  },
};
// A whole hour of history, 16:07 to 17:06: what the server kept while no tab was open.
const hour = made({
  ...busy.rooms[0]!.model,
  minutes: Array.from({ length: 60 }, (_, i) => ({
    ...minute('17:06', { admissions: 100 + (i % 7), waiting: 2_000 + i * 10 }),
    startMs: at('16:07:00') + i * 60_000,
  })),
});
let current: Snapshot = busy;

beforeAll(async () => {
  browser = await launchBrowser();
  const values = storeFromSettings({ allow_percentage: '100', new_users_per_minute: '60', wait_period_duration: '30' });
  // A local store file, as with npm start -- --control: its reads and writes cost no API call.
  const store: Store = {
    name: 'test store',
    free: true,
    read: async () => ({ ...values }),
    write: async (w) => void Object.assign(values, w),
  };
  const writer = new Writer(store, 0, () => {});
  const controller = new Controller({
    createModel: () => createControlModel(),
    store,
    writer,
    sourceName: 'stdin',
    lagLimitMs: 600_000,
    log: () => {},
  });
  for (let i = 0; i < 90; i++)
    controller.line(`waiting_room_log :: ${admittedLine(NOW - 20_000 + i * 100, i, i % 3 === 0 ? 'FRA' : 'LHR')}`, NOW);
  // Waiting pages the room wrote in three languages (the edge names each answer's language: `lang`).
  for (const [lang, n] of [
    ['th-TH', 6],
    ['de-DE', 3],
    ['hi-IN', 1],
  ] as const)
    for (let i = 0; i < n; i++)
      controller.line(
        `waiting_room_log :: ${JSON.stringify({ ...JSON.parse(admittedLine(NOW - 10_000 + i * 100, 500 + i)), decision: 'wait', outcome: 'keepwaiting', reason: 'lose', lang })}`,
        NOW,
      );
  controller.line('some other output', NOW);
  await controller.tick(NOW);
  const dashboard = await startDashboard(0, () => controller.snapshot(Date.now()));
  url = dashboard.url;
  closers.push(() => dashboard.server.close());
  const madeDashboard = await startDashboard(0, () => current as DashboardSnapshot);
  madeUrl = madeDashboard.url;
  closers.push(() => madeDashboard.server.close());
});

afterAll(async () => {
  await browser?.close();
  for (const close of closers) close();
});

const PHONE: BrowserContextOptions = {
  viewport: { width: 375, height: 740 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
};

async function open(snapshot: Snapshot | null, options: BrowserContextOptions = {}): Promise<Page> {
  if (snapshot !== null) current = snapshot;
  const context = await browser.newContext({ timezoneId: 'UTC', locale: 'en-GB', ...options });
  const page = await context.newPage();
  await page.goto(snapshot === null ? url : madeUrl);
  await expect.poll(() => page.textContent('#state')).toMatch(/Target|No target|Rate chosen/);
  return page;
}

async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const result = await (
      window as unknown as { axe: { run(ctx: Document): Promise<{ violations: { id: string }[] }> } }
    ).axe.run(document);
    return result.violations.map((v) => v.id);
  });
}

/** The page's own y-axis labels of each chart (the x axis's are times). */
const yLabels = (page: Page) =>
  page.$$eval('svg', (svgs) =>
    svgs.map((s) =>
      [...s.querySelectorAll('text')].map((t) => t.textContent ?? '').filter((t) => !/^\d\d:\d\d$/.test(t)),
    ),
  );

describe('the dashboard', () => {
  it('shows the mode, the target, the POPs, the source and the last write', async () => {
    const page = await open(null);
    await expect.poll(() => page.textContent('#state')).toMatch(/Target 60 a minute/);
    const pops = await page.$$eval('#pops tr th, #pops tr td:first-child', (cells) => cells.map((c) => c.textContent));
    expect(pops.sort()).toEqual(['FRA', 'LHR']);
    const io = await page.textContent('#io');
    expect(io).toMatch(/stdin: ok/);
    expect(io).toMatch(/100 read, 0 unusable, 1 not the room's/);
    expect(io).toMatch(/allow_percentage/);
    // On the local store file there is no API budget: no panel, and no budget named beside the writes.
    expect(await page.isHidden('#api-panel')).toBe(true);
    expect(io).not.toMatch(/budget/);
    expect(io).toMatch(/the local store file costs no API call/);
    // Every series is drawn: a line, or a dot while it has a single minute.
    expect(await page.$$eval('svg polyline, svg circle', (marks) => marks.length)).toBeGreaterThanOrEqual(4);
    // Self-contained: nothing but the page and its own JSON was asked for.
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.reload();
    await expect.poll(() => requests.some((r) => r.endsWith('/api/snapshot'))).toBe(true);
    expect(requests.every((r) => r.startsWith(url))).toBe(true);
    await page.context().close();
  });

  it('fits a 375 px phone: no sideways scroll, the POP table included', async () => {
    for (const snapshot of [busy, null]) {
      const page = await open(snapshot, PHONE);
      await expect.poll(() => page.$$eval('#pops tr', (rows) => rows.length)).toBeGreaterThan(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await page.context().close();
    }
  });

  it('follows a dark system setting, and axe finds nothing in either', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await open(busy, { colorScheme });
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      const [r, g, b] = background.match(/\d+/g)!.map(Number) as [number, number, number];
      if (colorScheme === 'dark') expect(r + g + b).toBeLessThan(150);
      else expect(r + g + b).toBeGreaterThan(600);
      expect(await axeViolations(page)).toEqual([]);
      await page.context().close();
    }
  });

  it('draws charts with tick labels a phone can read and a time axis', async () => {
    const page = await open(busy, PHONE);
    const heights = await page.$$eval('svg text', (texts) => texts.map((t) => t.getBoundingClientRect().height));
    expect(heights.length).toBeGreaterThan(0);
    expect(Math.min(...heights)).toBeGreaterThanOrEqual(11);
    const times = await page.$$eval('#admissions text', (texts) =>
      texts.map((t) => t.textContent).filter((t) => /^\d\d:\d\d$/.test(t ?? '')),
    );
    expect(times).toEqual(expect.arrayContaining(['17:04', '17:06']));
    await page.context().close();
  });

  it('gives an idle room whole-number ticks, none repeated', async () => {
    const page = await open(idle);
    const labels = await yLabels(page);
    expect(labels).toHaveLength(6);
    for (const chart of labels) {
      expect(chart.length).toBeGreaterThanOrEqual(2);
      expect(new Set(chart).size).toBe(chart.length);
      for (const label of chart) expect(label).toMatch(/^\d+%?$/);
    }
    await page.context().close();
  });

  it('states the same target in the charts as in the header, before the first line too', async () => {
    for (const snapshot of [empty, busy]) {
      const page = await open(snapshot);
      expect(await page.textContent('#state')).toMatch(/Target 120 a minute/);
      const text = await page.textContent('#admissions-text');
      expect(text).toMatch(/target 120 a minute/);
      expect(text).not.toMatch(/none/);
      await page.context().close();
    }
  });

  it('rounds percentages and shows allow_schedule as times of day', async () => {
    const page = await open(busy);
    const body = await page.innerText('main');
    expect(body).toMatch(/next window at 87\.6%/);
    expect(body).not.toMatch(/\d\.\d{2,}%/);
    // What the operator reads: the raw schedule is folded away (closed <details> is not rendered).
    const io = await page.innerText('#io');
    expect(io).toMatch(/allow_schedule: from 17:05:20: 12%, 17:05:40: 14\.5%, 17:06:00: 87\.6%/);
    expect(io).not.toMatch(/\d{10}/);
    await page.context().close();
  });

  it('shows the difficulty the controller set for a room in auto, and proof_schedule as times of day', async () => {
    const proof = schedule.replace(/=[\d.]+/g, (_, i) => `=${[0, 5, 13][schedule.slice(0, i).split(',').length - 1]}`);
    const page = await open(
      made(
        { ...busy.rooms[0]!.model, proofSeconds: 13 },
        {
          lastWrite: {
            atMs: at('17:05:00'),
            values: { default: { allow_schedule: schedule, proof_schedule: proof } },
            ok: true,
            error: null,
          },
        },
      ),
    );
    expect(await page.textContent('#state')).toMatch(/Proof of work \(auto\): 13 s a draw\./);
    expect(await page.textContent('#state')).not.toMatch(/got \d+% of the chance/);
    const fixed = await open(made({ ...busy.rooms[0]!.model, proofShare: 0.2 }));
    expect(await fixed.textContent('#state')).toMatch(/Draws asked a proof got 20% of the chance published/);
    const io = await page.innerText('#io');
    expect(io).toMatch(/proof_schedule: from 17:05:20: none, 17:05:40: 5 s, 17:06:00: 13 s/);
    await page.context().close();
    const plain = await open(busy);
    expect(await plain.textContent('#state')).not.toMatch(/Proof of work/);
    await plain.context().close();
  });

  it('counts the POPs and the totals over the same named minute', async () => {
    for (const snapshot of [busy, null]) {
      const page = await open(snapshot);
      await expect.poll(() => page.$$eval('#pops tr', (rows) => rows.length)).toBeGreaterThan(0);
      const caption = (await page.textContent('#pops-caption'))!;
      const [, hhmm] = caption.match(/(\d\d:\d\d)/)!;
      const perPop = await page.$$eval('#pops tr td[data-col="admitted"]', (cells) =>
        cells.map((c) => Number(c.textContent!.replace(/,/g, ''))),
      );
      const total = Number((await page.textContent('#pops-total td[data-col="admitted"]'))!.replace(/,/g, ''));
      expect(total).toBe(perPop.reduce((a, b) => a + b, 0));
      expect(await page.textContent('#admissions-text')).toContain(`Minute ${hhmm}: admitted ${total}`);
      if (snapshot === busy) expect(total).toBe(120);
      await page.context().close();
    }
  });

  it("names every room's mode, and shows the room picked with its own target and figures", async () => {
    const page = await open(twoRooms);
    const summary = await page.$$eval('#rooms button', (bs) => bs.map((b) => b.textContent));
    expect(summary).toEqual([
      'shop: queueing, target 600 a minute, 1,438 waiting',
      'checkout: open, target 120 a minute, 1 waiting',
    ]);
    expect(await page.textContent('#state')).toMatch(
      /^Room shop: queueing: 1,438 waiting, next window at 87\.6%\. Target 600 a minute; 414 active\./,
    );
    // One waiting count on the room's line, not the model's and the snapshot's side by side.
    expect((await page.textContent('#state'))!.match(/waiting/g)).toHaveLength(1);
    await page.click('#rooms button[data-room="checkout"]');
    await expect.poll(() => page.textContent('#state')).toMatch(/^Room checkout: open: .*Target 120 a minute/);
    expect(await page.textContent('#admissions-text')).toMatch(/target 120 a minute/);
    expect(await page.textContent('#minute-heading')).toBe('Per minute: room checkout');
    expect(await page.$$eval('#pops tr th', (cells) => cells.map((c) => c.textContent))).toEqual(['local']);
    // The pick is kept in the address: a reload shows the same room.
    expect(page.url()).toMatch(/#room=checkout$/);
    await page.reload();
    await expect.poll(() => page.textContent('#state')).toMatch(/^Room checkout/);
    const io = (await page.textContent('#io'))!;
    expect(io).toMatch(/shop 9,000, checkout 300, no room \(rule_bypass\) 42/);
    expect(io).toMatch(/room shop: allow_schedule: from 17:05:20: 12%.* \| room checkout: allow_percentage: 100%/);
    expect(io).toMatch(
      /40 held back \(every room's writes in one call, at least 10 s apart: a budget of 360 calls an hour\)/,
    );
    expect(await axeViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('shows one room as before: no room list, no room in the header', async () => {
    const page = await open(busy);
    expect(await page.isHidden('#rooms-nav')).toBe(true);
    expect(await page.textContent('#state')).toMatch(/^queueing: 1,438 waiting/);
    await page.context().close();
  });

  it('fits two rooms on a 375 px phone', async () => {
    const page = await open(twoRooms, PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.context().close();
  });

  it('shows the POP table and the header with thousands separators', async () => {
    const page = await open(busy);
    const cells = await page.$$eval('#pops tr:first-child td', (tds) => tds.map((t) => t.textContent));
    expect(cells).toEqual(['20%', '1,234', '60', '12,345', '23,456']);
    expect(await page.textContent('#pops-total td[data-col="waiting"]')).toBe('61,725');
    await page.context().close();
  });

  it('folds the raw allow_schedule away, and keeps it unfolded over the redraws', async () => {
    const page = await open(busy);
    const raw = page.locator('#io details code');
    expect(await raw.textContent()).toBe(schedule);
    expect(await raw.isVisible()).toBe(false);
    await page.click('#io details summary');
    expect(await raw.isVisible()).toBe(true);
    // A redraw (as every poll and a resize does) leaves it open.
    await page.setViewportSize({ width: 900, height: 700 });
    await page.evaluate(() => dispatchEvent(new Event('resize')));
    expect(await page.locator('#io details code').isVisible()).toBe(true);
    await page.context().close();
  });

  it('shows the whole hour the controller kept on open, not only what it saw while open', async () => {
    const page = await open(hour);
    const times = await page.$$eval('#admissions text', (texts) =>
      texts.map((t) => t.textContent).filter((t) => /^\d\d:\d\d$/.test(t ?? '')),
    );
    expect(times[0]).toBe('16:07');
    expect(times.at(-1)).toBe('17:06');
    const points = await page.$eval('#admissions polyline', (p) => p.getAttribute('points')!.split(' ').length);
    expect(points).toBe(60);
    await page.context().close();
  });

  it("shows the languages the room's crowd reads, from the real controller's lines, most read first", async () => {
    const page = await open(null);
    try {
      await expect.poll(() => page.isVisible('#languages-panel')).toBe(true);
      const rows = await page.$$eval('#languages tr', (trs) =>
        trs.map((tr) => [...tr.children].map((c) => c.textContent)),
      );
      expect(rows).toEqual([
        ['Thai (th-TH)', '60%', '60%'],
        ['German (de-DE)', '30%', '30%'],
        ['Hindi (hi-IN)', '10%', '10%'],
      ]);
      expect(await page.textContent('#languages-caption')).toContain(
        '10 in the last 10 minutes, 10 since the controller started',
      );
    } finally {
      await page.context().close();
    }
  });

  it('hides the languages where no line names one, and shows each room its own', async () => {
    const page = await open(busy);
    try {
      expect(await page.isHidden('#languages-panel')).toBe(true);
    } finally {
      await page.context().close();
    }
    const rooms: Snapshot = {
      ...twoRooms,
      rooms: [
        { ...twoRooms.rooms[0]!, languages: [{ tag: 'sv-SE', recent: 0, session: 3 }] },
        {
          ...twoRooms.rooms[1]!,
          languages: [
            { tag: 'uk-UA', recent: 299, session: 900 },
            { tag: 'other', recent: 1, session: 100 },
          ],
        },
      ],
    };
    const two = await open(rooms, PHONE);
    try {
      await two.click('[data-room="checkout"]');
      await expect.poll(() => two.textContent('#languages tr:first-child th')).toBe('Ukrainian (uk-UA)');
      expect(await two.$$eval('#languages tr', (trs) => trs.map((tr) => tr.textContent))).toEqual([
        'Ukrainian (uk-UA)100%90%',
        'other tags<1%10%',
      ]);
      expect(await two.textContent('#languages-caption')).toContain("room checkout's own answers");
      expect(
        await two.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
      ).toBeLessThanOrEqual(0);
      expect(await axeViolations(two)).toEqual([]);
    } finally {
      await two.context().close();
    }
  });

  it('shows the API budget when the controller reports one, and hides the panel when not', async () => {
    const page = await open(budgeted);
    expect(await page.isVisible('#api-panel')).toBe(true);
    expect(await page.textContent('#api-text')).toBe('1,234 of 300 calls spent in the last hour (411.3%).');
    const api = (await page.textContent('#api'))!;
    expect(api).toMatch(/60 reads, 1,150 writes, 20 heartbeats, 4 starts of fastly log-tail/);
    expect(api).toMatch(/0 calls left this hour/);
    expect(api).toMatch(/Backing off\s*until 17:07:05 \(45 s\): Fastly answered 429: rate limit spent/);
    expect(api).toMatch(/Next read\s*17:07:20 \(in 60 s\)/);
    expect(await axeViolations(page)).toEqual([]);
    await page.context().close();
    const phone = await open(budgeted, PHONE);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await phone.context().close();
    // A snapshot without the budget's figures (an older controller): no panel.
    const { api: _api, ...withoutApi } = busy;
    const plain = await open(withoutApi as typeof busy);
    expect(await plain.isHidden('#api-panel')).toBe(true);
    await plain.context().close();
  });
});
