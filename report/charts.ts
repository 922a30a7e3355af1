// The report's charts as Vega-Lite specifications, rendered to SVG headlessly (sim/charts.ts toSvg):
// every time axis in times of day (UTC), every count rounded for people.
import type * as vl from 'vega-lite';
import type { ApiFigures, ReportFigures, RoomFigures } from './figures.js';

export type Spec = vl.TopLevelSpec;
type Layer = Extract<Spec, { layer: unknown }>['layer'][number];

const base = { $schema: 'https://vega.github.io/schema/vega-lite/v6.json', background: 'white', config: { aria: false, font: 'system-ui, sans-serif' } } as const;
const WIDTH = 640;
const time = (title = 'time of day (UTC)') => ({ field: 't', type: 'temporal' as const, title, scale: { type: 'utc' as const }, axis: { format: '%H:%M', labelOverlap: true } });
const count = (title: string) => ({ type: 'quantitative' as const, title, axis: { format: ',~d' } });
const legend = { orient: 'top' as const, title: null };

/** Named series of one chart, as rows `{t, series, value}` (nulls dropped). */
function rows<R extends { startMs: number }>(list: readonly R[], series: Record<string, (r: R) => number | null>): { t: number; series: string; value: number }[] {
  return list.flatMap((r) => Object.entries(series).flatMap(([name, f]) => {
    const v = f(r);
    return v === null ? [] : [{ t: r.startMs, series: name, value: v }];
  }));
}

function lines(title: string, subtitle: string, yTitle: string, data: ReturnType<typeof rows>, colors: Record<string, string>, opts: { step?: boolean; yDomain?: [number, number]; format?: string } = {}): Spec {
  const names = Object.keys(colors);
  return {
    ...base,
    title: { text: title, subtitle },
    width: WIDTH,
    height: 180,
    data: { values: data },
    mark: { type: 'line', strokeWidth: 2, interpolate: opts.step ? 'step-after' : 'linear', point: data.length < 3 },
    encoding: {
      x: time(),
      y: { field: 'value', ...count(yTitle), ...(opts.format ? { axis: { format: opts.format } } : {}), ...(opts.yDomain ? { scale: { domain: opts.yDomain } } : {}) },
      color: { field: 'series', type: 'nominal', scale: { domain: names, range: names.map((n) => colors[n]!) }, legend },
    },
  };
}

export function admissionsChart(room: RoomFigures): Spec {
  const layers: Layer[] = [
    {
      data: { values: room.minutes.map((m) => ({ t: m.startMs, admissions: m.admissions })) },
      mark: { type: 'bar', color: '#2f6fb0' },
      encoding: { x: { ...time(), timeUnit: 'utcyearmonthdatehoursminutes' }, y: { field: 'admissions', ...count('admissions in the minute') } },
    },
  ];
  const targets = room.minutes.flatMap((m) => (m.target === null ? [] : [{ t: m.startMs, target: m.target }, { t: m.startMs + 60_000, target: m.target }]));
  if (targets.length > 0) {
    layers.push({ data: { values: targets }, mark: { type: 'line', color: '#c0392b', strokeWidth: 2, strokeDash: [6, 4] }, encoding: { x: time(), y: { field: 'target', type: 'quantitative' } } });
  }
  return {
    ...base,
    title: { text: `Room ${room.id}: admissions a minute`, subtitle: targets.length > 0 ? 'bars: admitted; dashed red: the target (new_users_per_minute)' : 'bars: admitted; no target known (give --target N or a journal)' },
    width: WIDTH,
    height: 200,
    layer: layers,
  };
}

export function waitingChart(room: RoomFigures): Spec {
  return lines(`Room ${room.id}: waiting visitors a minute`, 'distinct waiting tickets seen in the minute, and the tickets drawn in it', 'visitors', rows(room.minutes, { waiting: (m) => m.waiting, drawn: (m) => m.draws }), { waiting: '#7b3fb8', drawn: '#2e8540' });
}

export function waitsChart(room: RoomFigures): Spec {
  const data = rows(room.minutes, { p50: (m) => m.p50, p90: (m) => m.p90, p99: (m) => m.p99 });
  return lines(`Room ${room.id}: waits lived, by minute of admission`, 'seconds from the first waiting page to the admission', 'seconds waited', data, { p50: '#2f6fb0', p90: '#e08214', p99: '#c0392b' });
}

