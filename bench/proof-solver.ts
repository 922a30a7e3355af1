// `npm run bench:proof`: what the proof of work costs a visitor's browser and what it costs a bot.
// The page's own solver (pages/solver/, bundled as the edge serves it) in Chromium, solving
// challenges made from the spec's formulas, with DevTools' CPU throttling at 1x, 4x and 6x (6x: the
// usual stand-in for a low-end phone): digests a second, and the solve time's p50/p95 at each
// documented difficulty. Chromium throttles a page's main thread only (a worker target refuses
// Emulation.setCPUThrottlingRate, "only supported for pages", and a page's 6x slows its worker about
// 2.4x), so the throttled rows run the bundle's worker code on the main thread (its globals shadowed:
// the same bytes, the same loop); at 1x the real Worker, as the page starts it, is measured too. Then a native solver for the same puzzle: Node's crypto.createHash
// loop, and `openssl speed -evp sha256` on 36-byte inputs when openssl is on PATH (the native
// bound: what a bot with one server core does). Their ratio is the bot's advantage.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { quantileOf as quantile } from '../lib/quantiles.js';
import { bundleSolver } from '../lib/solver-bundle.js';
import { workFrom } from '../pages/solver/challenge.js';
import { launchBrowser } from '../lib/chromium.js';
import { checkProof, PHONE_RATE, proofChallenge, proofCompact } from '../src/core/tokens/index.js';

const THROTTLING = [1, 4, 6];
const DIFFICULTIES = (process.env.BENCH_SECONDS ?? '1,2,5,10').split(',').map(Number);
const CHALLENGES = Number(process.env.BENCH_CHALLENGES ?? 15);
/** The edge's own HMAC key, as the room imports it: the puzzles are the ones the edge makes. */
const KEY = await crypto.subtle.importKey(
  'raw',
  Uint8Array.from({ length: 64 }, (_, i) => (i * 29 + 3) & 255),
  { name: 'HMAC', hash: 'SHA-512' },
  false,
  ['sign', 'verify'],
);
const ORIGIN = 'https://bench.test';
/** The solver exactly as the build compiles it into the room. */
const solverSource = (await bundleSolver()).source;

interface Row {
  throttling: number;
  /** The real Worker, as the page starts it (else the worker's code on the main thread). */
  inWorker: boolean;
  digestsPerSecond: number;
  /** Solve times in ms by difficulty (seconds). */
  times: Map<number, number[]>;
}

async function openSolverPage(browser: Browser, throttling: number): Promise<Page> {
  const context = await browser.newContext();
  await context.route(`${ORIGIN}/**`, (route) =>
    new URL(route.request().url()).pathname === '/solver.js'
      ? route.fulfill({ contentType: 'text/javascript', body: solverSource })
      : route.fulfill({
          contentType: 'text/html',
          body: '<!doctype html><title>bench</title><p id="proof"></p><script src="/solver.js" data-proof=""></script>',
        }),
  );
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttling });
  await page.goto(`${ORIGIN}/`);
  return page;
}

/** One solve in the page as the waiting page does it: a new challenge, then the header's value. */
async function solveInWorker(page: Page, compact: string): Promise<{ ms: number; solution: string }> {
  return page.evaluate(async (c) => {
    const api = (window as unknown as { wrProof: { set(c: string): void; get(): Promise<string> } }).wrProof;
    const started = performance.now();
    api.set(c);
    const solution = await api.get();
    return { ms: performance.now() - started, solution };
  }, compact);
}

/** One solve by the bundle's worker code on the page's main thread, where the throttling applies. */
async function solveOnMain(page: Page, compact: string): Promise<{ ms: number; solution: string }> {
  const work = workFrom(compact);
  // Text, not a function: tsx would wrap a function's inner names in a helper the page lacks. The
  // bundle sees a worker (WorkerGlobalScope defined, no document) and its onmessage is ours.
  return page.evaluate(`new Promise((resolve, reject) => {
    const post = (r) => r.s !== undefined ? resolve({ ms: r.t, solution: r.s }) : r.e !== undefined && reject(new Error(r.e));
    new Function('WorkerGlobalScope', 'document', 'postMessage', 'var onmessage;' + ${JSON.stringify(solverSource)} + ';return onmessage')({}, undefined, post)({ data: ${JSON.stringify(work)} });
  })`) as Promise<{ ms: number; solution: string }>;
}

