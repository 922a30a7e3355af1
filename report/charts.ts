// The report's charts as Vega-Lite specifications, rendered to SVG headlessly (sim/charts.ts toSvg):
// every time axis in times of day (UTC), every count rounded for people.
import type * as vl from 'vega-lite';
import type { ApiFigures, ReportFigures, RoomFigures } from './figures.js';

export type Spec = vl.TopLevelSpec;
type Layer = Extract<Spec, { layer: unknown }>['layer'][number];

const base = {
  $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
  background: 'white',
  config: { aria: false, font: 'system-ui, sans-serif' },
} as const;

/**
 * How a chart is drawn: its time range (every chart the same: the log's first minute to the end of its
 * last) and its width. The page carries each chart twice, wide for a desktop and narrow for a phone,
 * where the wide one scaled down to 375 px would leave its labels about 5 px high.
 */
export interface Frame {
  fromMs: number;
  toMs: number;
  narrow: boolean;
}

const width = (f: Frame): number => (f.narrow ? 320 : 640);
/** Minutes between time ticks: the fewest steps that keep them at most 8 (4 narrow) and on whole minutes. */
const STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440];

/** The time axis's ticks, at whole minutes: one label each, never the same label twice. */
export function timeTicks(f: Frame): number[] {
  const minutes = Math.max(1, (f.toMs - f.fromMs) / 60_000);
  const most = f.narrow ? 4 : 8;
  const step = (STEPS.find((s) => minutes / s <= most) ?? 1440) * 60_000;
  const out: number[] = [];
  for (let t = Math.ceil(f.fromMs / step) * step; t <= f.toMs; t += step) out.push(t);
  return out;
}

function time(f: Frame, title = 'time of day (UTC)') {
  const font = f.narrow ? { labelFontSize: 13, titleFontSize: 13 } : {};
  return {
    field: 't',
    type: 'temporal' as const,
    title,
    scale: { type: 'utc' as const, domain: [f.fromMs, f.toMs] },
    axis: { format: '%H:%M', values: timeTicks(f), labelOverlap: true, ...font },
  };
}
function count(f: Frame, title: string) {
  const font = f.narrow ? { labelFontSize: 13, titleFontSize: 13 } : {};
  return { type: 'quantitative' as const, title, axis: { format: ',~d', ...font } };
}
const legendFor = (f: Frame) => ({ orient: 'top' as const, title: null, ...(f.narrow ? { labelFontSize: 13 } : {}) });
/** Words into lines of at most `chars` characters (a narrow chart's title would otherwise widen it). */
function wrap(text: string, chars: number): string[] {
  const out: string[] = [];
  for (const word of text.split(' ')) {
    const last = out.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= chars) out[out.length - 1] = `${last} ${word}`;
    else out.push(word);
  }
  return out;
}
const titleFor = (f: Frame, text: string, subtitle: string) =>
  f.narrow
    ? { text: wrap(text, 34), subtitle: wrap(subtitle, 44), fontSize: 15, subtitleFontSize: 12.5 }
    : { text, subtitle };
/** Bars a minute wide, from the minute's start. */
const minuteBars = (f: Frame) => ({ ...time(f), timeUnit: 'utcyearmonthdatehoursminutes' as const });

/** Named series of one chart, as rows `{t, series, value}` (nulls dropped). */
function rows<R extends { startMs: number }>(
  list: readonly R[],
  series: Record<string, (r: R) => number | null>,
): { t: number; series: string; value: number }[] {
  return list.flatMap((r) =>
    Object.entries(series).flatMap(([name, f]) => {
      const v = f(r);
      return v === null ? [] : [{ t: r.startMs, series: name, value: v }];
    }),
  );
}

