// `npm run report`: a saved log (prefixes, other output, garbage) and a journal into one page that
// needs nothing from the network; the command line's mistakes said plainly.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../report/cli.js';
import { makeLog } from './log-lines.js';

const T0 = Date.UTC(2026, 10, 26, 10, 0, 0);
const dir = mkdtempSync(join(tmpdir(), 'report-'));
const made = makeLog({
  startMs: T0,
  minutes: 6,
  arrivals: (m) => (m < 3 ? 400 : 50),
  target: 120,
  leave: 0.05,
  pops: ['LHR', 'FRA'],
});
const logFile = join(dir, 'room.log');
writeFileSync(
  logFile,
  [
    'INFO: Managed logging enabled on service',
    ...made.lines.map((l, i) => (i % 2 === 0 ? `waiting_room_log :: ${l}` : l)),
    '{"wr":1,"ts":',
    '',
  ].join('\n'),
);

async function report(args: string[]): Promise<{ html: string; said: string }> {
  const out = join(dir, `r${Math.random().toString(36).slice(2)}.html`);
  const said: string[] = [];
  expect(await main([logFile, '--out', out, ...args], (t) => said.push(t))).toBe(0);
  return { html: readFileSync(out, 'utf8'), said: said.join('\n') };
}

describe('npm run report', () => {
  it('writes one self-contained page with its charts, and says on it that no journal was given', async () => {
    const { html, said } = await report(['--target', '120']);
    expect(said).toMatch(/skipped 1 not the room's and 1 unusable/);
    // Each chart twice: wide for a desktop, narrow for a phone.
    expect(html.match(/<svg class="wide"/g)!.length).toBe(6);
    expect(html.match(/<svg class="narrow"/g)!.length).toBe(6);
    // Nothing fetched: no script, no stylesheet or image from elsewhere (a clip path's url(#id) is the page's own).
    expect(html).not.toMatch(/<script|<link|<img|src=|url\((?!#)/);
    expect(html).toMatch(/No journal given/);
    expect(html).toMatch(/1 skipped as not the room(&#39;|')s/);
    expect(html).toMatch(/target 120 a minute/);
    expect(html).toContain(`${made.truth.admissions.toLocaleString('en-GB')} admitted`);
    // Times of day on the axes, not epoch numbers.
    expect(html).toMatch(/>10:0\d</);
  });

  it("names the languages each room's waiting visitors read, largest first; a log without them says so", async () => {
    const shop = makeLog({
      startMs: T0,
      minutes: 4,
      arrivals: () => 300,
      target: 120,
      seed: 2,
      languages: [
        ['de-DE', 0.15],
        ['en-US', 0.6],
        ['th-TH', 0.2],
        ['ar-EG', 0.05],
      ],
    });
    const checkout = makeLog({
      startMs: T0,
      minutes: 4,
      arrivals: () => 40,
      target: 30,
      room: 'checkout',
      seed: 4,
      languages: [
        ['hi-IN', 0.7],
        ['sr-BA', 0.3],
      ],
    });
    const file = join(dir, 'languages.log');
    writeFileSync(file, [...shop.lines, ...checkout.lines].join('\n'));
    const out = join(dir, 'languages.html');
    expect(await main([file, '--out', out], () => {})).toBe(0);
    const html = readFileSync(out, 'utf8');
    // Each room's languages as the log made them, largest first: the newer languages named as the others.
    const listed = (truth: Map<string, number>) =>
      [...truth]
        .sort((a, b) => b[1] - a[1])
        .map(([tag, n]) => `${tag} ${n.toLocaleString('en-GB')}`)
        .join(', ');
    const langs = [...html.matchAll(/<p class="langs">(.*?)<\/p>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ''));
    expect(langs).toEqual([
      `Languages of the waiting visitors: ${listed(checkout.truth.languages)}.`,
      `Languages of the waiting visitors: ${listed(shop.truth.languages)}.`,
    ]);
    expect(langs.join(' ')).toMatch(/hi-IN .*sr-BA .*en-US .*th-TH .*de-DE .*ar-EG/);
    // The log of the first test, written as an edge before the field wrote it.
    const { html: old } = await report([]);
    expect(old).toMatch(/Languages: none named in this log/);
  });

  it("draws the API calls and the published chance from the controller's journal", async () => {
    const journal = join(dir, 'control.jsonl');
    writeFileSync(
      journal,
      [
        JSON.stringify({
          ts: new Date(T0 + 5_000).toISOString(),
          kind: 'write',
          ok: true,
          status: 200,
          calls: 1,
          keys: ['room.shop.live'],
          rooms: { shop: { allow_schedule: `${T0 / 1000 + 20}=40` } },
          remaining: 900,
          error: null,
        }),
        JSON.stringify({
          ts: new Date(T0 + 6_000).toISOString(),
          kind: 'read',
          ok: true,
          status: 200,
          calls: 1,
          keys: [],
          rooms: {},
          remaining: 899,
          error: null,
        }),
        'garbage',
      ].join('\n'),
    );
    const { html } = await report(['--journal', journal]);
    expect(html).toMatch(/1 writes made; API calls: 1 reads, 1 writes, 0 heartbeats and 0 starts of fastly log-tail/);
    expect(html).toMatch(/1 journal lines skipped/);
    expect(html).not.toMatch(/No journal given/);
    expect(html).toMatch(/published \(journal\)/);
    expect(html.match(/<svg class="wide"/g)!.length).toBe(7);
  });

  it('writes the page next to the log when no --out is given, and prints where', async () => {
    const said: string[] = [];
    expect(await main([logFile], (t) => said.push(t))).toBe(0);
    // Beside the log (a temporary directory), not in the directory the command ran in.
    expect(existsSync(join(dir, 'room.report.html'))).toBe(true);
    expect(said.join('\n')).toContain(`report: ${join(dir, 'room.report.html')} `);
  });

  it('refuses a missing file, a bad target or room, naming what is wrong', async () => {
    await expect(main([join(dir, 'nope.log')], () => {})).rejects.toThrow(/cannot read .*nope\.log: no such file/);
    await expect(main([logFile, '--target', 'lots'], () => {})).rejects.toThrow(/--target: "lots" is not a number/);
    await expect(main([logFile, '--room', 'Bad Room'], () => {})).rejects.toThrow(/--room/);
    await expect(main([], () => {})).rejects.toThrow(/give the decision log file/);
  });

  it("shows one room's figures with --room, and a page that says so when the log has none of its lines", async () => {
    const { html } = await report(['--room', 'checkout']);
    expect(html).toMatch(/Waiting room report: room checkout/);
    expect(html).toMatch(/of other rooms/);
    expect(html).not.toMatch(/<svg/);
  });
});