async function browserRow(browser: Browser, throttling: number, inWorker: boolean): Promise<Row> {
  const page = await openSolverPage(browser, throttling);
  const solveOnce = inWorker ? solveInWorker : solveOnMain;
  const times = new Map<number, number[]>();
  let digests = 0;
  let ms = 0;
  for (const seconds of DIFFICULTIES) {
    const list: number[] = [];
    for (let i = 0; i < CHALLENGES; i++) {
      const token = `bench.${throttling}.${seconds}.${i}`;
      const solved = await solveOnce(page, proofCompact(await proofChallenge(token, KEY, seconds)));
      if (!(await checkProof(token, KEY, seconds, solved.solution)))
        throw new Error(`the solver answered ${solved.solution}, which the edge refuses`);
      list.push(solved.ms);
      digests += solved.solution.split('.').reduce((sum, n) => sum + Number(n) + 1, 0);
      ms += solved.ms;
    }
    times.set(seconds, list);
    process.stderr.write(
      `  ${throttling}x${inWorker ? ' (Worker)' : ''}, ${seconds} s: p50 ${(quantile(list, 0.5) / 1000).toFixed(2)} s\n`,
    );
  }
  await page.context().close();
  return { throttling, inWorker, digestsPerSecond: (digests * 1000) / ms, times };
}

/** Node's SHA-256 over ALTCHA's 36 bytes (salt ‖ nonce ‖ counter), one core: digests a second. */
function nodeRate(): number {
  const input = Buffer.alloc(36, 7);
  const n = 2_000_000;
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    input.writeUInt32BE(i, 32);
    createHash('sha256').update(input).digest();
  }
  return n / (Number(process.hrtime.bigint() - started) / 1e9);
}

/** `openssl speed -evp sha256` on 36-byte blocks, one core: digests a second; null without openssl. */
function opensslRate(): number | null {
  try {
    const out = execFileSync('openssl', ['speed', '-evp', 'sha256', '-bytes', '36', '-seconds', '3'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    // The last line: "sha256  123456.78k" (thousands of bytes a second).
    const match = /sha256\s+([\d.]+)k\s*$/m.exec(out);
    return match ? (Number(match[1]) * 1000) / 36 : null;
  } catch {
    return null;
  }
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const secs = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

async function main(): Promise<void> {
  console.log(
    `proof of work: ${CHALLENGES} challenges a difficulty, PHONE_RATE ${fmt(PHONE_RATE)} digests/s, solver ${solverSource.length} bytes`,
  );
  const browser = await launchBrowser();
  const rows: Row[] = [];
  try {
    rows.push(await browserRow(browser, 1, true));
    for (const throttling of THROTTLING) rows.push(await browserRow(browser, throttling, false));
  } finally {
    await browser.close();
  }
  const node = nodeRate();
  const openssl = opensslRate();
  const native = openssl ?? node;
  console.log("\nChromium, the page's solver (solve time p50 / p95):");
  console.log(['CPU', 'digests/s', ...DIFFICULTIES.map((s) => `${s} s`)].join('\t'));
  for (const row of rows) {
    console.log(
      [
        `${row.throttling}x${row.inWorker ? ' Worker' : ''}`,
        fmt(row.digestsPerSecond),
        ...DIFFICULTIES.map(
          (s) => `${secs(quantile(row.times.get(s)!, 0.5))} / ${secs(quantile(row.times.get(s)!, 0.95))}`,
        ),
      ].join('\t'),
    );
  }
  console.log('\nNative, one core, the same puzzle (expected solve time):');
  console.log(['solver', 'digests/s', ...DIFFICULTIES.map((s) => `${s} s`), 'vs 6x', 'vs 1x Worker'].join('\t'));
  const phone = rows.find((r) => r.throttling === 6)!.digestsPerSecond;
  const desk = rows.find((r) => r.throttling === 1 && r.inWorker)!.digestsPerSecond;
  for (const [name, rate] of [
    ['node crypto', node],
    ['openssl', openssl],
  ] as const) {
    if (rate === null) {
      console.log(`${name}\t(not on PATH)`);
      continue;
    }
    console.log(
      [
        name,
        fmt(rate),
        ...DIFFICULTIES.map((s) => secs((s * PHONE_RATE * 1000) / rate)),
        `${(rate / phone).toFixed(0)}x`,
        `${(rate / desk).toFixed(1)}x`,
      ].join('\t'),
    );
  }
  console.log(
    `\nPHONE_RATE from 6x: ${fmt(phone)} digests/s. The bot's advantage (native bound over a 6x-throttled Chromium): ${(native / phone).toFixed(0)}x.`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
