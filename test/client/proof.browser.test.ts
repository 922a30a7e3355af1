// The client's default solver in Chromium, from the built module as an app loads it: the page's
// solver script in a Web Worker (a blob: URL), and, under a Content-Security-Policy that forbids
// such workers, the same solving function on the page's own thread. Playwright answers the app's
// requests for https://app.test/ (no server, no network).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../lib/chromium.js';
import { bundleClient } from '../../scripts/build-client.js';
import { specProof } from '../support/proof-spec.js';

const KEY = Uint8Array.from({ length: 64 }, (_, i) => (i * 17 + 9) & 255);
const APP = 'https://app.test/';

let browser: Browser;
let module: string;

beforeAll(async () => {
  [browser, module] = await Promise.all([launchBrowser(), bundleClient()]);
});
afterAll(async () => {
  await browser?.close();
});

/** An app page at APP that imports the built client, under `csp` when given. */
async function appPage(csp?: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.route(`${APP}**`, (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === '/client.js')
      return route.fulfill({ body: module, headers: { 'content-type': 'text/javascript' } });
    return route.fulfill({
      body: '<!doctype html><title>app</title><p>app</p>',
      headers: { 'content-type': 'text/html', ...(csp ? { 'content-security-policy': csp } : {}) },
    });
  });
  await page.goto(APP);
  await page.addScriptTag({ type: 'module', content: "import * as c from '/client.js'; window.client = c;" });
  await page.waitForFunction(() => 'client' in window);
  return page;
}

/** Solves `proof` in the page with the client's pageSolver; counts the Workers made and the policy's refusals. */
async function solveIn(page: Page, proof: unknown): Promise<{ solution: string; workers: number; refused: string[] }> {
  return page.evaluate(async (p) => {
    let workers = 0;
    const refused: string[] = [];
    document.addEventListener('securitypolicyviolation', (e) => refused.push(e.effectiveDirective));
    const Original = window.Worker;
    window.Worker = class extends Original {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        workers++;
      }
    };
    const { client } = window as unknown as { client: { pageSolver: (p: unknown, s: AbortSignal) => Promise<string> } };
    const solution = await client.pageSolver(p, new AbortController().signal);
    return { solution, workers, refused };
  }, proof);
}

describe('the client’s solver in a browser', () => {
  it('runs the page’s solver in a Web Worker and finds the spec’s counters', async () => {
    const proof = specProof('browser.token.text', KEY, 0.3);
    const page = await appPage();
    expect(await solveIn(page, proof.json)).toEqual({ solution: proof.solution, workers: 1, refused: [] });
  });

  it('solves on the page’s thread where the page’s policy forbids a blob: Worker', async () => {
    const proof = specProof('strict.policy.page', KEY, 0.3);
    const page = await appPage("default-src 'self'; script-src 'self' 'unsafe-inline'; worker-src 'self'");
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const solved = await solveIn(page, proof.json);
    expect(solved.refused).toEqual(['worker-src']);
    expect(solved.solution).toBe(proof.solution);
    expect(errors).toEqual([]);
  });
});
