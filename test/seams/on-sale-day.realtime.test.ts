// An on-sale day, end to end, as an operator runs it: the real commands as processes (npm start with the
// demo shop, npm run tune, event, keys, invite, control, load and report), on the built Wasm on the local
// host, against a scratch copy of the local store files. Each step asserts what the operator sees: the
// start banner, the room's JSON answer and pages (a real browser for the page in German and for the
// dashboard), the dashboard's JSON, tune's view and the report's page.
//
// Each step's checks hold what an operator met when these features first met (docs/testing.md): a
// controller surviving its npm, a stopped controller's schedule deciding unseen, a report without the
// target or counting tickets, tune blaming the controller's heartbeat.
import type { Browser } from 'playwright-core';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../lib/chromium.js';
import { canConnect } from '../../lib/host-process.js';
import { ensureRoomWasm } from '../../lib/room-wasm.js';
import { catalog as german } from '../../src/core/i18n/catalogs/de-DE.js';
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

    await step('the room starts in front of the demo shop (npm start > room.log)', async () => {
      room = launch(w, ['start', '--', '--skip-build', '--addr', addr], roomLog);
      const up = await room.waitFor(/The waiting room is running/, 150_000, () => readFileSync(roomLog, 'utf8'));
      expect(up, `npm start did not come up:\n${room.output()}`).toBe(true);
      const banner = readFileSync(roomLog, 'utf8');
      expect(bannerRoom(banner, 'shop')).toContain(`${base}/ `);
      expect(bannerRoom(banner, 'sale')).toContain(`${base}/checkout`);
    });

    await step('the health check passes the rooms untouched', async () => {
      const health = await new Visitor(base).get('/health');
      expect(health.status).toBe(200);
      expect(health.text).toBe('ok\n');
    });

    // The early bird keeps the countdown page open: it checks when the page would.
    const earlyBird = keepOpen(new Visitor(base, { 'x-load-visitor': 'early-bird' }), '/checkout');
    const seen = earlyBird.seen;

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
        const context = await browser!.newContext({ locale: 'de-DE' });
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

    await step(`the controller with a target of ${TARGET} a minute in the shop, and its dashboard`, async () => {
      ok(
        await run(w, 'tune', ['--room', 'shop', `new_users_per_minute=${TARGET}`]),
        /new_users_per_minute: \(unset\) -> "60" \(room\.shop\)/,
      );
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
      expect(reportRoom(html, 'sale').summary).toMatch(/^1 admitted/);
      const loadAdmitted = Number(/(\d+) visitors admitted in all/.exec(load.output())?.[1]);
      expect(
        Math.abs(count(/^([\d,]+) admitted/.exec(shop.summary)?.[1]) - loadAdmitted),
        shop.summary,
      ).toBeLessThanOrEqual(5);
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
