// Charts of a run with an origin behind the room: its time to headers per minute against the
// objective, and the rate the controller aimed at against the origin's real capacity.
import type * as vl from 'vega-lite';
import type { ScenarioFigures } from './figures.js';
import type { OriginFigures } from './origin-figures.js';

type Spec = vl.TopLevelSpec;
const base = {
  $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
  background: 'white',
  config: { aria: false },
} as const;

/** The last minute with a forwarded request or an admission, plus one. */
const lastMinute = (o: OriginFigures): number =>
  (o.minutes.filter((m) => m.requests > 0 || m.admissions > 0).at(-1)?.minute ?? 0) + 1;

function latencyChart(f: ScenarioFigures, o: OriginFigures): Spec {
  const p = o.objective.percentile;
  const last = lastMinute(o);
  return {
    ...base,
    title: {
      text: `${f.title}: the origin's p${p} time to headers`,
      subtitle: `bars: each minute's requests (red: out of the objective, its time or its errors); line: ${o.objective.latencyMs} ms`,
    },
    width: 640,
    height: 200,
    layer: [
      {
        data: {
          values: o.minutes
            .filter((m) => m.minute < last && m.latencyMs !== null)
            .map((m) => ({
              minute: m.minute + 0.5,
              ms: m.latencyMs,
              kept: m.kept ? 'within the objective' : 'out of it',
            })),
        },
        mark: { type: 'bar', width: 8 },
        encoding: {
          x: { field: 'minute', type: 'quantitative', title: 'minute of the run', scale: { domain: [0, last + 1] } },
          y: { field: 'ms', type: 'quantitative', title: `p${p} time to headers, ms` },
          color: {
            field: 'kept',
            type: 'nominal',
            scale: { domain: ['within the objective', 'out of it'], range: ['#08519c', '#d62728'] },
            legend: { orient: 'top', title: null, labelLimit: 320 },
          },
        },
      },
      {
        data: { values: [{ ms: o.objective.latencyMs }] },
        mark: { type: 'rule', color: '#555', strokeDash: [4, 3] },
        encoding: { y: { field: 'ms', type: 'quantitative' } },
      },
    ],
  };
}

function rateChart(f: ScenarioFigures, o: OriginFigures): Spec {
  const last = lastMinute(o);
  const capacity = o.spans.flatMap((s, i) => {
    const until = (o.spans[i + 1]?.fromMs ?? last * 60_000) / 60_000;
    return [
      { minute: s.fromMs / 60_000, perMinute: s.perMinute, what: 'the origin’s capacity' },
      { minute: Math.min(until, last), perMinute: s.perMinute, what: 'the origin’s capacity' },
    ];
  });
  const aimed = o.rates
    .filter((r) => r.second / 60 <= last)
    .map((r) => ({ minute: r.second / 60, perMinute: r.rate, what: 'the rate aimed at' }));
  return {
    ...base,
    title: {
      text: `${f.title}: the rate aimed at against the capacity`,
      subtitle: 'bars: admissions in each minute; lines: new visitors a minute',
    },
    width: 640,
    height: 200,
    layer: [
      {
        data: {
          values: o.minutes
            .filter((m) => m.minute < last)
            .map((m) => ({ minute: m.minute + 0.5, admissions: m.admissions })),
        },
        mark: { type: 'bar', width: 8, color: '#c6dbef' },
        encoding: {
          x: { field: 'minute', type: 'quantitative', title: 'minute of the run', scale: { domain: [0, last + 1] } },
          y: { field: 'admissions', type: 'quantitative', title: 'new visitors a minute' },
        },
      },
      {
        data: { values: [...capacity, ...aimed] },
        mark: { type: 'line', strokeWidth: 2 },
        encoding: {
          x: { field: 'minute', type: 'quantitative', scale: { domain: [0, last + 1] } },
          y: { field: 'perMinute', type: 'quantitative' },
          color: {
            field: 'what',
            type: 'nominal',
            scale: { domain: ['the origin’s capacity', 'the rate aimed at'], range: ['#d62728', '#08519c'] },
            legend: { orient: 'top', title: null, labelLimit: 320 },
          },
        },
      },
    ],
  };
}

/** File name -> spec for a run with an origin (none for others). */
export function originCharts(f: ScenarioFigures): Record<string, Spec> {
  const o = f.origin;
  if (o === null || o === undefined) return {};
  return { [`${f.name}-origin-time.svg`]: latencyChart(f, o), [`${f.name}-origin-rate.svg`]: rateChart(f, o) };
}
