// Vega-Lite specifications for the report's charts, rendered to SVG headlessly (no canvas, no browser).
import * as vega from 'vega';
import * as vl from 'vega-lite';
import { controlCharts } from './control-charts.js';
import { eventCharts } from './event-charts.js';
import type { ScenarioFigures } from './figures.js';
import { originCharts } from './origin-charts.js';

type Spec = vl.TopLevelSpec;

// No ARIA labels per mark: they triple the size of a chart with thousands of marks, and these charts
// are committed for sim/README.md and docs/ as static pictures.
const base = {
  $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
  background: 'white',
  config: { aria: false },
} as const;

/** Coordinates to 0.1 px: invisible, and it halves a line chart's file. Only geometry, never text. */
function trimGeometry(svg: string): string {
  return svg.replace(
    / (d|transform|points)="([^"]*)"/g,
    (_m, name: string, value: string) => ` ${name}="${value.replace(/(\d+\.\d)\d+/g, '$1')}"`,
  );
}

export async function toSvg(spec: Spec): Promise<string> {
  const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return trimGeometry(svg);
}

const changeRules = (f: ScenarioFigures): { minute: number; label: string }[] =>
  f.changes.map((c) => ({ minute: c.atMs / 60_000, label: `${c.key} = ${c.value}` }));

export function admissionsChart(f: ScenarioFigures): Spec {
  const values = f.series.admissionsPerSecond.map((n, s) => ({ minute: s / 60, admissions: n }));
  // Trim the silent tail so the interesting part fills the chart.
  let last = values.length - 1;
  while (last > 0 && values[last]!.admissions === 0) last--;
  const data = values.slice(0, Math.min(values.length, last + 31));
  // Per-second counts are noisy at these rates; a one-minute centred mean shows the trend beside them.
  const smooth = data.flatMap((v, i) => {
    if (i % 5 !== 0) return []; // one point per 5 s is plenty for a one-minute mean
    const from = Math.max(0, i - 30);
    const to = Math.min(data.length, i + 31);
    let sum = 0;
    for (let k = from; k < to; k++) sum += data[k]!.admissions;
    return [{ minute: v.minute, mean: sum / (to - from) }];
  });
  // The layer list is built up conditionally; its element type is whatever a layered spec accepts.
  const layers: Extract<Spec, { layer: unknown }>['layer'] = [
    {
      data: { values: data },
      mark: { type: 'line', strokeWidth: 0.8 },
      encoding: {
        x: { field: 'minute', type: 'quantitative', title: 'minute of the run' },
        y: { field: 'admissions', type: 'quantitative', title: 'admissions per second' },
        color: { datum: 'each second' },
      },
    },
    {
      data: { values: smooth },
      mark: { type: 'line', strokeWidth: 2 },
      encoding: {
        x: { field: 'minute', type: 'quantitative' },
        y: { field: 'mean', type: 'quantitative' },
        color: {
          datum: 'one-minute mean',
          scale: { range: ['#9ecae1', '#08519c'] },
          legend: { orient: 'top', title: null },
        },
      },
    },
  ];
  const rules = changeRules(f);
  if (rules.length > 0) {
    layers.push({
      data: { values: rules },
      mark: { type: 'rule', color: '#d62728', strokeDash: [4, 3] },
      encoding: { x: { field: 'minute', type: 'quantitative' } },
    });
    layers.push({
      data: { values: rules },
      mark: { type: 'text', align: 'left', dx: 4, dy: -4, color: '#d62728', baseline: 'top' },
      encoding: { x: { field: 'minute', type: 'quantitative' }, y: { value: 0 }, text: { field: 'label' } },
    });
  }
  return { ...base, title: `${f.title}: admissions per second`, width: 640, height: 200, layer: layers };
}

export function profileChart(f: ScenarioFigures): Spec {
  const d = f.series.windowProfile.length;
  const values = f.series.windowProfile.map((share, second) => ({ second, share }));
  return {
    ...base,
    title: {
      text: `${f.title}: admissions by second within the window`,
      subtitle: `dashed: an even spread over the ${d} seconds`,
    },
    width: 640,
    height: 160,
    layer: [
      {
        data: { values },
        mark: 'bar',
        encoding: {
          x: { field: 'second', type: 'ordinal', title: 'seconds after the window boundary', axis: { labelAngle: 0 } },
          y: { field: 'share', type: 'quantitative', title: 'share of admissions', axis: { format: '.0%' } },
        },
      },
      {
        data: { values: [{ even: 1 / d }] },
        mark: { type: 'rule', strokeDash: [4, 3], color: '#d62728' },
        encoding: { y: { field: 'even', type: 'quantitative' } },
      },
    ],
  };
}

