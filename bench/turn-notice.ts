// `npm run bench:turn`: how soon a waiting page in a background tab tells its visitor that the turn came.
// The built room on the local host, paused (`queue_all=true`, every draw at 100% once it opens), and a
// full Chromium (new headless mode: real tabs; see cdp-tabs.ts) with visitors, each in a browser context
// of its own and with an identity of its own (`identity=header:x-visitor`, so each holds its own token
// and falls due at its own moment): some waiting pages hidden under another tab in their window, as
// the built-in page runs them, some hidden with `Worker` taken away (the page's own timers alone, the
// fallback), some in front as the baseline. After BENCH_HIDDEN_MINUTES (10: Chromium's intensive
// throttling starts after 5) the room opens; each page's time from the opening to its notification
// (hidden) or to its reload into the site (in front) is printed, with the gaps between the wake-ups of
// a one-second timer chain in the hidden pages, which show whether the throttling was in force. The
// pages draw no jitter (Math.random is 0), so each check is due exactly `Retry-After` after the answer
// before it: how late each check came, over those made after five minutes hidden, is printed too.
// BENCH_RUNS runs (2), one after the other. Needs a full Chromium: CHROMIUM_PATH or a system one.
import { quantileOf } from '../lib/quantiles.js';
import { startRoom, type Room } from '../lib/room-host.js';
import { fullChromiumPath, startFullChromium, type FullChromium, type Tab } from './cdp-tabs.js';

const HIDDEN_MINUTES = Number(process.env.BENCH_HIDDEN_MINUTES ?? 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 2);
const VARIANTS = { hidden: 3, 'hidden, no worker': 2, visible: 2 } as const;
type Variant = keyof typeof VARIANTS;
const PAUSED = { identity: 'header:x-visitor', queue_all: 'true', allow_percentage: '100' };
const SETTLE_MS = 4 * 60_000;

/** What each document reports through the `wrBench` binding: its start, and any notification it shows. */
const INSTRUMENT = (noWorker: boolean): string => `(() => {
  const report = (kind, more) => window.wrBench(JSON.stringify({ kind, t: Date.now(), visibility: document.visibilityState, ...more }));
  report('document', { url: location.href });
  const Real = window.Notification;
  if (Real) window.Notification = new Proxy(Real, { construct(target, args) {
    report('notification', { title: args[0], body: args[1] && args[1].body });
    return Reflect.construct(target, args);
  } });
  const oscillator = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function () {
    const ctx = this;
    setTimeout(() => report('tone', { state: ctx.state }), 0);
    ctx.onstatechange = () => report('tone', { state: ctx.state });
    return oscillator.call(ctx);
  };
  Math.random = () => 0;
  let due = 0;
  let hiddenSince = document.hidden ? Date.now() : 0;
  document.addEventListener('visibilitychange', () => { hiddenSince = document.hidden ? Date.now() : 0; });
  const realFetch = window.fetch.bind(window);
  window.fetch = (...args) => {
    const t = Date.now();
    if (due) report('check', { late: (t - due) / 1000, hiddenFor: hiddenSince ? (t - hiddenSince) / 1000 : 0 });
    return realFetch(...args).then((r) => {
      const n = parseInt(r.headers.get('Retry-After'), 10);
      due = n > 0 ? Date.now() + n * 1000 : 0;
      return r;
    });
  };
  const wakes = (window.__wakes = []);
  (function probe() { wakes.push(Date.now()); setTimeout(probe, 1000); })();
  ${noWorker ? 'window.Worker = undefined;' : ''}
})();`;

interface Report {
  kind: 'document' | 'notification' | 'tone' | 'check';
  state?: string;
  /** A check: seconds after it was due, and how long the page had been hidden. */
  late?: number;
  hiddenFor?: number;
  t: number;
  visibility: string;
  url?: string;
  title?: string;
  body?: string;
}

interface Visitor {
  variant: Variant;
  tab: Tab;
  reports: Report[];
}

