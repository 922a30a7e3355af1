// The words and the table of a room's origin on the report's page: what the requests sent to the
// origin took and how many failed, against the autopilot's objective when the room was in auto, and the
// rate it chose beside the admissions. The page (page.ts) draws them with its own figure and table.
import type { RoomFigures } from './figures.js';
import type { OriginRow } from './origin-figures.js';

export interface OriginText {
  summary: string;
  latencyCaption: string;
  errorsCaption: string;
  table: { caption: string; head: string[]; rows: string[][] };
}

const num = (n: number): string => Math.round(n).toLocaleString('en-GB');
const hhmm = (ms: number): string => new Date(ms).toISOString().slice(11, 16);
/** A share as people read it: 0.4%, 12%, 0% (one decimal below 10%). */
export const share = (s: number | null): string =>
  s === null ? '–' : `${s * 100 < 10 ? Number((s * 100).toFixed(1)) : Math.round(s * 100)}%`;
const ms = (v: number | null): string => (v === null ? '–' : `${num(v)} ms`);

function objectiveText(r: OriginRow): string {
  const o = r.objective!;
  return `p${o.percentile} within ${num(o.latencyMs)} ms, errors within ${share(o.errorShare)}`;
}

/** The range of a figure over the minutes: "45 to 1,200 ms", or one figure. */
function range(values: number[], unit: (v: number) => string): string {
  if (values.length === 0) return 'none';
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return lo === hi ? unit(lo) : `${unit(lo).replace(/ ms$/, '')} to ${unit(hi)}`;
}

function summary(room: RoomFigures): string {
  const o = room.origin!;
  const t = o.totals;
  const rows = o.minutes.filter((r) => r.requests > 0);
  if (t.requests === 0)
    return 'The origin: no request in this log says what the origin took (its lines come from before the room logged originMs and originStatus).';
  const p =
    new Set(o.minutes.map((r) => r.percentile)).size === 1 ? `p${o.minutes[0]!.percentile}` : 'at the percentile';
  const head = `The origin: ${num(t.requests)} requests, ${share(t.errors / t.requests)} errors; ${p} a minute ${range(
    rows.flatMap((r) => (r.latencyMs === null ? [] : [r.latencyMs])),
    (v) => ms(v),
  )}`;
  if (!o.auto) return `${head}; not in auto by the journal, so no objective to hold it to.`;
  const last = [...o.minutes].reverse().find((r) => r.objective !== null);
  const rates = o.minutes.flatMap((r) => (r.rate === null ? [] : [r.rate]));
  const lastRate = [...o.minutes].reverse().find((r) => r.rate !== null);
  const ratePart =
    rates.length === 0
      ? ''
      : `; the autopilot chose ${range(rates, num)} new visitors a minute (last ${num(lastRate!.rate!)}${lastRate!.state ? `, ${lastRate!.state}` : ''})`;
  return `${head}. In auto${last ? ` (objective: ${objectiveText(last)})` : ''}: ${num(t.held)} of ${num(t.judged)} minutes with requests held the objective${ratePart}.`;
}

export function originText(room: RoomFigures): OriginText | null {
  const o = room.origin;
  if (o === null) return null;
  const rows = o.minutes.map((r, i) => [
    hhmm(r.startMs),
    num(room.minutes[i]?.admissions ?? 0),
    r.rate === null ? '–' : num(r.rate),
    r.state ?? '–',
    num(r.requests),
    `${ms(r.latencyMs)}${r.percentile === 90 ? '' : ` (p${r.percentile})`}`,
    r.objective === null ? '–' : ms(r.objective.latencyMs),
    num(r.errors),
    share(r.errorShare),
    r.objective === null ? '–' : share(r.objective.errorShare),
    r.held === null ? '–' : r.held ? 'yes' : 'no',
  ]);
  return {
    summary: summary(room),
    latencyCaption:
      "The origin's time to headers in each minute at the objective's percentile (90 unless the journal says otherwise), from the decision lines' originMs, against the objective while the room was in auto (dashed).",
    errorsCaption:
      'The share of the requests sent to the origin in each minute that failed (no answer, 429, 500 and above), from originStatus, against the objective while the room was in auto (dashed).',
    table: {
      caption: `Room ${room.id}: the origin, minute by minute`,
      head: [
        'minute (UTC)',
        'admitted',
        'rate chosen',
        'autopilot',
        'to the origin',
        'time p90',
        'objective',
        'errors',
        'error share',
        'objective',
        'held',
      ],
      rows,
    },
  };
}
