// `npm run docs:screenshots` against the built room in Chromium: both pictures written, of the pictures'
// width, each showing what the docs say it shows (the lane's page, the turn told in a hidden tab).
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

it("takes the lane's waiting page and the turn in a hidden tab from the built room", async () => {
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
}, 180_000);
