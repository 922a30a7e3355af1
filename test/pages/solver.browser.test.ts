// The waiting page with a proof of work asked, in Chromium: the solver (pages/solver/, served as the
// edge serves it) solves challenges made from the spec's formulas in a Web Worker, says how far it is
// in words, and the page's check waits for it and carries the answer; without Worker it says `none`.
// The page's clock is Playwright's and paused: the worker works in real time, the page's countdown
// moves only when the test says.
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DONE } from '../../pages/solver/challenge.js';
import { launchBrowser } from '../../lib/chromium.js';
import { SOLVER_PATH } from '../../src/core/pages/solver-asset.js';
import { specProof, type SpecProof } from '../support/proof-spec.js';
import { localeByTag } from '../../src/core/i18n/locales.js';
import { Strings } from '../../src/core/i18n/strings.js';
import { markedLocale } from '../core/i18n/fake-locale.js';
import { checksMade, instrument, render, serveRoom, SHOP_URL, type CheckAnswer } from './fake-room.js';

const KEY = Uint8Array.from({ length: 64 }, (_, i) => (i * 13 + 5) & 255);
/** About 45,000 digests: a fraction of a second here. */
const EASY = 0.3;

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  context = await browser.newContext();
  page = await context.newPage();
  await page.clock.install({ time: new Date('2026-03-01T10:00:00Z') });
  await page.clock.pauseAt(new Date('2026-03-01T10:00:01Z'));
});
afterEach(async () => {
  await context.close();
});

/** The waiting page for a token whose draw asks for `proof`. */
function proofPage(proof: SpecProof): string {
  return render(
    'startwaiting',
    { retryAfterSeconds: 20, jitterSeconds: 0 },
    { proofRequired: true, proofSeconds: EASY, proofCompact: proof.compact },
  );
}

/** Every text the proof paragraph shows, in order, as a screen reader would be told. */
async function recordSaid(): Promise<void> {
  await page.addInitScript(() => {
    const said: string[] = ((window as unknown as { __said: string[] }).__said = []);
    document.addEventListener('DOMContentLoaded', () => {
      const p = document.getElementById('proof');
      if (p)
        new MutationObserver(() => said.push(p.textContent ?? '')).observe(p, {
          childList: true,
          characterData: true,
          subtree: true,
        });
    });
  });
}
const said = () => page.evaluate(() => (window as unknown as { __said: string[] }).__said);
const proofText = () => page.textContent('#proof');

async function open(html: string, answer: CheckAnswer) {
  await instrument(page, 0);
  await recordSaid();
  const room = await serveRoom(context, html, answer);
  await page.goto(SHOP_URL);
  return room;
}