export function heatmapChart(f: ScenarioFigures): Spec {
  const arrival = f.series.heatmapArrivalSeconds;
  const values = f.series.heatmap.map((c) => ({ ...c, column: arrival >= 60 ? c.arrival / 60 : c.arrival }));
  return {
    ...base,
    title: {
      text: `${f.title}: wait by arrival`,
      subtitle: 'each column: how the visitors who arrived then were spread over waits (admitted visitors)',
    },
    width: 640,
    height: 240,
    data: { values },
    mark: 'rect',
    encoding: {
      x: {
        field: 'column',
        type: 'ordinal',
        title: arrival >= 60 ? 'arrival minute' : `arrival, second of the run (${arrival}-s buckets)`,
      },
      y: {
        field: 'waitBucket',
        type: 'ordinal',
        sort: 'descending',
        title: [`wait, s (${f.series.heatmapBucketSeconds}-s buckets,`, 'top row: that or longer)'],
        axis: { labelOverlap: 'greedy' },
      },
      color: {
        field: 'share',
        type: 'quantitative',
        scale: { scheme: 'inferno' },
        title: 'share',
        legend: { format: '.0%' },
      },
    },
  };
}

export function waitHistogramChart(f: ScenarioFigures): Spec {
  return {
    ...base,
    title: `${f.title}: distribution of waits (admitted visitors)`,
    width: 640,
    height: 180,
    data: { values: f.series.waitHistogram },
    mark: { type: 'bar', binSpacing: 1 },
    encoding: {
      x: {
        field: 'waitBucket',
        type: 'quantitative',
        bin: { binned: true },
        title: 'wait from first waiting page, seconds (last bar: that or longer)',
      },
      x2: { field: 'waitBucketEnd' },
      y: { field: 'visitors', type: 'quantitative', title: 'visitors' },
    },
  };
}

export function estimateChart(f: ScenarioFigures): Spec {
  const values = f.waits.flatMap((w) =>
    (['p25', 'p50', 'p75'] as const).flatMap((k) => [
      { group: `${k} @ ${w.allowPercentage}%`, kind: 'predicted', seconds: w.predicted[k] },
      { group: `${k} @ ${w.allowPercentage}%`, kind: 'observed', seconds: w.observed[k] },
    ]),
  );
  return {
    ...base,
    title: {
      text: `${f.title}: wait percentiles`,
      subtitle: 'predicted = what the waiting page showed on arrival, by allow_percentage then',
    },
    width: { step: 36 },
    height: 200,
    data: { values: values.filter((v) => v.seconds !== null) },
    mark: 'bar',
    encoding: {
      x: { field: 'group', type: 'nominal', title: null, sort: null, axis: { labelAngle: 0 } },
      xOffset: { field: 'kind' },
      y: { field: 'seconds', type: 'quantitative', title: 'seconds' },
      color: { field: 'kind', type: 'nominal', title: null, legend: { orient: 'top' } },
    },
  };
}

export function adversaryChart(f: ScenarioFigures): Spec {
  const values = f.groups
    .filter((g) => g.ratio !== null)
    .map((g) => ({ group: g.group, ratio: g.ratio!.value, low: g.ratio!.low, high: g.ratio!.high }));
  return {
    ...base,
    title: {
      text: `${f.title}: chance of admission relative to an honest visitor`,
      subtitle: `${f.compareLabel ?? ''}; 95% intervals`,
    },
    width: 520,
    height: { step: 28 },
    layer: [
      {
        data: { values },
        mark: { type: 'rule' },
        encoding: {
          y: { field: 'group', type: 'nominal', title: null, sort: null },
          x: { field: 'low', type: 'quantitative', title: 'relative chance (1 = honest)', scale: { domain: [0, 1.6] } },
          x2: { field: 'high' },
        },
      },
      {
        data: { values },
        mark: { type: 'point', filled: true, size: 60 },
        encoding: {
          y: { field: 'group', type: 'nominal', sort: null },
          x: { field: 'ratio', type: 'quantitative' },
        },
      },
      {
        data: { values: [{ x: 1 }] },
        mark: { type: 'rule', strokeDash: [4, 3], color: '#888' },
        encoding: { x: { field: 'x', type: 'quantitative' } },
      },
    ],
  };
}

/** File name -> spec for everything one scenario contributes to the report. */
export function chartsFor(f: ScenarioFigures): Record<string, Spec> {
  const charts: Record<string, Spec> = { ...controlCharts(f), ...originCharts(f), ...eventCharts(f) };
  if (f.smoothness !== null) {
    charts[`${f.name}-admissions.svg`] = admissionsChart(f);
    charts[`${f.name}-profile.svg`] = profileChart(f);
  }
  if (f.groups.length > 0) {
    charts[`${f.name}-chances.svg`] = adversaryChart(f);
    return charts;
  }
  if (f.series.heatmap.length > 0) charts[`${f.name}-heatmap.svg`] = heatmapChart(f);
  if (f.series.waitHistogram.length > 0) charts[`${f.name}-waits.svg`] = waitHistogramChart(f);
  if (f.waits.length > 0) charts[`${f.name}-estimate.svg`] = estimateChart(f);
  return charts;
}
