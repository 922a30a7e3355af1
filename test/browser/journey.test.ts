// A visitor's whole journey in a real Chromium against bin/main.wasm on the local host: queued,
// the page checks back by itself, the operator opens the gate in the live settings file, and the
// visitor lands on the origin without touching anything.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchBrowser } from '../../lib/chromium.js';
import { nowSeconds } from '../../lib/mint.js';
import { mintToken, startRoom, tokenDraw, waitFor, type Room } from '../../lib/room-host.js';

const d = 2;
const settings = { wait_period_duration: String(d), allow_period_duration: '3600', identity: 'ip' };

let room: Room;
let browser: Browser;
beforeAll(async () => {
  // The browser first: a missing Chromium fails here with the install hint, before any build.
  browser = await launchBrowser();
  room = await startRoom({ settings: { ...settings, allow_percentage: '100' } });
});
afterAll(async () => {
  await browser?.close();
  await room?.stop();
});

/**
 * An allow_percentage above 0 at which this visitor loses every draw for the next minute: every wait
 * token it can hold expires on a window boundary, and the draw of each is computed here exactly as
 * the room will. Without this the test would pass or fail on a coin flip.
 */
async function percentageThatKeepsWaiting(): Promise<string> {
  const first = Math.floor(nowSeconds() / d) * d;
  let lowest = 1;
  for (let exp = first; exp <= first + 90; exp += d)
    lowest = Math.min(lowest, tokenDraw(await mintToken(room, { dec: 'wait', exp })));
  return ((lowest * 100) / 2).toPrecision(6);
}

it('waits, checks back by itself, and gets in once the gate opens', { timeout: 60_000 }, async () => {
  await room.setConfig({ ...settings, allow_percentage: await percentageThatKeepsWaiting() });
  const journey = (): Array<Record<string, unknown>> => room.decisions().filter((l) => l.path === '/shop');
  const atOrigin = (): number => room.origin.requests.filter((r) => r.path === '/shop').length;

  const page = await (await browser.newContext()).newPage();
  await page.goto(`${room.url}/shop`);
  await expect.poll(() => page.title()).toBe('You are in the queue');
  expect(journey().map((l) => l.outcome)).toEqual(['startwaiting']);

  // Two checks the page made on its own, one of them a lost draw once the first token fell due.
  await waitFor(() => (journey().length >= 3 ? true : undefined), 20_000);
  const held = journey();
  expect(held.slice(1).every((l) => l.outcome === 'keepwaiting' || l.outcome === 'startwaiting')).toBe(true);
  expect(held.some((l) => l.reason === 'draw_lost')).toBe(true);
  expect(atOrigin()).toBe(0);
  expect(await page.title()).toBe('You are in the queue');

  await room.setConfig({ ...settings, allow_percentage: '100' });
  await page.waitForSelector('#origin', { timeout: 20_000 });
  expect(page.url()).toBe(`${room.url}/shop`);
  expect(atOrigin()).toBeGreaterThanOrEqual(1);
  // Admitted for the session: the room cookie is there, and the origin never saw it.
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.name === 'waiting_room_default')?.httpOnly).toBe(true);
  for (const request of room.origin.requests)
    expect(String(request.headers.cookie ?? '')).not.toContain('waiting_room');
  // Closed here, at rest on the origin page: closing Chromium mid-navigation can hang its shutdown.
  await page.context().close();
});

it('with a proof of work asked, the page solves it unasked and its draws count in full', {
  timeout: 60_000,
}, async () => {
  // A draw without the proof would win 0.5% of the time; with it, 50%: the page gets in only by solving.
  await room.setConfig({
    ...settings,
    allow_percentage: '50',
    proof_of_work: 'fixed',
    proof_seconds: '1',
    proof_free_share: '0.01',
  });
  const journey = (): Array<Record<string, unknown>> => room.decisions().filter((l) => l.path === '/proof');
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${room.url}/proof`);
  await expect.poll(() => page.title()).toBe('You are in the queue');
  await page.waitForSelector('#origin', { timeout: 45_000 });
  const draws = journey().filter((l) => l.reason === 'draw_won' || l.reason === 'draw_lost');
  expect(draws.length).toBeGreaterThanOrEqual(1);
  // Every draw the page came to was with its solution; the winning one among them.
  expect(draws.every((l) => l.proof === 'valid')).toBe(true);
  expect(draws.at(-1)?.reason).toBe('draw_won');
  await page.context().close();
});
