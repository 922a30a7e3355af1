// The report's charts as Vega-Lite specifications, rendered to SVG headlessly (sim/charts.ts toSvg):
// every time axis in times of day (UTC), every count rounded for people.
import type { ApiFigures, ReportFigures, RoomFigures } from './figures.js';
import { originErrorsChart, originLatencyChart, rateLayer } from './origin-charts.js';
import {
  base,
  count,
  type Frame,
  legendFor,
  type Layer,
  lines,
  minuteBars,
  rows,
  type Spec,
  time,
  titleFor,
  width,
} from './chart-parts.js';

export type { Spec } from './chart-parts.js';

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
  // In auto, new_users_per_minute is the ceiling, and the autopilot's chosen rate is drawn under it.
  const rate = rateLayer(room, f);
  if (rate !== null) layers.push(rate);
  const target = rate === null ? 'the target (new_users_per_minute)' : 'the ceiling (new_users_per_minute)';
  return {
    ...base,
    title: titleFor(
      f,
      `Room ${room.id}: admissions a minute`,
      `${targets.length > 0 ? `bars: admitted; dashed red: ${target}` : 'bars: admitted; no target known (give --target N or a journal)'}${rate === null ? '' : '; green: the rate the autopilot chose'}`,
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
    if (room.origin !== null) {
      out.push({ id: `${room.id}-origin-latency`, room: room.id, spec: originLatencyChart(room, f) });
      out.push({ id: `${room.id}-origin-errors`, room: room.id, spec: originErrorsChart(room, f) });
    }
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
