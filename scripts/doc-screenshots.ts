// `npm run docs:screenshots`: the two pictures the README and the docs show of what a visitor meets, made
// again from the built room on the local host in the packaged Chromium, so they follow the waiting page
// as it changes (its languages, its words, its look): docs/turn-notice.png, a waiting page at the turn
// in a background tab, with what the tab's title and the notification said written under it (the
// headless browser draws no tab strip and no system notification); docs/lanes-members.png, the waiting
// page of a visitor invited into a lane; docs/languages-*.png, the waiting page in five languages and
// the Arabic countdown at a phone's width, chosen by the browser's language. `--out DIR` writes them elsewhere.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { isMain, isoSeconds, runTool } from '../lib/cli.js';
import { launchBrowser } from '../lib/chromium.js';
import { type NotifyState, recorded, recorders, type Recorded, setHidden } from '../lib/hidden-tab.js';
import { repoRoot } from '../lib/paths.js';
import { startRoom, type Room } from '../lib/room-host.js';
import { signInvite } from '../src/core/tokens/index.js';

const USAGE = `usage: npm run docs:screenshots [-- --out DIR]
  --out  where turn-notice.png, lanes-members.png and languages-*.png are written (default docs/)`;

/** The pictures' width: a phone held sideways, or a narrow desktop window. */
const WIDTH = 720;
/** The language pictures' width: a phone held upright. */
const PHONE_WIDTH = 412;
const INVITE_KEY = Uint8Array.from({ length: 32 }, (_, i) => (i * 31 + 7) & 255);

/** What each picture shows, read off the page as it was taken. */
export interface Shown {
  lane: { file: string; lane: string; heading: string };
  languages: LanguageShot[];
  turn: { file: string; title: string; notification: { title: string; body: string }; message: string };
}

/** A lane's waiting page: invited into `members`, then back on the page (the later waiting page, with its estimate). */
async function laneShot(browser: Browser, room: Room, file: string): Promise<Shown['lane']> {
  await room.setConfig({
    wait_period_duration: '60',
    allow_percentage: '7',
    identity: 'none',
    lanes: 'members:30',
    lane_names: 'members:Club members',
    message: 'Members: your lane gets 30% of the places.',
  });
  await room.setKeys({ [room.key.kid]: room.key.base64, 'invite.k1': Buffer.from(INVITE_KEY).toString('base64') });
  // A token falls due at its window's start: one that fell due between the two loads is drawn, and may
  // win (7%); then the page is the shop's, and the visitor is made again.
  for (let attempt = 1; ; attempt++) {
    const context = await newContext(browser);
    try {
      const page = await context.newPage();
      const invite = await signInvite(
        { room: 'default', sub: 'none', exp: Math.floor(Date.now() / 1000) + 600, lane: 'members' },
        'k1',
        INVITE_KEY,
      );
      await page.goto(`${room.url}/drop?waiting_room_invite=${invite}`);
      await page.reload();
      const lane = await page.textContent('#lane');
      if (lane !== null) {
        writeFileSync(file, await page.screenshot({ fullPage: true }));
        return { file, lane, heading: (await page.textContent('h1')) ?? '' };
      }
      if (attempt === 3) throw new Error(`the lane's page did not come three times: ${page.url()}`);
    } finally {
      await context.close();
    }
  }
}

/**
 * A browser context of the pictures' size. Run under tsx, esbuild names every function it compiles with a
 * `__name` helper, which the page's copy of a function handed to it (the init script, an evaluate) would
 * call and not find: the page gets one that does nothing.
 */
async function newContext(browser: Browser, locale = 'en-US', width = WIDTH): Promise<BrowserContext> {
  const context = await browser.newContext({ locale, viewport: { width, height: 600 } });
  await context.addInitScript({ content: 'globalThis.__name = (f) => f;' });
  return context;
}

