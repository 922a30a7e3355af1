// An on-sale day, end to end, as an operator runs it: the real commands as processes (npm start with the
// demo shop, npm run tune, event, keys, invite, preview, control, load and report), on the built Wasm on the local
// host, against a scratch copy of the local store files. Each step asserts what the operator sees: the
// start banner, the room's JSON answer and pages (a real browser for the page in German, for a shop's
// tab left in the background and told at its turn, and for the dashboard), the dashboard's JSON, tune's
// view and the report's page.
//
// Each step's checks hold what an operator met when these features first met (docs/testing.md): a
// controller surviving its npm, a stopped controller's schedule deciding unseen, a report without the
// target or counting tickets, tune blaming the controller's heartbeat.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../lib/chromium.js';
import { canConnect } from '../../lib/host-process.js';
import { ensureRoomWasm } from '../../lib/room-wasm.js';
import { repoRoot } from '../../lib/paths.js';
import { catalog as german } from '../../src/core/i18n/catalogs/de-DE.js';
import { catalog as japanese } from '../../src/core/i18n/catalogs/ja-JP.js';
import { enUS as english } from '../../src/core/i18n/catalogs/en-US.js';
import { recorders, setHidden, type NotifyState, type Recorded } from '../../lib/hidden-tab.js';
import { type RoomEvent, waitForTurn } from '../../client/index.js';
import { CookieJar } from '../support/cookie-jar.js';
import { catalog as thai } from '../../src/core/i18n/catalogs/th-TH.js';
import { freeAddr, startPorts, type StartPorts } from '../../scripts/start-ports.js';
import {
  bannerRoom,
  chancesInEffect,
  count,
  keepOpen,
  launch,
  percentages,
  processesNaming,
  reportRoom,
  roomAnswer,
  run,
  stopEverything,
  Visitor,
  within,
  workspace,
  type Launched,
  type Workspace,
} from './operator.js';

const VISITORS = 400;
const TARGET = 60;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');

let ws: Workspace | undefined;
let browser: Browser | undefined;
/** Stops the app's watch (client/) if the day ends early. */
const appStop = new AbortController();
let addr: string;
let ports: StartPorts;

beforeAll(async () => {
  await ensureRoomWasm();
  browser = await launchBrowser();
  ws = workspace();
  addr = (await freeAddr(startPorts(`127.0.0.1:${20000 + Math.floor(Math.random() * 30000)}`), true))!;
  ports = startPorts(addr);
}, 300_000);

afterAll(async () => {
  appStop.abort();
  await browser?.close();
  await stopEverything(ws);
}, 60_000);

/** One step of the day: its name leads any failure inside it, and the run's output reads as the day. */
async function step(name: string, body: () => Promise<void>): Promise<void> {
  console.log(`[on-sale day] ${name}`);
  try {
    await body();
  } catch (error) {
    if (error instanceof Error) error.message = `${name}: ${error.message}`;
    throw error;
  }
}

