// The report's words for the priority lanes (lane-figures.ts): each lane's waits, and each minute's
// admissions by lane against the lanes' settings.
import type { ScenarioFigures } from './figures.js';

const n0 = (x: number | null | undefined): string =>
  x === null || x === undefined ? '–' : Math.round(x).toLocaleString('en-US');
const pct = (part: number, whole: number): string => (whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)}%`);

/** The lanes' section of a scenario with lanes; nothing for the others. */
export function laneSection(f: ScenarioFigures): string[] {
  const l = f.lanes;
  if (l === null) return [];
  const ids = l.lanes.map((x) => x.lane);
  return [
    '',
    '| lane | share (setting) | visitors | admitted | gave up | wait of the admitted, median / p90 (s) |',
    '|---|---:|---:|---:|---:|---:|',
    ...l.lanes.map(
      (x) =>
        `| ${x.lane} | ${l.declared ? `${x.share}%` : 'none (no lanes)'} | ${n0(x.visitors)} | ${n0(x.admitted)} | ${n0(x.gaveUp)} | ${n0(x.waitP50)} / ${n0(x.waitP90)} |`,
    ),
    '',
    `| minute | admissions | ${ids.map((id) => `${id}: share of admissions (waiting at the minute's start)`).join(' | ')} |`,
    `|---:|---:|${ids.map(() => '---:').join('|')}|`,
    ...l.minutes
      .filter((m) => m.admissions > 0)
      .map(
        (m) =>
          `| ${m.minute} | ${n0(m.admissions)} | ${ids.map((id) => `${pct(m.byLane[id]!, m.admissions)} (${n0(m.waiting[id])})`).join(' | ')} |`,
      ),
  ];
}