function lines(
  f: Frame,
  title: string,
  subtitle: string,
  yTitle: string,
  data: ReturnType<typeof rows>,
  colors: Record<string, string>,
  opts: { step?: boolean; yDomain?: [number, number]; format?: string } = {},
): Spec {
  const names = Object.keys(colors);
  const y = count(f, yTitle);
  return {
    ...base,
    title: titleFor(f, title, subtitle),
    width: width(f),
    height: 180,
    data: { values: data },
    // Clipped to the shared time range: a schedule published ahead of the log's end stops at it.
    mark: {
      type: 'line',
      strokeWidth: 2,
      interpolate: opts.step ? 'step-after' : 'linear',
      point: data.length < 3,
      clip: true,
    },
    encoding: {
      x: time(f),
      y: {
        field: 'value',
        ...y,
        ...(opts.format ? { axis: { ...y.axis, format: opts.format } } : {}),
        ...(opts.yDomain ? { scale: { domain: opts.yDomain } } : {}),
      },
      color: {
        field: 'series',
        type: 'nominal',
        scale: { domain: names, range: names.map((n) => colors[n]!) },
        legend: legendFor(f),
      },
    },
  };
}

export function admissionsChart(room: RoomFigures, f: Frame): Spec {
  const layers: Layer[] = [
    {
      data: { values: room.minutes.map((m) => ({ t: m.startMs, admissions: m.admissions })) },
      mark: { type: 'bar', color: '#2f6fb0' },
      encoding: { x: minuteBars(f), y: { field: 'admissions', ...count(f, 'admissions in the minute') } },
    },
  ];
  const targets = room.minutes.flatMap((m) =>
    m.target === null
      ? []
      : [
          { t: m.startMs, target: m.target },
          { t: m.startMs + 60_000, target: m.target },
        ],
  );
  if (targets.length > 0) {
    layers.push({
      data: { values: targets },
      mark: { type: 'line', color: '#c0392b', strokeWidth: 2, strokeDash: [6, 4] },
      encoding: { x: time(f), y: { field: 'target', type: 'quantitative' } },
    });
  }
  return {
    ...base,
    title: titleFor(
      f,
      `Room ${room.id}: admissions a minute`,
      targets.length > 0
        ? 'bars: admitted; dashed red: the target (new_users_per_minute)'
        : 'bars: admitted; no target known (give --target N or a journal)',
    ),
    width: width(f),
    height: 200,
    layer: layers,
  };
}

export function waitingChart(room: RoomFigures, f: Frame): Spec {
  return lines(
    f,
    `Room ${room.id}: waiting visitors a minute`,
    'visitors waiting for one draw, the most in the minute; and the draws in the minute (one a visitor a window)',
    'visitors',
    rows(room.minutes, { waiting: (m) => m.waiting, draws: (m) => m.draws }),
    { waiting: '#7b3fb8', draws: '#2e8540' },
  );
}

export function waitsChart(room: RoomFigures, f: Frame): Spec {
  const data = rows(room.minutes, { p50: (m) => m.p50, p90: (m) => m.p90, p99: (m) => m.p99 });
  return lines(
    f,
    `Room ${room.id}: waits lived, by minute of admission`,
    'seconds from the first waiting page to the admission',
    'seconds waited',
    data,
    { p50: '#2f6fb0', p90: '#e08214', p99: '#c0392b' },
  );
}

export function leaversChart(room: RoomFigures, f: Frame): Spec {
  return {
    ...base,
    title: titleFor(
      f,
      `Room ${room.id}: leavers a minute`,
      'tickets that stopped coming before being drawn, by the minute last seen',
    ),
    width: width(f),
    height: 140,
    data: { values: room.minutes.map((m) => ({ t: m.startMs, leavers: m.leavers })) },
    mark: { type: 'bar', color: '#8c6d31' },
    encoding: { x: minuteBars(f), y: { field: 'leavers', ...count(f, 'leavers') } },
  };
}