describe('the solver on the waiting page', () => {
  it('solves the spec’s challenge in a worker, says how far it is, and the check carries the solution', async () => {
    const proof = specProof('wait.token.one', KEY, EASY);
    const room = await open(proofPage(proof), {
      kind: 'room',
      status: 'keepwaiting',
      retryAfter: 30,
      extra: { proof: proof.json },
    });
    await expect.poll(proofText, { timeout: 30_000 }).toBe(DONE);
    const words = await said();
    expect(words[0]).toBe('Your browser is doing a short check that keeps automated buyers out: just started.');
    expect(words).toContain('Your browser is doing a short check that keeps automated buyers out: about half done.');
    expect(words.at(-1)).toBe('Check done. You are in the draw.');
    // The solver is no visitor's business: nothing in the paragraph asks them to act.
    expect(await page.getAttribute('#proof', 'aria-live')).toBe('polite');
    await page.clock.runFor(20_000);
    await expect.poll(() => room.proofs.length).toBe(1);
    expect(room.proofs).toEqual([proof.solution]);
    expect(room.checks).toEqual(['application/json']);
  });

  it("says how far it is in the page's language", async () => {
    const proof = specProof('wait.token.one', KEY, EASY);
    const language = {
      strings: new Strings(markedLocale),
      offered: [localeByTag('en-US')!, markedLocale],
      search: '',
      message: '',
    };
    const html = render(
      'startwaiting',
      { retryAfterSeconds: 20, jitterSeconds: 0 },
      { proofRequired: true, proofSeconds: EASY, proofCompact: proof.compact },
      language,
    );
    await open(html, { kind: 'room', status: 'keepwaiting', retryAfter: 30, extra: { proof: proof.json } });
    await expect.poll(proofText, { timeout: 30_000 }).toBe(`§${DONE}`);
    expect((await said())[0]).toBe(
      '§Your browser is doing a short check that keeps automated buyers out: just started.',
    );
  });

  it('after a lost draw, solves the new token’s challenge and sends that one', async () => {
    const first = specProof('wait.token.one', KEY, EASY);
    const next = specProof('wait.token.two', KEY, EASY);
    const room = await open(proofPage(first), {
      kind: 'room',
      status: 'startwaiting',
      retryAfter: 30,
      extra: { proof: next.json },
    });
    await page.clock.runFor(20_000);
    await expect.poll(() => room.proofs.length, { timeout: 30_000 }).toBe(1);
    // The answer handed the solver the successor's challenge: it works again, then the next check carries it.
    await page.clock.runFor(30_000);
    // The worker solves in real time: on a busy machine it may finish after the due time the clock
    // passed, and the check it then waits to send needs the page's clock to move on.
    await expect
      .poll(
        async () => {
          await page.clock.runFor(1_000);
          return room.proofs.length;
        },
        { timeout: 30_000 },
      )
      .toBe(2);
    expect(room.proofs).toEqual([first.solution, next.solution]);
    expect(await proofText()).toBe(DONE);
  });

  it('never checks a due draw while the solution is still being worked out', async () => {
    // Prefixes no counter reaches: the worker never finishes.
    const endless = specProof('wait.token.one', KEY, EASY).compact.replace(
      /(\.[0-9a-f]{32}){8}$/,
      '.ffffffffffffffffffffffffffffffff'.repeat(8),
    );
    const room = await open(
      render(
        'startwaiting',
        { retryAfterSeconds: 20, jitterSeconds: 0 },
        { proofRequired: true, proofCompact: endless },
      ),
      { kind: 'origin' },
    );
    await expect.poll(proofText).toMatch(/^Your browser is doing a short check/);
    await page.clock.runFor(60_000);
    expect(await checksMade(page)).toBe(0);
    expect(room.checks).toEqual([]);
    expect(await page.textContent('#count')).toBe('a moment');
  });

  it('sends `none` when the browser has no Worker, and says nothing about a check it is not doing', async () => {
    await page.addInitScript(() => {
      delete (window as unknown as { Worker?: unknown }).Worker;
    });
    const proof = specProof('wait.token.one', KEY, EASY);
    const room = await open(proofPage(proof), {
      kind: 'room',
      status: 'keepwaiting',
      retryAfter: 30,
      extra: { proof: proof.json },
    });
    await page.clock.runFor(20_000);
    await expect.poll(() => room.proofs.length).toBe(1);
    expect(room.proofs).toEqual(['none']);
    expect(await proofText()).toBe('');
  });

  it('sends `none` while no proof is asked (never a check without the header), and starts solving when an answer asks for one', async () => {
    const proof = specProof('wait.token.one', KEY, EASY);
    const room = await open(render('startwaiting', { retryAfterSeconds: 20, jitterSeconds: 0 }), {
      kind: 'room',
      status: 'startwaiting',
      retryAfter: 30,
      extra: { proof: proof.json },
    });
    await page.clock.runFor(20_000);
    await expect.poll(() => room.proofs.length).toBe(1);
    await expect.poll(proofText, { timeout: 30_000 }).toBe(DONE);
    await page.clock.runFor(30_000);
    await expect.poll(() => room.proofs.length).toBe(2);
    expect(room.proofs).toEqual(['none', proof.solution]);
  });

  it('loads the solver once, and solves the newest challenge when an answer comes before the solver has loaded', async () => {
    const first = specProof('wait.token.one', KEY, EASY);
    const next = specProof('wait.token.two', KEY, EASY);
    // The page's solver loads are held until the test lets them go, each one on its own (a page's
    // route goes before the fake room's, which is the context's).
    const held: Route[] = [];
    let holding = true;
    await page.route(
      (url) => url.pathname === SOLVER_PATH,
      (route) => (holding ? void held.push(route) : route.fallback()),
    );
    await instrument(page, 0);
    const room = await serveRoom(context, proofPage(first), {
      kind: 'room',
      status: 'startwaiting',
      retryAfter: 30,
      extra: { proof: next.json },
    });
    // The page's load event waits for the solver: the document is enough.
    await page.goto(SHOP_URL, { waitUntil: 'domcontentloaded' });
    await expect.poll(() => held.length).toBe(1);
    // The check comes while the solver is still loading: `none`, and the answer names the next token's challenge.
    await page.clock.runFor(20_000);
    await expect.poll(() => room.proofs.length).toBe(1);
    await page.waitForFunction(() => document.getElementById('count')?.textContent !== 'a moment');
    expect(await page.evaluate(() => document.querySelectorAll('script[src]').length)).toBe(1);
    // Let the loads go, the newest first: a second, older load would run last and win.
    holding = false;
    for (const route of held.reverse()) {
      await route.fallback();
      await page.waitForFunction(() => 'wrProof' in window);
    }
    await expect.poll(proofText, { timeout: 30_000 }).toBe(DONE);
    await page.clock.runFor(30_000);
    await expect.poll(() => room.proofs.length, { timeout: 30_000 }).toBe(2);
    expect(room.proofs).toEqual(['none', next.solution]);
  });
});