async function openVisitor(browser: FullChromium, room: Room, variant: Variant, id: string): Promise<Visitor> {
  const { cdp } = browser;
  const tab = await browser.newVisitor();
  const visitor: Visitor = { variant, tab, reports: [] };
  cdp.on('Runtime.bindingCalled', (params, session) => {
    if (session === tab.session && params.name === 'wrBench')
      visitor.reports.push(JSON.parse(String(params.payload)) as Report);
  });
  for (const method of ['Runtime.enable', 'Page.enable', 'Network.enable']) await cdp.send(method, {}, tab.session);
  await cdp.send('Runtime.addBinding', { name: 'wrBench' }, tab.session);
  await cdp.send(
    'Page.addScriptToEvaluateOnNewDocument',
    { source: INSTRUMENT(variant === 'hidden, no worker') },
    tab.session,
  );
  await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'x-visitor': id } }, tab.session);
  await cdp.send('Browser.grantPermissions', {
    permissions: ['notifications'],
    origin: room.url,
    browserContextId: tab.context,
  });
  await cdp.send('Page.navigate', { url: `${room.url}/shop` }, tab.session);
  await until(() => visitor.reports.length > 0 && document(visitor, 0), 20_000, `${id}'s waiting page`);
  if (variant !== 'visible') await browser.openOver(tab);
  await until(async () => (await browser.evaluate<string>(tab, 'document.readyState')) === 'complete', 20_000, id);
  const visibility = await browser.evaluate<string>(tab, 'document.visibilityState');
  const want = variant === 'visible' ? 'visible' : 'hidden';
  if (visibility !== want) throw new Error(`${id}: the page is ${visibility}, not ${want}`);
  return visitor;
}

function document(v: Visitor, after: number): Report | undefined {
  return v.reports.filter((r) => r.kind === 'document')[after];
}

async function until<T>(probe: () => T | Promise<T>, ms: number, what: string): Promise<NonNullable<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** When the page noticed the turn: its notification (hidden), its reload into the site (in front). */
function noticed(v: Visitor): Report | undefined {
  return v.variant === 'visible' ? document(v, 1) : v.reports.find((r) => r.kind === 'notification');
}

interface Row {
  run: number;
  variant: Variant;
  seconds: number | null;
  /** Median gap between the one-second probe's wake-ups over the last three hidden minutes. */
  probeGap: number;
  title: string;
  notification: string;
  /** Seconds late of the checks made after five minutes hidden (in front: every check). */
  lateness: number[];
  /** The tone's AudioContext at the turn: 'running' (heard) or 'suspended' (no gesture on the page: silent). */
  tone: string;
  wentIn: boolean;
}

async function oneRun(browser: FullChromium, room: Room, run: number): Promise<Row[]> {
  await room.setConfig(PAUSED);
  const visitors: Visitor[] = [];
  for (const [variant, count] of Object.entries(VARIANTS) as [Variant, number][])
    for (let i = 0; i < count; i++) visitors.push(await openVisitor(browser, room, variant, `r${run}-${variant}-${i}`));
  console.log(`run ${run}: ${visitors.length} waiting pages open; the room opens in ${HIDDEN_MINUTES} min`);
  await new Promise((r) => setTimeout(r, HIDDEN_MINUTES * 60_000));
  const gaps = await Promise.all(visitors.map((v) => browser.evaluate<number[]>(v.tab, 'window.__wakes.slice(-400)')));
  await room.setConfig({ ...PAUSED, queue_all: 'false' });
  const opened = Date.now();
  await until(() => visitors.every(noticed) || Date.now() - opened > SETTLE_MS, SETTLE_MS + 10_000, 'the turns');
  const rows: Row[] = [];
  for (const [i, v] of visitors.entries()) {
    const at = noticed(v);
    const title = await browser.evaluate<string>(v.tab, 'document.title');
    const note = v.reports.find((r) => r.kind === 'notification');
    let wentIn = v.variant === 'visible' && at !== undefined;
    if (v.variant !== 'visible' && at !== undefined) {
      // The visitor comes back: the page goes in on the admission its winning check brought.
      await browser.cdp.send('Target.activateTarget', { targetId: v.tab.targetId });
      await until(() => document(v, 1), 20_000, 'the reload on coming back');
      wentIn = await until(
        () => browser.evaluate<boolean>(v.tab, '!!document.getElementById("origin")'),
        20_000,
        'the site',
      );
    }
    const wakes = (gaps[i] ?? []).filter((t) => t >= opened - 3 * 60_000);
    const steps = wakes.slice(1).map((t, k) => (t - (wakes[k] ?? t)) / 1000);
    rows.push({
      run,
      variant: v.variant,
      seconds: at ? (at.t - opened) / 1000 : null,
      probeGap: steps.length ? quantileOf(steps, 0.5) : Number.NaN,
      title,
      notification: note ? `${note.title} / ${note.body}` : '-',
      tone: v.reports.filter((r) => r.kind === 'tone').at(-1)?.state ?? '-',
      lateness: v.reports
        .filter((r) => r.kind === 'check' && r.t < opened && (v.variant === 'visible' || (r.hiddenFor ?? 0) >= 300))
        .map((r) => r.late ?? 0),
      wentIn,
    });
  }
  for (const v of visitors) await browser.cdp.send('Target.disposeBrowserContext', { browserContextId: v.tab.context });
  return rows;
}

