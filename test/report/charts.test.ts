// The report's charts as drawn (Vega's scene, no browser): one time range for every chart, the last
// minute shown in each (the POPs' too), and time axes that never repeat a label.
import * as vega from 'vega';
import * as vl from 'vega-lite';
import { describe, expect, it } from 'vitest';
import { LogAggregator } from '../../report/aggregate.js';
import { reportCharts, type Spec } from '../../report/charts.js';
import { reportFigures } from '../../report/figures.js';
import type { JournalFigures } from '../../report/journal.js';
import { makeLog } from './log-lines.js';

const T0 = Date.UTC(2026, 10, 26, 7, 0, 0);

interface Item {
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  text?: string;
  items?: Item[];
  marktype?: string;
  role?: string;
  mark?: { role?: string; marktype?: string };
}

async function drawn(spec: Spec): Promise<{
  x: (ms: number) => number;
  domain: number[];
  labels: string[];
  rects: { x: number; right: number; height: number }[];
}> {
  const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' });
  await view.runAsync();
  const scale = view.scale('x') as ((v: number) => number) & { domain(): (number | Date)[] };
  const labels: string[] = [];
  const rects: { x: number; right: number; height: number }[] = [];
  const walk = (item: Item, role: string | undefined): void => {
    for (const child of item.items ?? []) {
      const r = child.role ?? role;
      if (child.marktype !== undefined || child.items !== undefined) walk(child, r);
      if (item.marktype === 'text' && r === 'axis-label' && child.text !== undefined) labels.push(String(child.text));
      if (item.marktype === 'rect' && r === 'mark' && child.x !== undefined)
        rects.push({ x: child.x, right: child.x + (child.width ?? 0), height: child.height ?? 0 });
    }
  };
  walk((view.scenegraph() as unknown as { root: Item }).root, undefined);
  const out = { x: (ms: number) => scale(ms), domain: scale.domain().map(Number), labels, rects };
  view.finalize();
  return out;
}

/** The time axis's labels: "HH:MM" texts (the count axis has none of that shape). */
const timeLabels = (labels: string[]): string[] => labels.filter((l) => /^\d\d:\d\d$/.test(l));

describe("the report's charts", () => {
  const made = makeLog({
    startMs: T0,
    minutes: 5,
    arrivals: (m) => (m < 2 ? 300 : 40),
    target: 100,
    pops: ['LHR', 'FRA'],
    seed: 4,
  });
  const a = new LogAggregator({ nowMs: T0 + 86_400_000 });
  for (const l of made.lines) a.line(l);
  const log = a.finish();
  // The journal published the chance ten minutes past the log's last line, as a controller plans ahead.
  const schedules = new Map([
    [
      'shop',
      new Map([
        [T0 / 1000 + 60, 40],
        [T0 / 1000 + 900, 30],
      ]),
    ],
  ]);
  const journal = {
    minutes: new Map(),
    schedules,
    targets: new Map(),
    pace: new Map(),
    lanes: new Map(),
    badValues: 0,
    lines: 1,
    skipped: 0,
  } as unknown as JournalFigures;
  const figures = reportFigures(log, journal);
  const lastMinute = Math.floor(log.lastMs! / 60_000) * 60_000;

  for (const narrow of [false, true]) {
    it(`share one time range, from the first minute to the end of the last, ${narrow ? 'narrow' : 'wide'}`, async () => {
      for (const chart of reportCharts(figures, { narrow }).filter((c) => c.id !== 'api')) {
        const d = await drawn(chart.spec);
        expect(d.domain, chart.id).toEqual([T0, lastMinute + 60_000]);
        const labels = timeLabels(d.labels);
        expect(labels.length, chart.id).toBeGreaterThan(1);
        expect(new Set(labels).size, `${chart.id}: ${labels.join(' ')}`).toBe(labels.length);
      }
    });
  }

  it("draws the POPs' admissions of the last minute", async () => {
    const lastAdmissions = figures.popMinutes
      .filter((r) => r.startMs === lastMinute)
      .reduce((s, r) => s + r.admissions, 0);
    expect(lastAdmissions).toBeGreaterThan(0);
    const d = await drawn(reportCharts(figures, { narrow: false }).find((c) => c.id === 'pops')!.spec);
    const inLast = d.rects.filter(
      (r) => r.height > 0 && r.x >= d.x(lastMinute) - 1 && r.right <= d.x(lastMinute + 60_000) + 1 && r.right > r.x,
    );
    expect(inLast.length).toBeGreaterThan(0);
  });
});
