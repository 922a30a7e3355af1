// `npm run docs:screenshots` against the built room in Chromium: every picture written, of its width,
// each showing what the docs say it shows (the lane's page, the turn told in a hidden tab, the waiting
// page in five languages and the Arabic countdown, each with the 38 languages at its foot).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { takeScreenshots } from '../../scripts/doc-screenshots.js';

const out = mkdtempSync(join(tmpdir(), 'wr-shots-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** A PNG's width and height, from its header chunk. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

it("takes the lane's waiting page, the turn in a hidden tab and the languages' pages from the built room", async () => {
  const shown = await takeScreenshots(out);
  expect(shown.lane).toMatchObject({ heading: 'Still in the queue', lane: 'Your lane: Club members' });
  expect(shown.turn.title).toBe('It is your turn!');
  expect(shown.turn.notification).toEqual({
    title: 'It is your turn!',
    body: 'Come back to this tab to go to the site.',
  });
  expect(shown.turn.message).toContain('It is your turn!');
  for (const file of [shown.lane.file, shown.turn.file]) {
    expect(file.startsWith(out)).toBe(true);
    const { width, height } = pngSize(file);
    expect(width).toBe(720);
    expect(height).toBeGreaterThan(600);
  }
  // The languages: each page in the language the browser asked for, right to left in Arabic, with a
  // sale's wait (minutes to an hour, never hundreds of hours) and the countdown two hours before it.
  expect(shown.languages.map((l) => [l.file.slice(out.length + 1), l.lang, l.dir])).toEqual([
    ['languages-de-DE.png', 'de-DE', 'ltr'],
    ['languages-ja-JP.png', 'ja-JP', 'ltr'],
    ['languages-ar-EG.png', 'ar-EG', 'rtl'],
    ['languages-th-TH.png', 'th-TH', 'ltr'],
    ['languages-hi-IN.png', 'hi-IN', 'ltr'],
    ['languages-ar-EG-countdown.png', 'ar-EG', 'rtl'],
  ]);
  const [de, ja, ar, th, hi, countdown] = shown.languages;
  expect(de!.heading).toBe('Sie sind in der Warteschlange');
  expect(de!.figure).toMatch(/^etwa [12]\d Minuten bis etwa 1 Stunde$/);
  expect(ja!.figure).toMatch(/^約[12]\d分～約1時間$/);
  expect(ar!.figure).toMatch(/^من نحو [١٢][٠-٩] دقيقة إلى نحو ساعة$/);
  expect(th!.figure).toMatch(/^ประมาณ [12]\d นาที ถึงประมาณ 1 ชั่วโมง$/);
  expect(hi!.figure).toMatch(/^लगभग [12]\d मिनट – लगभग एक घंटा$/);
  expect(countdown!.heading).toBe('يبدأ البيع قريبًا');
  expect(countdown!.figure).toMatch(/ساع/);
  for (const l of shown.languages) {
    expect(l.links, l.file).toBe(38);
    expect(pngSize(l.file).width, l.file).toBe(412);
  }
}, 180_000);