const executable = fullChromiumPath();
if (executable === null) {
  console.error(
    'bench:turn needs a full Chromium, with tabs (the packaged headless shell shows every page as visible): ' +
      'install one (Debian: apt-get install chromium) or set CHROMIUM_PATH.',
  );
  process.exit(1);
}
const room = await startRoom({ settings: PAUSED });
const browser = await startFullChromium(executable);
try {
  const version = await browser.cdp.send<{ product: string }>('Browser.getVersion');
  console.log(`${version.product}, ${RUNS} run(s), pages hidden ${HIDDEN_MINUTES} min before the room opens`);
  const rows: Row[] = [];
  for (let run = 1; run <= RUNS; run++) rows.push(...(await oneRun(browser, room, run)));
  console.log(
    '\nrun  variant            noticed after  1 s timer fired every  went in  tone       title / notification',
  );
  for (const r of rows)
    console.log(
      `${String(r.run).padEnd(5)}${r.variant.padEnd(19)}${(r.seconds === null ? 'never' : `${r.seconds.toFixed(1)} s`).padStart(13)}` +
        `${`${r.probeGap.toFixed(1)} s`.padStart(23)}  ${(r.wentIn ? 'yes' : 'no').padEnd(9)}${r.tone.padEnd(11)}${r.title} / ${r.notification}`,
    );
  console.log('\nvariant            pages  median   max (seconds from the opening to the notice)');
  for (const variant of Object.keys(VARIANTS) as Variant[]) {
    const s = rows.filter((r) => r.variant === variant && r.seconds !== null).map((r) => r.seconds as number);
    const missed = rows.filter((r) => r.variant === variant && r.seconds === null).length;
    console.log(
      `${variant.padEnd(19)}${String(s.length).padStart(5)}${(s.length ? quantileOf(s, 0.5).toFixed(1) : '-').padStart(8)}` +
        `${(s.length ? Math.max(...s).toFixed(1) : '-').padStart(6)}${missed ? `  (${missed} never noticed)` : ''}`,
    );
  }
  console.log('\nvariant            checks  median late   max late (before the opening; hidden: after 5 min hidden)');
  for (const variant of Object.keys(VARIANTS) as Variant[]) {
    const late = rows.filter((r) => r.variant === variant).flatMap((r) => r.lateness);
    console.log(
      `${variant.padEnd(19)}${String(late.length).padStart(6)}${(late.length ? `${quantileOf(late, 0.5).toFixed(1)} s` : '-').padStart(13)}` +
        `${(late.length ? `${Math.max(...late).toFixed(1)} s` : '-').padStart(11)}`,
    );
  }
} finally {
  await browser.close();
  await room.stop();
}
