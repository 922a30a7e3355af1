// A preview link's page in a real Chromium against bin/main.wasm on the local host: on Playwright's fake
// clock, ten minutes pass (past every page's own check, the deny page's five minutes included) and the
// page never checks the room, never navigates, is never admitted and keeps no cookie. The waiting page
// shows what a check would say instead; with a proof asked, its solver still works the made-up puzzle.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../lib/chromium.js';
import { startRoom, TEST_KID, type Room } from '../../lib/room-host.js';
import { catalog as english } from '../../src/core/i18n/catalogs/en-US.js';
import { PREVIEW_PARAM, PREVIEW_PATH, type PreviewClaims, signPreview } from '../../src/core/tokens/index.js';

const INVITE_KEY = Uint8Array.from({ length: 32 }, (_, i) => (i * 7 + 3) & 255);

let room: Room;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
  // A room that lets everyone in: a page that checked would be admitted at once.
  room = await startRoom({ settings: { allow_percentage: '100', wait_period_duration: '10', proof_seconds: '1' } });
  await room.setKeys({ [TEST_KID]: room.key.base64, 'invite.k1': Buffer.from(INVITE_KEY).toString('base64') });
});
afterAll(async () => {
  await browser?.close();
  await room?.stop();
});

async function link(claims: Partial<PreviewClaims>): Promise<string> {
  const exp = Math.floor(Date.now() / 1000) + 600;
  const text = await signPreview({ room: 'default', page: 'keepwaiting', exp, ...claims }, 'k1', INVITE_KEY);
  return `${room.url}${PREVIEW_PATH}?${PREVIEW_PARAM}=${text}`;
}

/** Opens the link on a paused fake clock; every request the page makes and every navigation of its frame, counted. */
async function open(claims: Partial<PreviewClaims>) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const requests: string[] = [];
  const navigations: string[] = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  page.on('framenavigated', (f) => {
    if (f === page.mainFrame()) navigations.push(f.url());
  });
  await page.clock.install();
  const url = await link(claims);
  const lines = room.decisions().length;
  await page.goto(url);
  return { context, page, requests, navigations, url, lines };
}

const status = (page: Page) => page.textContent('[role="status"]');

describe("a preview link's page in Chromium", () => {
  it.each([
    ['keepwaiting', {}],
    ['startwaiting in a first-come line', { page: 'startwaiting', mode: 'fifo' }],
    ['countdown', { page: 'prequeue' }],
    ['deny', { page: 'deny' }],
  ] as const)(
    '%s: ten minutes on, it has checked nothing and gone nowhere',
    {
      timeout: 60_000,
    },
    async (_name, claims) => {
      const { context, page, requests, navigations, url, lines } = await open(claims);
      try {
        await page.clock.runFor(10 * 60_000);
        expect(requests).toEqual([PREVIEW_PATH]);
        expect(navigations).toEqual([url]);
        expect(page.url()).toBe(url);
        expect(await page.isVisible('#wr-preview')).toBe(true);
        expect(await context.cookies()).toEqual([]);
        expect(room.decisions().slice(lines)).toMatchObject([{ decision: 'preview', reason: 'preview' }]);
        expect(room.origin.requests).toHaveLength(0);
        // The waiting pages say what a check would, from the page itself.
        if (!('page' in claims) || claims.page === 'startwaiting')
          expect(await status(page)).toMatch(/^Not your turn yet\. The next check is in /);
      } finally {
        await context.close();
      }
    },
  );

  it('with a proof asked, the solver works the made-up puzzle out, and still nothing is checked', {
    timeout: 90_000,
  }, async () => {
    const { context, page, requests, navigations, url } = await open({ proof: true });
    try {
      await page.getByText(english.clientProofDone).waitFor({ timeout: 60_000 });
      await page.clock.runFor(2 * 60_000);
      expect(requests.filter((p) => p !== PREVIEW_PATH).every((p) => p.startsWith('/__waiting_room/solver-'))).toBe(
        true,
      );
      expect(navigations).toEqual([url]);
      expect(room.origin.requests).toHaveLength(0);
    } finally {
      await context.close();
    }
  });
});
