// Charts of a controlled scenario: admissions per minute against the target, the chance published
// for each window, active sessions against the cap, and each POP against its ceiling.
import type * as vl from 'vega-lite';
import type { ScenarioFigures } from './figures.js';

type Spec = vl.TopLevelSpec;
const base = {
  $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
  background: 'white',
  config: { aria: false },
} as const;

function targetChart(f: ScenarioFigures): Spec {
  const c = f.control!;
  const rows = c.minutes.filter((m) => m.admissions > 0 || m.fewestWaiting > 0);
  const last = (rows.at(-1)?.minute ?? 0) + 1;
  const minutes = c.minutes.filter((m) => m.minute <= last);
  return {
    ...base,
    title: {
      text: `${f.title}: admissions per minute`,
      subtitle: 'bars: admissions (dark: judged minutes); line: new_users_per_minute',
    },
    width: 640,
    height: 200,
    layer: [
      {
        data: {
          values: minutes.map((m) => ({
            minute: m.minute + 0.5,
            admissions: m.admissions,
            judged: m.judged ? 'judged' : 'not judged',
          })),
        },
        mark: { type: 'bar', width: 8 },
        encoding: {
          x: { field: 'minute', type: 'quantitative', title: 'minute of the run', scale: { domain: [0, last + 1] } },
          y: { field: 'admissions', type: 'quantitative', title: 'admissions in the minute' },
          color: {
            field: 'judged',
            type: 'nominal',
            scale: { domain: ['judged', 'not judged'], range: ['#08519c', '#9ecae1'] },
            legend: { orient: 'top', title: null },
          },
        },
      },
      {
        data: {
          values: minutes.flatMap((m) =>
            m.target === null
              ? []
              : [
                  { minute: m.minute, target: m.target },
                  { minute: m.minute + 1, target: m.target },
                ],
          ),
        },
        mark: { type: 'line', color: '#d62728', strokeWidth: 2 },
        encoding: { x: { field: 'minute', type: 'quantitative' }, y: { field: 'target', type: 'quantitative' } },
      },
    ],
  };
}

function chanceChart(f: ScenarioFigures): Spec {
  const c = f.control!;
  const last = (c.minutes.filter((m) => m.admissions > 0 || m.fewestWaiting > 0).at(-1)?.minute ?? 0) + 2;
  return {
    ...base,
    title: { text: `${f.title}: the chance of each window's draws`, subtitle: 'as the largest POP had it; 100 = open' },
    width: 640,
    height: 140,
    data: { values: c.series.chances.filter((p) => p.minute <= last) },
    mark: { type: 'line', interpolate: 'step-after', color: '#31a354' },
    encoding: {
      x: { field: 'minute', type: 'quantitative', title: 'minute of the run' },
      y: { field: 'pct', type: 'quantitative', title: 'chance, %', scale: { domain: [0, 100] } },
    },
  };
}

function activeChart(f: ScenarioFigures): Spec {
  const c = f.control!;
  return {
    ...base,
    title: {
      text: `${f.title}: active sessions`,
      subtitle: `admitted visitors until ${c.active.sessionMinutes} minutes after their last request; red: total_active_users`,
    },
    width: 640,
    height: 160,
    layer: [
      {
        data: { values: c.series.active.map((p) => ({ minute: p.second / 60, active: p.active })) },
        mark: { type: 'line', color: '#08519c' },
        encoding: {
          x: { field: 'minute', type: 'quantitative', title: 'minute of the run' },
          y: { field: 'active', type: 'quantitative', title: 'active sessions' },
        },
      },
      {
        data: { values: [{ cap: c.active.cap }] },
        mark: { type: 'rule', color: '#d62728', strokeDash: [4, 3] },
        encoding: { y: { field: 'cap', type: 'quantitative' } },
      },
    ],
  };
}

function ceilingChart(f: ScenarioFigures): Spec {
  const c = f.control!;
  const stop = c.stoppedAtMs === null ? [] : [{ minute: c.stoppedAtMs / 60_000, label: 'controller stops' }];
  return {
    ...base,
    title: {
      text: `${f.title}: admissions per 10 s at each POP`,
      subtitle: 'red: the ceiling (pop_admissions_per_second x 10)',
    },
    width: 640,
    height: 200,
    layer: [
      {
        data: {
          values: c.series.popTenSeconds.map((p) => ({ minute: p.second / 60, pop: p.pop, admissions: p.admissions })),
        },
        mark: { type: 'line', strokeWidth: 1 },
        encoding: {
          x: { field: 'minute', type: 'quantitative', title: 'minute of the run' },
          y: { field: 'admissions', type: 'quantitative', title: 'admissions in 10 s' },
          color: { field: 'pop', type: 'nominal', legend: { orient: 'top', title: null } },
        },
      },
      {
        data: { values: [{ limit: c.ceiling!.limit10s }] },
        mark: { type: 'rule', color: '#d62728', strokeDash: [4, 3] },
        encoding: { y: { field: 'limit', type: 'quantitative' } },
      },
      {
        data: { values: stop },
        mark: { type: 'rule', color: '#555', strokeDash: [2, 2] },
        encoding: { x: { field: 'minute', type: 'quantitative' } },
      },
    ],
  };
}

/** File name -> spec for a controlled scenario's own charts (none for others). */
export function controlCharts(f: ScenarioFigures): Record<string, Spec> {
  if (f.control === null) return {};
  const charts: Record<string, Spec> = {
    [`${f.name}-target.svg`]: targetChart(f),
    [`${f.name}-chance.svg`]: chanceChart(f),
  };
  if (f.control.active.cap !== null) charts[`${f.name}-active.svg`] = activeChart(f);
  if (f.control.ceiling !== null) charts[`${f.name}-ceiling.svg`] = ceilingChart(f);
  return charts;
}
