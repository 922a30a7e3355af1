// What every chart of the report is made of: its frame (one time range for all, wide or narrow), the
// time axis in times of day (UTC), counts rounded for people, titles that wrap on a phone, and a
// chart of named lines.
import type * as vl from 'vega-lite';

export type Spec = vl.TopLevelSpec;
export type Layer = Extract<Spec, { layer: unknown }>['layer'][number];

export const base = {
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

export const width = (f: Frame): number => (f.narrow ? 320 : 640);
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

export function time(f: Frame, title = 'time of day (UTC)') {
  const font = f.narrow ? { labelFontSize: 13, titleFontSize: 13 } : {};
  return {
    field: 't',
    type: 'temporal' as const,
    title,
    scale: { type: 'utc' as const, domain: [f.fromMs, f.toMs] },
    axis: { format: '%H:%M', values: timeTicks(f), labelOverlap: true, ...font },
  };
}
export function count(f: Frame, title: string) {
  const font = f.narrow ? { labelFontSize: 13, titleFontSize: 13 } : {};
  return { type: 'quantitative' as const, title, axis: { format: ',~d', ...font } };
}
export const legendFor = (f: Frame) => ({
  orient: 'top' as const,
  title: null,
  ...(f.narrow ? { labelFontSize: 13 } : {}),
});
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
export const titleFor = (f: Frame, text: string, subtitle: string) =>
  f.narrow
    ? { text: wrap(text, 34), subtitle: wrap(subtitle, 44), fontSize: 15, subtitleFontSize: 12.5 }
    : { text, subtitle };
/** Bars a minute wide, from the minute's start. */
export const minuteBars = (f: Frame) => ({ ...time(f), timeUnit: 'utcyearmonthdatehoursminutes' as const });

/** Named series of one chart, as rows `{t, series, value}` (nulls dropped). */
export function rows<R extends { startMs: number }>(
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

export function lines(
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
