// Charts of scheduled events and first-come queues: who got in when against when they came, and the
// place in line the page showed against the number admitted before them.
import type * as vl from 'vega-lite';
import type { ScenarioFigures } from './figures.js';

type Spec = vl.TopLevelSpec;
const base = {
  $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
  background: 'white',
  config: { aria: false },
} as const;

function orderChart(f: ScenarioFigures): Spec {
  const e = f.events!;
  const start = e.startMs === null ? [] : [{ minute: e.startMs / 60_000 }];
  return {
    ...base,
    title: {
      text: `${f.title}: arrival against admission`,
      subtitle:
        e.startMs === null
          ? 'honest visitors admitted; a rising line is first come, first served'
          : 'honest visitors admitted; orange: in the pre-queue; dashed: the start',
    },
    width: 640,
    height: 260,
    layer: [
      {
        data: { values: e.series.order.map((p) => ({ ...p, who: p.prequeued ? 'pre-queue' : 'after the start' })) },
        mark: { type: 'point', filled: true, size: 8, opacity: 0.5 },
        encoding: {
          x: { field: 'arrival', type: 'quantitative', title: 'arrival, minute of the run' },
          y: { field: 'admitted', type: 'quantitative', title: 'admission, minute of the run' },
          color: {
            field: 'who',
            type: 'nominal',
            scale: { domain: ['pre-queue', 'after the start'], range: ['#e6550d', '#3182bd'] },
            legend: { orient: 'top', title: null },
          },
        },
      },
      {
        data: { values: start },
        mark: { type: 'rule', strokeDash: [4, 4], color: '#555' },
        encoding: { x: { field: 'minute', type: 'quantitative' } },
      },
    ],
  };
}

function placeChart(f: ScenarioFigures): Spec {
  const points = f.events!.series.place;
  const most = Math.max(1, ...points.map((p) => Math.max(p.shown, p.actual)));
  return {
    ...base,
    title: {
      text: `${f.title}: the place in line shown`,
      subtitle:
        'each dot a visitor: visitors ahead on their first waiting page, against visitors admitted before them; line: exact',
    },
    width: 360,
    height: 360,
    layer: [
      {
        data: { values: points },
        mark: { type: 'point', filled: true, size: 8, opacity: 0.5, color: '#3182bd' },
        encoding: {
          x: {
            field: 'actual',
            type: 'quantitative',
            title: 'admitted between that page and their admission',
            scale: { domain: [0, most] },
          },
          y: { field: 'shown', type: 'quantitative', title: 'visitors ahead, as shown', scale: { domain: [0, most] } },
        },
      },
      {
        data: {
          values: [
            { x: 0, y: 0 },
            { x: most, y: most },
          ],
        },
        mark: { type: 'line', color: '#d62728' },
        encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type: 'quantitative' } },
      },
    ],
  };
}

export function eventCharts(f: ScenarioFigures): Record<string, Spec> {
  const e = f.events;
  if (e === null) return {};
  const charts: Record<string, Spec> = {};
  if (e.series.order.length > 0) charts[`${f.name}-order.svg`] = orderChart(f);
  if (e.series.place.length > 0) charts[`${f.name}-place.svg`] = placeChart(f);
  return charts;
}