export function leaversChart(room: RoomFigures): Spec {
  return {
    ...base,
    title: { text: `Room ${room.id}: leavers a minute`, subtitle: 'tickets that stopped coming before being drawn, by the minute last seen' },
    width: WIDTH,
    height: 140,
    data: { values: room.minutes.map((m) => ({ t: m.startMs, leavers: m.leavers })) },
    mark: { type: 'bar', color: '#8c6d31' },
    encoding: { x: { ...time(), timeUnit: 'utcyearmonthdatehoursminutes' }, y: { field: 'leavers', ...count('leavers') } },
  };
}

export function chanceChart(room: RoomFigures): Spec {
  const data = [
    ...room.chances.map((c) => ({ t: c.startMs, series: 'used by the draws', value: c.pct })),
    ...room.published.map((c) => ({ t: c.startMs, series: 'published (journal)', value: c.pct })),
  ];
  const colors: Record<string, string> = { 'used by the draws': '#2e8540' };
  if (room.published.length > 0) colors['published (journal)'] = '#555555';
  return lines(`Room ${room.id}: the chance of each window's draw`, 'the pct the draws used, window by window (mean over POPs); 100 = open', 'chance, %', data, colors, { step: true, yDomain: [0, 100], format: '~r' });
}

export function popChart(f: ReportFigures): Spec {
  const top = f.pops.slice(0, 8).map((p) => p.pop);
  const data = f.popMinutes.map((r) => ({ t: r.startMs, pop: top.includes(r.pop) ? r.pop : 'others', admissions: r.admissions }));
  return {
    ...base,
    title: { text: 'Admissions a minute by POP', subtitle: f.pops.length > 8 ? 'the 8 POPs with the most lines, the rest as "others"' : 'every room' },
    width: WIDTH,
    height: 180,
    data: { values: data },
    mark: { type: 'area', interpolate: 'step-after' },
    encoding: {
      x: time(),
      y: { field: 'admissions', aggregate: 'sum', ...count('admissions in the minute') },
      color: { field: 'pop', type: 'nominal', title: 'POP', legend },
    },
  };
}

export function apiChart(api: ApiFigures): Spec {
  const data = api.minutes.flatMap((m) => (['read', 'write', 'heartbeat'] as const).map((kind) => ({ t: m.startMs, kind: `${kind}s`, calls: m[kind] })));
  return {
    ...base,
    title: { text: 'API calls a minute (from the journal)', subtitle: 'stacked by kind: reads, writes, heartbeats' },
    width: WIDTH,
    height: 160,
    data: { values: data },
    mark: 'bar',
    encoding: {
      x: { ...time(), timeUnit: 'utcyearmonthdatehoursminutes' },
      y: { field: 'calls', aggregate: 'sum', ...count('calls') },
      color: { field: 'kind', type: 'nominal', scale: { domain: ['reads', 'writes', 'heartbeats'], range: ['#2f6fb0', '#c0392b', '#999999'] }, legend },
    },
  };
}

/** Every chart of the report, in page order: [id, alt text, spec]. */
export function reportCharts(f: ReportFigures): { id: string; room: string | null; spec: Spec }[] {
  const out: { id: string; room: string | null; spec: Spec }[] = [];
  for (const room of f.rooms) {
    out.push({ id: `${room.id}-admissions`, room: room.id, spec: admissionsChart(room) });
    out.push({ id: `${room.id}-waiting`, room: room.id, spec: waitingChart(room) });
    out.push({ id: `${room.id}-waits`, room: room.id, spec: waitsChart(room) });
    out.push({ id: `${room.id}-leavers`, room: room.id, spec: leaversChart(room) });
    out.push({ id: `${room.id}-chance`, room: room.id, spec: chanceChart(room) });
  }
  if (f.pops.length > 0) out.push({ id: 'pops', room: null, spec: popChart(f) });
  if (f.api !== null) out.push({ id: 'api', room: null, spec: apiChart(f.api) });
  return out;
}
