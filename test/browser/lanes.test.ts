// A lane invitation's link in a real Chromium against the built room (docs/lanes.md): the visitor lands
// on the waiting page of their lane, the invitation gone from the address, the lane named on the page,
// in another language too, with no axe finding.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../lib/chromium.js';
import { startRoom, type Room } from '../../lib/room-host.js';
import { catalog as german } from '../../src/core/i18n/catalogs/de-DE.js';
import { signInvite } from '../../src/core/tokens/invite.js';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const INVITE_KEY = Uint8Array.from({ length: 32 }, (_, i) => (i * 17 + 5) & 255);

let room: Room;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
  room = await startRoom({
    // Long windows and a chance no run wins: the page waits while it is looked at.
    settings: {
      wait_period_duration: '60',
      allow_percentage: '0.001',
      identity: 'none',
      lanes: 'members:30',
      lane_names: 'members:Club members',
      languages: 'en-US,de-DE',
    },
  });
  await room.setKeys({ [room.key.kid]: room.key.base64, 'invite.k1': Buffer.from(INVITE_KEY).toString('base64') });
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await room?.stop();
});

const link = async (path: string) =>
  `${room.url}${path}?waiting_room_invite=${await signInvite(
    { room: 'default', sub: 'none', exp: Math.floor(Date.now() / 1000) + 600, lane: 'members' },
    'k1',
    INVITE_KEY,
  )}`;

describe("a lane's waiting page in Chromium", () => {
  it('names the lane, without the invitation in the address, and passes axe', async () => {
    const context = await browser.newContext({ locale: 'en-US' });
    try {
      const page = await context.newPage();
      await page.goto(await link('/drop'));
      expect(new URL(page.url()).search).toBe('');
      await expect.poll(() => page.textContent('#lane')).toBe('Your lane: Club members');
      await page.addScriptTag({ content: axeSource });
      const found = await page.evaluate(async () => {
        const result = await (
          window as unknown as { axe: { run(): Promise<{ violations: { id: string }[] }> } }
        ).axe.run();
        return result.violations.map((v) => v.id);
      });
      expect(found).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('in German for a German browser', async () => {
    const context = await browser.newContext({ locale: 'de-DE' });
    try {
      const page = await context.newPage();
      await page.goto(await link('/'));
      expect(await page.textContent('#lane')).toBe(german.yourLane.replace('{lane}', 'Club members'));
    } finally {
      await context.close();
    }
  });
});