export function chanceChart(room: RoomFigures, f: Frame): Spec {
  const data = [
    ...room.chances.map((c) => ({ t: c.startMs, series: 'used by the draws', value: c.pct })),
    ...room.published.map((c) => ({ t: c.startMs, series: 'published (journal)', value: c.pct })),
  ];
  const colors: Record<string, string> = { 'used by the draws': '#2e8540' };
  if (room.published.length > 0) colors['published (journal)'] = '#555555';
  return lines(
    f,
    `Room ${room.id}: the chance of each window's draw`,
    'the pct the draws used, window by window (mean over POPs); 100 = open',
    'chance, %',
    data,
    colors,
    { step: true, yDomain: [0, 100], format: '~r' },
  );
}

export function popChart(r: ReportFigures, f: Frame): Spec {
  const top = r.pops.slice(0, 8).map((p) => p.pop);
  const data = r.popMinutes.map((m) => ({
    t: m.startMs,
    pop: top.includes(m.pop) ? m.pop : 'others',
    admissions: m.admissions,
  }));
  return {
    ...base,
    title: titleFor(
      f,
      'Admissions a minute by POP',
      r.pops.length > 8 ? 'the 8 POPs with the most lines, the rest as "others"' : 'every room',
    ),
    width: width(f),
    height: 180,
    data: { values: data },
    // Stacked bars a minute wide, as the room's admissions: the last minute is one too.
    mark: 'bar',
    encoding: {
      x: minuteBars(f),
      y: { field: 'admissions', aggregate: 'sum', ...count(f, 'admissions in the minute') },
      color: { field: 'pop', type: 'nominal', title: 'POP', legend: legendFor(f) },
    },
  };
}

export function apiChart(api: ApiFigures, f: Frame): Spec {
  const data = api.minutes.flatMap((m) =>
    (['read', 'write', 'heartbeat'] as const).map((kind) => ({ t: m.startMs, kind: `${kind}s`, calls: m[kind] })),
  );
  return {
    ...base,
    title: titleFor(f, 'API calls a minute (from the journal)', 'stacked by kind: reads, writes, heartbeats'),
    width: width(f),
    height: 160,
    data: { values: data },
    mark: 'bar',
    encoding: {
      x: minuteBars(f),
      y: { field: 'calls', aggregate: 'sum', ...count(f, 'calls') },
      color: {
        field: 'kind',
        type: 'nominal',
        scale: { domain: ['reads', 'writes', 'heartbeats'], range: ['#2f6fb0', '#c0392b', '#999999'] },
        legend: legendFor(f),
      },
    },
  };
}

/** The log's time range: its first minute to the end of its last (the API chart: the journal's). */
function frameOf(fromMs: number | null, toMs: number | null, narrow: boolean): Frame {
  const from = Math.floor((fromMs ?? 0) / 60_000) * 60_000;
  return { fromMs: from, toMs: Math.floor((toMs ?? from) / 60_000) * 60_000 + 60_000, narrow };
}

/** Every chart of the report, in page order, drawn wide or narrow. */
export function reportCharts(
  r: ReportFigures,
  options: { narrow: boolean },
): { id: string; room: string | null; spec: Spec }[] {
  const f = frameOf(r.fromMs, r.toMs, options.narrow);
  const out: { id: string; room: string | null; spec: Spec }[] = [];
  for (const room of r.rooms) {
    out.push({ id: `${room.id}-admissions`, room: room.id, spec: admissionsChart(room, f) });
    out.push({ id: `${room.id}-waiting`, room: room.id, spec: waitingChart(room, f) });
    out.push({ id: `${room.id}-waits`, room: room.id, spec: waitsChart(room, f) });
    out.push({ id: `${room.id}-leavers`, room: room.id, spec: leaversChart(room, f) });
    out.push({ id: `${room.id}-chance`, room: room.id, spec: chanceChart(room, f) });
  }
  if (r.pops.length > 0) out.push({ id: 'pops', room: null, spec: popChart(r, f) });
  if (r.api !== null)
    out.push({
      id: 'api',
      room: null,
      spec: apiChart(
        r.api,
        frameOf(r.api.minutes[0]?.startMs ?? r.fromMs, r.api.minutes.at(-1)?.startMs ?? r.toMs, options.narrow),
      ),
    });
  return out;
}
