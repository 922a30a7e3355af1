// The origin's charts for a room: its time to headers at the objective's percentile and its error
// share a minute, each against the objective in force (a dashed rule, while the room was in auto),
// and the rate the autopilot chose as a layer of the admissions chart.
import { base, count, type Frame, type Layer, minuteBars, type Spec, time, titleFor, width } from './chart-parts.js';
import type { RoomFigures } from './figures.js';
import type { OriginRow } from './origin-figures.js';

const RULE = '#c0392b';
const RATE = '#2e8540';

/** A value held over each minute it is given for: a horizontal stroke from the minute's start to its end. */
function held(minutes: readonly OriginRow[], value: (r: OriginRow) => number | null): { t: number; value: number }[] {
  return minutes.flatMap((m) => {
    const v = value(m);
    return v === null
      ? []
      : [
          { t: m.startMs, value: v },
          { t: m.startMs + 60_000, value: v },
        ];
  });
}

/** The autopilot's chosen rate a minute over the admissions (null: the journal gave none). */
export function rateLayer(room: RoomFigures, f: Frame): Layer | null {
  const data = held(room.origin?.minutes ?? [], (r) => r.rate);
  if (data.length === 0) return null;
  return {
    data: { values: data },
    mark: { type: 'line', color: RATE, strokeWidth: 2.5, clip: true },
    encoding: { x: time(f), y: { field: 'value', type: 'quantitative' } },
  };
}

/** One series a minute (bars or a line) with the objective as a dashed rule over the minutes it was in force. */
function againstObjective(
  room: RoomFigures,
  f: Frame,
  opts: {
    title: string;
    subtitle: string;
    yTitle: string;
    format: string;
    value: (r: OriginRow) => number | null;
    objective: (r: OriginRow) => number | null;
    color: string;
  },
): Spec {
  const minutes = room.origin?.minutes ?? [];
  const y = count(f, opts.yTitle);
  const layers: Layer[] = [
    {
      data: { values: minutes.flatMap((m) => (opts.value(m) === null ? [] : [{ t: m.startMs, v: opts.value(m) }])) },
      mark: { type: 'bar', color: opts.color },
      encoding: { x: minuteBars(f), y: { field: 'v', ...y, axis: { ...y.axis, format: opts.format } } },
    },
  ];
  const rule = held(minutes, opts.objective);
  if (rule.length > 0)
    layers.push({
      data: { values: rule },
      mark: { type: 'line', color: RULE, strokeWidth: 2, strokeDash: [6, 4], clip: true },
      encoding: { x: time(f), y: { field: 'value', type: 'quantitative' } },
    });
  return {
    ...base,
    title: titleFor(
      f,
      opts.title,
      rule.length > 0 ? opts.subtitle : `${opts.subtitle.split(';')[0]}; no objective (room not in auto)`,
    ),
    width: width(f),
    height: 180,
    layer: layers,
  };
}

/** The percentile the room's times are read at, for the titles: one figure, or "the objective's". */
function percentileName(room: RoomFigures): string {
  const ps = new Set((room.origin?.minutes ?? []).map((r) => r.percentile));
  return ps.size === 1 ? `p${[...ps][0]}` : "the objective's percentile";
}

export function originLatencyChart(room: RoomFigures, f: Frame): Spec {
  const p = percentileName(room);
  return againstObjective(room, f, {
    title: `Room ${room.id}: the origin's time to headers, ${p}`,
    subtitle: `bars: ${p} of the requests to the origin in the minute, ms; dashed red: origin_latency_ms`,
    yTitle: `ms to headers, ${p}`,
    format: ',~d',
    value: (r) => r.latencyMs,
    objective: (r) => r.objective?.latencyMs ?? null,
    color: '#e08214',
  });
}

export function originErrorsChart(room: RoomFigures, f: Frame): Spec {
  const percent = (share: number | null): number | null => (share === null ? null : Math.round(share * 1000) / 10);
  return againstObjective(room, f, {
    title: `Room ${room.id}: the origin's errors`,
    subtitle: 'bars: requests to the origin that failed (no answer, 429, 5xx), %; dashed red: origin_error_percent',
    yTitle: 'errors, %',
    format: '~r',
    value: (r) => percent(r.errorShare),
    objective: (r) => percent(r.objective?.errorShare ?? null),
    color: '#8c6d31',
  });
}
