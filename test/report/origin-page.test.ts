// `npm run report` on a made-up on-sale in auto: the page shows the origin's minutes (time to headers
// at the objective's percentile, errors) against the objective, and the rate the autopilot chose
// beside the admissions, in tables and charts; a log and journal in manual, or from before the
// fields, still make a page.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportCharts } from '../../report/charts.js';
import { main } from '../../report/cli.js';
import { reportFigures } from '../../report/figures.js';
import { readDecisionLog, readJournal } from '../../report/read.js';
import { autoFields, journalWrite, minuteOfRequests, originLine } from './origin-lines.js';

const T0 = Date.UTC(2026, 10, 26, 10, 0, 0);
const M = (n: number): number => T0 + n * 60_000;
const dir = mkdtempSync(join(tmpdir(), 'report-origin-'));

// 10:00 healthy (p90 300 ms); 10:01 slow and failing (p90 1,500 ms, 4 of 200 answered 503); 10:02
// healthy again (p90 500 ms); 10:03 a few requests only. Two lines carry garbage in their origin fields.
const logLines = [
  ...minuteOfRequests(M(0), 200, 0, (i) => (i % 10 === 9 ? 250 : 300) - (i % 10 === 0 ? 200 : 0)),
  ...minuteOfRequests(
    M(1),
    200,
    1_000,
    (i) => (i % 4 === 0 ? 1_500 : 400),
    (i) => (i % 50 === 0 ? 503 : 200),
  ),
  ...minuteOfRequests(M(2), 200, 2_000, () => 500),
  ...minuteOfRequests(M(3), 10, 3_000, () => 200),
  originLine(M(2) + 30_000, 5_000, 'shop', 'soon', 200),
  originLine(M(2) + 31_000, 5_001, 'shop', 40, 'teapot'),
];
const journalLines = [
  journalWrite(M(0) + 30_000, { shop: { new_users_per_minute: '600', ...autoFields(60, 'raising') } }),
  journalWrite(M(1) + 40_000, { shop: autoFields(40, 'cutting') }),
  journalWrite(M(2) + 20_000, { shop: autoFields(44, 'holding') }),
  journalWrite(M(3) + 10_000, { shop: { ...autoFields(48, 'raising'), pace_rate: 'lots' } }),
];
const logFile = join(dir, 'room.log');
const journalFile = join(dir, 'journal.jsonl');
writeFileSync(logFile, `${logLines.join('\n')}\n`);
writeFileSync(journalFile, `${journalLines.join('\n')}\n`);

async function page(args: string[]): Promise<string> {
  const out = join(dir, `r${Math.random().toString(36).slice(2)}.html`);
  expect(await main([logFile, '--out', out, ...args], () => {})).toBe(0);
  return readFileSync(out, 'utf8');
}

/** The rows of the origin's table, as cells of text. */
function originRows(html: string): string[][] {
  const table = html.slice(html.indexOf('Room shop: the origin, minute by minute</caption>'));
  const body = table.slice(table.indexOf('<tbody>'), table.indexOf('</tbody>'));
  return [...body.matchAll(/<tr>(.*?)<\/tr>/g)].map((m) =>
    [...m[1]!.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((c) => c[1]!),
  );
}

describe('npm run report: the origin against the autopilot', () => {
  it("tables each minute's time to headers and errors against the objective, and the rate chosen beside admissions", async () => {
    const html = await page(['--journal', journalFile]);
    expect(originRows(html)).toEqual([
      ['10:00', '200', '60', 'raising', '200', '300 ms', '800 ms', '0', '0%', '1%', 'yes'],
      ['10:01', '200', '40', 'cutting', '200', '1,500 ms', '800 ms', '4', '2%', '1%', 'no'],
      ['10:02', '202', '44', 'holding', '200', '500 ms', '800 ms', '0', '0%', '1%', 'yes'],
      // The last line's pace_rate is no number: the rate before it stands.
      ['10:03', '10', '44', 'raising', '10', '200 ms', '800 ms', '0', '0%', '1%', 'yes'],
    ]);
    expect(html).toMatch(
      /The origin: 610 requests, 0\.7% errors; p90 a minute 200 to 1,500 ms\. In auto \(objective: p90 within 800 ms, errors within 1%\): 3 of 4 minutes with requests held the objective; the autopilot chose 40 to 60 new visitors a minute \(last 44, raising\)\./,
    );
    // The garbage is said, not fatal.
    expect(html).toMatch(/2 with an unreadable originMs or originStatus \(left out of the origin(&#39;|')s figures\)/);
    expect(html).toMatch(/1 values of the autopilot(&#39;|')s \(pace_rate, the objective\) unreadable, left out/);
    // Two charts more for the room (seven, the POPs' and the API calls'), each wide and narrow.
    expect(html.match(/<svg class="wide"/g)).toHaveLength(9);
    expect(html.match(/<svg class="narrow"/g)).toHaveLength(9);
    expect(html).toContain('id="shop-origin-latency"');
    expect(html).toContain('id="shop-origin-errors"');
    expect(html).toMatch(/the green line is the rate the autopilot chose/);
  });

  it('draws the objective as a rule over the minutes in auto, and the chosen rate as a line under the ceiling', async () => {
    const figures = reportFigures(await readDecisionLog(logFile, { nowMs: M(60) }), await readJournal(journalFile));
    const charts = new Map(reportCharts(figures, { narrow: false }).map((c) => [c.id, c.spec]));
    const layers = (id: string) =>
      (charts.get(id) as unknown as { layer: { data: { values: Record<string, number>[] } }[] }).layer.map(
        (l) => l.data.values,
      );
    const [bars, rule] = layers('shop-origin-latency');
    expect(bars!.map((v) => v.v)).toEqual([300, 1_500, 500, 200]);
    expect(new Set(rule!.map((v) => v.value))).toEqual(new Set([800]));
    expect(rule!.map((v) => v.t)).toEqual([M(0), M(1), M(1), M(2), M(2), M(3), M(3), M(4)]);
    const [errors, errorRule] = layers('shop-origin-errors');
    expect(errors!.map((v) => v.v)).toEqual([0, 2, 0, 0]);
    expect(new Set(errorRule!.map((v) => v.value))).toEqual(new Set([1]));
    const admissions = layers('shop-admissions');
    const rate = admissions.at(-1)!;
    expect(rate.filter((_, i) => i % 2 === 0).map((v) => v.value)).toEqual([60, 40, 44, 44]);
  });

  it('reads the times at the percentile the journal gives', async () => {
    const p95 = join(dir, 'p95.jsonl');
    writeFileSync(p95, `${journalWrite(M(0) + 1_000, { shop: autoFields(60, 'holding', 800, 95) })}\n`);
    const rows = originRows(await page(['--journal', p95]));
    // 10:01's slowest quarter took 1,500 ms: p95 is that too; 10:00's p95 is 300 ms.
    expect(rows.map((r) => r[5])).toEqual(['300 ms (p95)', '1,500 ms (p95)', '500 ms (p95)', '200 ms (p95)']);
  });

  it('shows the origin without an objective when no journal says the room was in auto', async () => {
    const html = await page([]);
    const rows = originRows(html);
    expect(rows[1]).toEqual(['10:01', '200', '–', '–', '200', '1,500 ms', '–', '4', '2%', '–', '–']);
    expect(html).toMatch(/not in auto by the journal, so no objective to hold it to/);
    expect(html).toMatch(/no objective \(room not in auto\)/);
  });
});