describe('an on-sale day', () => {
  it('runs from the settings in the morning to the report in the evening', async () => {
    const w = ws!;
    const base = `http://${addr}`;
    const roomLog = w.file('room.log');
    const journal = w.file('journal.jsonl');
    const controlArgs = [
      'run',
      'control',
      '--',
      '--source',
      `file:${roomLog}`,
      '--file',
      w.config,
      '--journal',
      journal,
      '--dashboard-port',
      String(ports.dashboard),
    ];
    const controllerGone = async () => processesNaming(journal).length === 0 && !(await canConnect(ports.dashboard));
    let room!: Launched;
    let controller!: Launched;
    let eventStartMs = 0;
    let controllerStartMs = 0;

    await step('two rooms (the shop, and a sale at /checkout) and a bypass rule for the health check', async () => {
      const routing = w.file('routing.json');
      const rooms = {
        rooms: [
          { id: 'shop', routes: ['/'] },
          { id: 'sale', routes: ['/checkout'] },
        ],
        default_room: 'shop',
        rules: [{ id: 'health', if: { path: { prefix: '/health' } }, then: 'bypass' }],
      };
      ok(await run(w, 'tune', ['--routing', writeJson(routing, rooms)]), /routing: replaced/);
      const shown = ok(await run(w, 'tune', ['--show']));
      expect(shown).toMatch(/room shop: \//);
      expect(shown).toMatch(/room sale: \/checkout/);
      expect(shown).toMatch(/health: if path under \/health -> bypass/);
      // Every virtual visitor of the load tool is one visitor: the room keys identity on its header.
      ok(
        await run(w, 'tune', [
          'identity=header:x-load-visitor',
          'wait_period_duration=20',
          'allow_percentage=10',
          'log_endpoint=stdout',
        ]),
      );
    });

    await step(
      'a scheduled sale in room sale: a committed seed, the pre-queue open, the start in three minutes',
      async () => {
        expect(ok(await run(w, 'event', ['seed']))).toMatch(/commitment: sha256:[0-9a-f]{64}/);
        eventStartMs = Math.ceil((Date.now() + 180_000) / 1000) * 1000;
        const out = ok(
          await run(w, 'tune', [
            '--room',
            'sale',
            `event_prequeue_start=${iso(Date.now() - 60_000)}`,
            `event_start=${iso(eventStartMs)}`,
            `event_end=${iso(eventStartMs + 3_600_000)}`,
            'allow_percentage=100',
          ]),
        );
        expect(out).toMatch(/event_start: \(unset\) -> "/);
      },
    );

    await step('proof of work on in the shop', async () => {
      ok(
        await run(w, 'tune', ['--room', 'shop', 'proof_of_work=fixed', 'proof_seconds=1']),
        /proof_of_work: \(unset\) -> "fixed" \(room\.shop\)/,
      );
    });

    await step(
      "an A/B test of the shop's waiting page: variant b stored by npm run pages, started by tune",
      async () => {
        const dir = w.file('pages');
        mkdirSync(dir);
        const waiting = readFileSync(join(repoRoot, 'pages', 'waiting.html'), 'utf8');
        writeFileSync(join(dir, 'waiting.b.html'), waiting.replace('<main', '<main data-variant="b"'));
        // The plain pages stay the built-in ones: variant a.
        const out = ok(await run(w, 'pages', ['--dir', dir]), /startwaiting \(variant b\)/);
        expect(out).toContain('npm run tune -- page_variants=a,b');
        ok(
          await run(w, 'tune', ['--room', 'shop', 'page_variants=a,b']),
          /page_variants: \(unset\) -> "a,b" \(room\.shop\)/,
        );
      },
    );

    await step('the room starts in front of the demo shop (npm start > room.log)', async () => {
      room = launch(w, ['start', '--', '--skip-build', '--addr', addr], roomLog);
      const up = await room.waitFor(/The waiting room is running/, 150_000, () => readFileSync(roomLog, 'utf8'));
      expect(up, `npm start did not come up:\n${room.output()}`).toBe(true);
      const banner = readFileSync(roomLog, 'utf8');
      expect(bannerRoom(banner, 'shop')).toContain(`${base}/ `);
      expect(bannerRoom(banner, 'sale')).toContain(`${base}/checkout`);
    });

    // The public status a site's status page polls (docs/status.md), answered by the room itself.
    type Status = Record<string, unknown>;
    const statusOf = async (id: string): Promise<Status> =>
      (await (await fetch(`${base}/__waiting_room/status?room=${id}`)).json()) as Status;

    await step('the status page: the sale counts down to its start, the shop queues', async () => {
      const sale = await statusOf('sale');
      expect(sale).toMatchObject({ state: 'countdown', reason: 'prequeue', eventStart: iso(eventStartMs) });
      expect(sale.startsInSeconds as number).toBeGreaterThan(0);
      // tune wrote each room's status basis with the settings it copies.
      expect(Date.parse(sale.updated as string)).toBeGreaterThan(Date.now() - 600_000);
      const shop = await statusOf('shop');
      expect(shop).toMatchObject({ state: 'queueing', reason: 'draw', chancePercentage: 10, eventStart: null });
      expect(shop.waitTime50PercentileSeconds as number).toBeGreaterThan(0);
    });

    await step('the health check passes the rooms untouched', async () => {
      const health = await new Visitor(base).get('/health');
      expect(health.status).toBe(200);
      expect(health.text).toBe('ok\n');
    });

    await step("both variants of the shop's waiting page are served, each visitor kept on one", async () => {
      const shown = new Map<string, number>();
      for (let i = 0; i < 40 && shown.size < 2; i++) {
        const visitor = new Visitor(base, { 'x-load-visitor': `ab-${i}` });
        const first = await visitor.get('/');
        const variant = first.text.includes('data-variant="b"') ? 'b' : 'a';
        expect(first.text).toContain('<main');
        expect((await visitor.get('/')).text.includes('data-variant="b"'), `ab-${i}`).toBe(variant === 'b');
        shown.set(variant, (shown.get(variant) ?? 0) + 1);
      }
      expect([...shown.keys()].sort()).toEqual(['a', 'b']);
      // Each page's line names its variant (the room's output reaches room.log a moment after the answer).
      const named = () =>
        readFileSync(roomLog, 'utf8')
          .split('\n')
          .filter((l) => l.includes('"room":"shop"') && /"variant":"[ab]"/.test(l));
      const pagesShown = 2 * (shown.get('a')! + shown.get('b')!);
      expect(await within(10_000, () => named().length >= pagesShown), named().join('\n')).toBe(true);
      expect(named().some((l) => l.includes('variantFallback'))).toBe(false);
    });

    // The early bird keeps the countdown page open: it checks when the page would.
    const earlyBird = keepOpen(new Visitor(base, { 'x-load-visitor': 'early-bird' }), '/checkout');
    const seen = earlyBird.seen;
    // An app on the sale too: the client of docs/apps.md, at the room's own pace, with its cookie jar.
    const appSeen: { event: RoomEvent; atMs: number }[] = [];
    let appIn: { text: string; atMs: number } | null = null;
    waitForTurn(`${base}/checkout`, {
      fetch: new CookieJar().fetch(),
      headers: { 'x-load-visitor': 'early-app' },
      signal: appStop.signal,
      onEvent: (event) => appSeen.push({ event, atMs: Date.now() }),
    }).then(
      async (response) => void (appIn = { text: await response.text(), atMs: Date.now() }),
      () => {},
    );

    await step('an early visitor to the sale gets the countdown', async () => {
      expect(await within(10_000, () => seen.length > 0)).toBe(true);
      expect(seen[0]!.status).toBe('prequeue');
      const page = await new Visitor(base, { 'x-load-visitor': 'early-reader' }).get('/checkout');
      expect(page.text).toContain('The sale starts soon');
    });

    await step('a new shop visitor is asked for a proof of work', async () => {
      const answer = roomAnswer(
        (await new Visitor(base, { 'x-load-visitor': 'asked-1' }).get('/', { json: true })).json,
      );
      expect(answer?.status).toBe('startwaiting');
      expect((answer?.proof as { seconds?: number } | null)?.seconds).toBe(1);
    });

    await step(
      'a visitor whose browser speaks German sees the waiting page in German, and its check done',
      async () => {
        // Each browser visitor names its own identity, as the load tool's do: without one, every browser
        // of this machine falls back to the same IP, and two arriving in one window hold one ticket.
        const context = await browser!.newContext({
          locale: 'de-DE',
          extraHTTPHeaders: { 'x-load-visitor': 'german-reader' },
        });
        try {
          const page = await context.newPage();
          await page.goto(`${base}/`);
          expect(await page.getAttribute('html', 'lang')).toMatch(/^de/);
          expect(await page.textContent('body')).toContain(german.waitHeading);
          await page.getByText(german.clientProofDone).waitFor({ timeout: 60_000 });
        } finally {
          await context.close();
        }
      },
    );

    await step('an invitation lets one named visitor straight in, and nobody else', async () => {
      ok(await run(w, 'keys', ['add-invite']), /invite\.k1/);
      const out = ok(
        await run(w, 'invite', ['--room', 'shop', '--sub', 'header:vip-1', '--minutes', '30', '--url', `${base}/`]),
      );
      const link = /link:\s+(\S+)/.exec(out)?.[1];
      expect(link).toBeDefined();
      const vip = await new Visitor(base, { 'x-load-visitor': 'vip-1' }).get(link!);
      expect(vip.text).toContain('You are in!');
      const other = await new Visitor(base, { 'x-load-visitor': 'vip-2' }).get(link!, { json: true });
      expect(roomAnswer(other.json)?.status).toBe('startwaiting');
    });

    await step(
      "a lane invitation puts a member in the shop's members lane, shown on the page and in the JSON",
      async () => {
        ok(
          await run(w, 'tune', ['--room', 'shop', 'lanes=members:30', 'lane_names=members:Club members']),
          /lanes: \(unset\) -> "members:30" \(room\.shop\)/,
        );
        const out = ok(
          await run(w, 'invite', [
            '--room',
            'shop',
            '--sub',
            'header:member-1',
            '--lane',
            'members',
            '--url',
            `${base}/`,
          ]),
          /room shop, lane members, for header:member-1/,
        );
        const member = new Visitor(base, { 'x-load-visitor': 'member-1' });
        const page = await member.get(/link:\s+(\S+)/.exec(out)![1]!);
        expect(page.text).toContain('Your lane: Club members');
        // Back without the invitation (the link left the address): the lane's token keeps the lane.
        const answer = roomAnswer((await member.get('/', { json: true })).json);
        expect(answer).toMatchObject({ lane: 'members', laneName: 'Club members' });
      },
    );

    await step(`the controller with a target of ${TARGET} a minute in the shop, and its dashboard`, async () => {
      ok(
        await run(w, 'tune', ['--room', 'shop', `new_users_per_minute=${TARGET}`]),
        /new_users_per_minute: \(unset\) -> "60" \(room\.shop\)/,
      );
      controllerStartMs = Date.now();
      controller = launch(w, controlArgs);
      expect(await controller.waitFor(/dashboard at http/, 120_000), controller.output()).toBe(true);
      type Snapshot = { rooms: { id: string; model: { targets: { newUsersPerMinute: number | null } } }[] };
      const shopTarget = async () =>
        ((await (await fetch(`http://127.0.0.1:${ports.dashboard}/api/snapshot`)).json()) as Snapshot).rooms.find(
          (r) => r.id === 'shop',
        )?.model.targets.newUsersPerMinute;
      expect(await within(30_000, async () => (await shopTarget()) === TARGET)).toBe(true);
      const context = await browser!.newContext();
      try {
        const page = await context.newPage();
        await page.goto(`http://127.0.0.1:${ports.dashboard}/`);
        await page
          .getByText(new RegExp(`target ${TARGET}`))
          .first()
          .waitFor({ timeout: 30_000 });
      } finally {
        await context.close();
      }
    });

    await step(
      'an operator previews the waiting page in Japanese on a phone: the page, and no visitor counted',
      async () => {
        const out = ok(
          await run(w, 'preview', ['--room', 'shop', '--page', 'waiting', '--lang', 'ja-JP', '--url', `${base}/`]),
        );
        const link = /link:\s+(\S+)/.exec(out)?.[1];
        expect(link).toContain('/__waiting_room/preview?');
        const context = await browser!.newContext({ locale: 'en-US', viewport: { width: 390, height: 844 } });
        try {
          const page = await context.newPage();
          await page.goto(link!);
          expect(await page.getAttribute('html', 'lang')).toBe('ja-JP');
          expect(await page.textContent('body')).toContain(japanese.waitingTitleStart);
          expect(await page.textContent('#wr-preview')).toMatch(/Preview of room shop: startwaiting/);
          expect(await context.cookies()).toEqual([]);
        } finally {
          await context.close();
        }
        // The controller reads the line as a preview, apart from the room's visitors.
        type Snapshot = { source: { previews: number } };
        const previews = async () =>
          ((await (await fetch(`http://127.0.0.1:${ports.dashboard}/api/snapshot`)).json()) as Snapshot).source
            .previews;
        expect(await within(30_000, async () => (await previews()) === 1)).toBe(true);
      },
    );

    await step(
      "a visitor whose browser speaks Thai waits in Thai, and the dashboard counts the shop's languages",
      async () => {
        const context = await browser!.newContext({
          locale: 'th-TH',
          extraHTTPHeaders: { 'x-load-visitor': 'thai-reader' },
        });
        try {
          const page = await context.newPage();
          await page.goto(`${base}/`);
          expect(await page.getAttribute('html', 'lang')).toBe('th-TH');
          expect(await page.title()).toBe(thai.waitingTitleStart);
        } finally {
          await context.close();
        }
        type Snapshot = { rooms: { id: string; languages?: { tag: string; recent: number }[] }[] };
        const shopLanguages = async () =>
          ((await (await fetch(`http://127.0.0.1:${ports.dashboard}/api/snapshot`)).json()) as Snapshot).rooms.find(
            (r) => r.id === 'shop',
          )?.languages ?? [];
        expect(
          await within(30_000, async () => (await shopLanguages()).some((l) => l.tag === 'th-TH' && l.recent > 0)),
        ).toBe(true);
      },
    );

    let load!: Launched;
    await step(`the load tool: ${VISITORS} visitors in a flash crowd, for three minutes`, async () => {
      load = launch(w, [
        'run',
        'load',
        '--',
        '--url',
        base,
        '--minutes',
        '3',
        '--visitors',
        String(VISITORS),
        '--out',
        w.file('load.json'),
      ]);
      expect(await load.waitFor(/minute 1:/, 90_000), load.output()).toBe(true);
    });

    // A shop visitor in the crowd, in a browser, leaves the waiting page in a background tab with the
    // notification allowed (each document starts hidden: through the proof's reloads and the turn).
    let backgroundTab!: { context: BrowserContext; page: Page };
    await step('a visitor in the crowd leaves the waiting page in a background tab', async () => {
      const context = await browser!.newContext({ extraHTTPHeaders: { 'x-load-visitor': 'background-tab' } });
      const page = await context.newPage();
      const state: NotifyState = { permission: 'granted', hidden: true };
      await page.addInitScript(recorders, state);
      await page.goto(`${base}/`);
      expect(await page.evaluate(() => document.visibilityState)).toBe('hidden');
      expect(await page.title()).toBe(english.waitingTitleStart);
      backgroundTab = { context, page };
    });

    await step('the controller dies (kill -9 of its npm) and is started again, mid-sale', async () => {
      controller.kill('SIGKILL');
      // The controller under a killed npm stops with it, rather than going on writing unseen.
      expect(await within(20_000, controllerGone), 'after kill -9 of npm run control, the controller still runs').toBe(
        true,
      );
      const again = launch(w, controlArgs);
      // The same command comes up again: its dashboard port is free.
      expect(await again.waitFor(/dashboard at http/, 120_000), again.output()).toBe(true);
      expect(again.output()).toMatch(/resuming from the state saved/);
      controller = again;
    });

    await step('the load ends: the shop held near its target, and no errors', async () => {
      await load.exited;
      const out = load.output();
      expect(out).toMatch(new RegExp(`arrivals ${VISITORS}`));
      expect(out).toMatch(/Errors: none/);
      const judged = /minute 3: (\d+) of (\d+) = ([\d.]+)%/.exec(out);
      expect(judged, out).not.toBeNull();
      expect(Number(judged![2])).toBe(TARGET);
      // A room left to its own 10% would let in about three times the target; the proof's share alone far fewer.
      expect(Number(judged![3])).toBeGreaterThan(50);
      expect(Number(judged![3])).toBeLessThan(150);
      // The shop's status is as of the controller's writes: its basis rides in each one.
      const shop = await statusOf('shop');
      expect(Date.parse(shop.updated as string), JSON.stringify(shop)).toBeGreaterThanOrEqual(
        Math.floor(controllerStartMs / 1000) * 1000,
      );
      expect(['queueing', 'open']).toContain(shop.state);
    });

    await step(
      "the shop's origin in the log and on the dashboard: each request sent to it, its time and status",
      async () => {
        const lines = readFileSync(roomLog, 'utf8')
          .split('\n')
          .filter((l) => l.includes('{"wr":'))
          .map((l) => JSON.parse(l.slice(l.indexOf('{"wr":'))) as Record<string, unknown>);
        const sent = lines.filter((l) => l.room === 'shop' && l.outcome === 'origin');
        expect(sent.length).toBeGreaterThan(VISITORS / 4);
        // An invitation's redirect is the room's own answer; every other went to the shop and says how it went.
        const unmeasured = sent.filter((l) => !(Number.isInteger(l.originMs) && typeof l.originStatus === 'number'));
        expect(
          unmeasured.every((l) => Number(l.status) >= 300 && Number(l.status) < 400),
          JSON.stringify(unmeasured[0]),
        ).toBe(true);
        type Origin = { requests: number; latencyMs: number | null };
        type Snapshot = { rooms: { id: string; model: { pace: unknown; minutes: { origin: Origin }[] } }[] };
        const snapshot = (await (await fetch(`http://127.0.0.1:${ports.dashboard}/api/snapshot`)).json()) as Snapshot;
        const shop = snapshot.rooms.find((r) => r.id === 'shop')!.model;
        expect(shop.minutes.some((m) => m.origin.requests > 0 && m.origin.latencyMs !== null)).toBe(true);
        // A manual target: no autopilot.
        expect(shop.pace).toBeNull();
      },
    );

    await step('the early visitor came in after the start, not before', async () => {
      expect(await within(90_000, () => seen.at(-1)?.status === 'origin'), JSON.stringify(seen)).toBe(true);
      await earlyBird.stop();
      const admitted = seen.at(-1)!;
      expect(admitted.text).toContain('Checkout · Demo shop');
      expect(admitted.atMs).toBeGreaterThanOrEqual(eventStartMs);
      expect(seen.filter((s) => s.atMs < eventStartMs).every((s) => s.status === 'prequeue')).toBe(true);
      // Past the start the sale's status counts down no more, and still names its times.
      const sale = await statusOf('sale');
      expect(sale).toMatchObject({ eventStart: iso(eventStartMs), startsInSeconds: null });
      expect(['queueing', 'open']).toContain(sale.state);
    });

    await step('the background tab was told at its turn, and goes in when its visitor comes back', async () => {
      const { page, context } = backgroundTab;
      const told = () => page.evaluate(() => (window as unknown as { __rec?: Recorded }).__rec?.notes ?? []);
      expect(await within(240_000, async () => (await told()).length > 0)).toBe(true);
      expect(await told()).toEqual([{ title: english.clientTurnTitle, body: english.clientTurnBody }]);
      expect(await page.title()).toBe(english.clientTurnTitle);
      await setHidden(page, false);
      expect(await within(20_000, async () => (await page.title()).endsWith('Demo shop'))).toBe(true);
      await context.close();
    });

    await step('the app on the sale counted down at the room’s pace, and was let in after the start', async () => {
      expect(await within(90_000, () => appIn !== null), JSON.stringify(appSeen.map((s) => s.event.type))).toBe(true);
      const countdown = appSeen.filter((s) => s.event.type === 'countdown');
      expect(countdown.length).toBeGreaterThan(0);
      expect(appSeen[0]!.event.type).toBe('countdown');
      for (const { event } of countdown) {
        const { answer, nextCheckSeconds } = event as Extract<RoomEvent, { type: 'countdown' }>;
        expect(nextCheckSeconds).toBeGreaterThanOrEqual(answer.retryAfterSeconds!);
      }
      expect(countdown.every((s) => s.atMs < eventStartMs + 5_000)).toBe(true);
      expect(appIn!.text).toContain('Checkout · Demo shop');
      expect(appIn!.atMs).toBeGreaterThanOrEqual(eventStartMs);
    });

    await step('the controller stopped (kill of its npm)', async () => {
      controller.kill('SIGTERM');
      expect(
        await within(30_000, controllerGone),
        'after kill (SIGTERM) of npm run control, the controller still runs',
      ).toBe(true);
      expect(await controller.waitFor(/stopped; the room keeps the chances written/, 10_000), controller.output()).toBe(
        true,
      );
    });

    await step('the room stopped, then a plain npm start: it says which chance a draw uses now, and why', async () => {
      room.kill('SIGTERM');
      await room.exited;
      expect(
        await within(20_000, async () => !(await canConnect(ports.room)) && !(await canConnect(ports.origin))),
      ).toBe(true);
      const fromSec = Date.now() / 1000;
      room = launch(w, ['start', '--', '--skip-build', '--addr', addr]);
      expect(await room.waitFor(/The waiting room is running/, 150_000), room.output()).toBe(true);
      const banner = room.output();
      const store = JSON.parse(readFileSync(w.config, 'utf8')) as Record<string, string>;
      const { chances, scheduled } = chancesInEffect(store, 'shop', fromSec, Date.now() / 1000 + 30);
      const near = (shown: number[]) => shown.some((p) => chances.some((c) => Math.abs(p - c) <= 0.5));
      const line = bannerRoom(banner, 'shop');
      // The banner shows the chance a draw uses now, and where it comes from: the schedule a stopped
      // controller left (still in force: another machine's heartbeat cannot be told dead), or that it was cleared.
      expect(near(percentages(line)), `the banner's shop line shows none of ${chances.join(', ')}%:\n${line}`).toBe(
        true,
      );
      if (scheduled) expect(line).toMatch(/allow_schedule/);
      else expect(banner).toMatch(/cleared what a stopped controller left/);
      const answer = roomAnswer(
        (await new Visitor(`http://${addr}`, { 'x-load-visitor': 'after-the-sale' }).get('/', { json: true })).json,
      );
      expect(answer?.status).toBe('startwaiting');
      // The JSON answer carries the same chance and its source.
      expect(
        near([answer?.chancePercentage as number]),
        `the JSON answer's chancePercentage is none of ${chances.join(', ')}%: ${JSON.stringify(answer)}`,
      ).toBe(true);
      expect(answer?.chanceSource).toBe(
        scheduled ? (line.includes('fallback') ? 'fallback' : 'schedule') : 'allow_percentage',
      );
    });

    await step("tune after the sale: the rooms, and no problem made of the controller's heartbeat", async () => {
      const out = ok(await run(w, 'tune', []));
      expect(out).toMatch(/room sale: \/checkout/);
      // The heartbeat the controller writes on purpose is shown with its age, not as a problem.
      const blamed = out.split('\n').filter((l) => /\bcontroller\b/.test(l) && /problem|warning|never reads/i.test(l));
      expect(blamed, 'tune lists the controller key as a problem').toEqual([]);
      expect(out).toMatch(/controller: .*ago/);
    });

    await step('the report of the day', async () => {
      const out = w.file('report.html');
      expect(ok(await run(w, 'report', [roomLog, '--journal', journal, '--out', out]))).toContain(`report: ${out}`);
      const html = readFileSync(out, 'utf8');
      const shop = reportRoom(html, 'shop');
      expect(shop.rows.length).toBeGreaterThanOrEqual(3);
      // The sale's two: the early bird's page and the app.
      expect(reportRoom(html, 'sale').summary).toMatch(/^2 admitted/);
      const loadAdmitted = Number(/(\d+) visitors admitted in all/.exec(load.output())?.[1]);
      expect(
        Math.abs(count(/^([\d,]+) admitted/.exec(shop.summary)?.[1]) - loadAdmitted),
        shop.summary,
      ).toBeLessThanOrEqual(5);
      // The preview of the morning is counted apart: no visitor of the shop, no language read.
      expect(html).toMatch(/\b1 from preview links/);
      expect(html).not.toMatch(/ja-JP/);
      // The A/B test: both variants' visitors, the load tool's among them, compared with a verdict each.
      const ab = html.slice(html.indexOf('<h3 id="variants-shop">'), html.indexOf('<p class="method">'));
      const visitors = Object.fromEntries(
        [...ab.matchAll(/<tr><th scope="row">([a-z0-9]+)<\/th><td>([\d,]+)<\/td>/g)].map((m) => [m[1], count(m[2])]),
      );
      expect(Object.keys(visitors), ab).toEqual(['a', 'b']);
      expect(visitors.a! + visitors.b!).toBeGreaterThan(VISITORS / 2);
      expect(Math.min(visitors.a!, visitors.b!)).toBeGreaterThan(VISITORS / 8);
      expect(ab).toMatch(
        /Left before their turn, b against a: (no difference shown|more left with b|fewer left with b), /,
      );
      expect(ab).toMatch(/Median wait, b against a: /);
      // For the record: the load tool's crowd does not read the page, so its variants differ by chance alone.
      console.log(`[on-sale day] the A/B comparison: ${ab.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')}`);
      // The Thai visitor of the afternoon, among the languages the shop's waiting visitors read.
      expect(
        html,
        `the report's languages:\n${html.match(/<p class="langs">.*?<\/p>/g)?.join('\n')}\nthe Thai lines of room.log:\n${readFileSync(
          roomLog,
          'utf8',
        )
          .split('\n')
          .filter((l) => l.includes('th-TH'))
          .join('\n')}`,
      ).toMatch(/Languages of the waiting visitors:.*?<span>th-TH \d/);
      // The decision lines carry the shop's times, so the report has its origin a minute.
      expect(html).toMatch(/The origin: [\d,]+ requests/);
      // The journal carries the target, so the report shows admissions against it.
      expect(shop.summary).toContain(`target ${TARGET} a minute`);
      expect(
        shop.rows.some((r) => r.target === String(TARGET)),
        `no minute of the report has the target ${TARGET}`,
      ).toBe(true);
      // "waiting" counts visitors, at most the crowd (and the few others of the day), never tickets.
      const most = count(/at most ([\d,]+) visitors waiting at once/.exec(shop.summary)?.[1]);
      expect(most, shop.summary).toBeGreaterThan(0);
      expect(most, `the report's waiting figure counts tickets: ${shop.summary}`).toBeLessThanOrEqual(VISITORS + 10);
      const minutes = shop.rows.map((r) => count(r.waiting)).filter(Number.isFinite);
      expect(minutes.length).toBeGreaterThanOrEqual(3);
      expect(Math.max(...minutes), 'a minute of the report counts more waiting than visitors').toBeLessThanOrEqual(
        VISITORS + 10,
      );
    });

    await step('the sale closed by tune: its status says so at once', async () => {
      ok(await run(w, 'tune', ['--room', 'sale', 'allow_percentage=0']));
      expect(await within(10_000, async () => (await statusOf('sale')).state === 'closed')).toBe(true);
      expect(await statusOf('sale')).toMatchObject({ reason: 'deny_all', waitTime50PercentileSeconds: null });
      expect((await statusOf('nosuch')).error).toBe('unknown_room');
    });

    await step('Ctrl-C stops the room and the shop', async () => {
      room.interrupt();
      await room.exited;
      expect(
        await within(20_000, async () => !(await canConnect(ports.room)) && !(await canConnect(ports.origin))),
      ).toBe(true);
    });
  }, 600_000);
});

/** A command's output, once it has exited 0 (and printed `pattern`). */
function ok(result: { code: number | null; out: string }, pattern?: RegExp): string {
  expect(result.code, result.out).toBe(0);
  if (pattern !== undefined) expect(result.out).toMatch(pattern);
  return result.out;
}

function writeJson(file: string, value: unknown): string {
  writeFileSync(file, JSON.stringify(value, null, 2));
  return file;
}