/** The first notification the page showed, once it has (bounded: the room's next check is seconds away). */
async function notified(page: Page, timeoutMs: number): Promise<Recorded['notes'][number]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rec = await recorded(page);
    if (rec.notes[0] !== undefined) return rec.notes[0];
    if (Date.now() > deadline) throw new Error(`no notification within ${timeoutMs / 1000} s of the room opening`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A waiting page whose visitor asked to be told, hidden, at the turn: the room held, then opened. */
async function turnShot(browser: Browser, room: Room, file: string): Promise<Shown['turn']> {
  const held = { wait_period_duration: '5', allow_percentage: '100', identity: 'none' };
  await room.setConfig({ ...held, queue_all: 'true' });
  const context = await newContext(browser);
  try {
    const page = await context.newPage();
    const asks: NotifyState = { permission: 'default', answer: 'granted' };
    await page.addInitScript(recorders, asks);
    await page.goto(`${room.url}/`);
    await page.getByRole('button', { name: 'Notify me when it is my turn' }).click();
    await setHidden(page, true);
    await room.setConfig(held);
    const notification = await notified(page, 60_000);
    const title = await page.title();
    await page.evaluate(
      ({ title, notification }) => {
        const note = document.createElement('div');
        note.style.cssText =
          'max-width:600px;margin:40px auto;padding:14px 16px;border:2px dashed #888;border-radius:8px;font:14px/1.5 system-ui,sans-serif;color:#333';
        const line = (...parts: [string, boolean][]) => {
          const p = document.createElement('div');
          for (const [text, bold] of parts)
            p.append(bold ? Object.assign(document.createElement('b'), { textContent: text }) : text);
          note.append(p);
        };
        line(
          ['Captured at the turn, tab hidden', true],
          [' (added to this screenshot; headless Chromium draws no system notification)', false],
        );
        line(['Tab title: ', false], [title, true]);
        line(['Notification: ', false], [notification.title, true], [` — ${notification.body}`, false]);
        document.body.append(note);
      },
      { title, notification },
    );
    writeFileSync(file, await page.screenshot({ fullPage: true }));
    const message = (await page.textContent('[role="status"]')) ?? '';
    return { file, title, notification, message };
  } finally {
    await context.close();
  }
}

/** A language's picture as taken: the page's language and direction, its heading, and the links at its foot. */
export interface LanguageShot {
  file: string;
  lang: string;
  dir: string;
  heading: string;
  /** The wait's summary on a waiting page, the time left on the countdown. */
  figure: string;
  links: number;
}

/** The operator's message in the first three languages, as a site would give it per language (`message.TAG`). */
const MESSAGES: Record<string, string> = {
  'de-DE': 'Karten für die zweite Vorstellung gibt es ab 18:00 Uhr.',
  'ja-JP': '2公演目のチケットは18:00に発売します。',
  'ar-EG': 'تُطرح تذاكر العرض الثاني للبيع في الساعة 18:00.',
};
const WAITING_LANGUAGES = ['de-DE', 'ja-JP', 'ar-EG', 'th-TH', 'hi-IN'];

/** One page in one language, the browser asking for it, as a new visitor meets it. */
async function languageShot(
  browser: Browser,
  room: Room,
  tag: string,
  file: string,
  figure: string,
): Promise<LanguageShot> {
  const context = await newContext(browser, tag, PHONE_WIDTH);
  try {
    const page = await context.newPage();
    await page.goto(`${room.url}/`);
    const html = page.locator('html');
    const shot: LanguageShot = {
      file,
      lang: (await html.getAttribute('lang')) ?? '',
      dir: (await html.getAttribute('dir')) ?? '',
      heading: (await page.textContent('h1')) ?? '',
      figure: (await page.textContent(figure)) ?? '',
      links: await page.locator('a[hreflang]').count(),
    };
    writeFileSync(file, await page.screenshot({ fullPage: true }));
    return shot;
  } finally {
    await context.close();
  }
}

/**
 * The waiting page in each language, in a room whose chance gives a sale's wait (a quarter in about a
 * quarter of an hour, three quarters in about an hour: 4% a draw, a draw every 2 minutes), then the
 * Arabic countdown two hours before a sale.
 */
async function languageShots(browser: Browser, room: Room, outDir: string): Promise<LanguageShot[]> {
  const messages = Object.fromEntries(Object.entries(MESSAGES).map(([tag, text]) => [`message.${tag}`, text]));
  await room.setConfig({ wait_period_duration: '120', allow_percentage: '4', identity: 'none', ...messages });
  const shots: LanguageShot[] = [];
  for (const tag of WAITING_LANGUAGES)
    shots.push(await languageShot(browser, room, tag, join(outDir, `languages-${tag}.png`), '#wt'));
  const minute = 60_000;
  const now = Math.floor(Date.now() / minute) * minute;
  await room.setConfig({
    wait_period_duration: '120',
    allow_percentage: '4',
    identity: 'none',
    event_prequeue_start: isoSeconds((now - minute) / 1000),
    event_start: isoSeconds((now + 120 * minute) / 1000),
  });
  shots.push(await languageShot(browser, room, 'ar-EG', join(outDir, 'languages-ar-EG-countdown.png'), '#left'));
  return shots;
}

/** Every picture into `outDir`, from a room started for them. */
export async function takeScreenshots(outDir: string): Promise<Shown> {
  const room = await startRoom();
  try {
    const browser = await launchBrowser();
    try {
      const lane = await laneShot(browser, room, join(outDir, 'lanes-members.png'));
      const turn = await turnShot(browser, room, join(outDir, 'turn-notice.png'));
      const languages = await languageShots(browser, room, outDir);
      return { lane, turn, languages };
    } finally {
      await browser.close();
    }
  } finally {
    await room.stop();
  }
}

export async function main(argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({ args: [...argv], options: { out: { type: 'string' } } });
  const shown = await takeScreenshots(values.out ?? join(repoRoot, 'docs'));
  console.log(`${shown.lane.file}: "${shown.lane.heading}", "${shown.lane.lane}"`);
  console.log(`${shown.turn.file}: title "${shown.turn.title}", notification "${shown.turn.notification.title}"`);
  for (const l of shown.languages) console.log(`${l.file}: ${l.lang}, "${l.heading}", "${l.figure}"`);
  return 0;
}

if (isMain(import.meta.url)) runTool('npm run docs:screenshots', USAGE, main);
