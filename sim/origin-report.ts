// The report's words for a run with an origin behind the room: its capacity, how the room found and
// held it, the minutes the origin broke its objective, each event's recovery, and the clairvoyant
// operator's admissions beside the room's.
import type { ScenarioFigures } from './figures.js';
import type { OriginEventFigure, OriginFigures } from './origin-figures.js';

const n0 = (x: number | null | undefined): string =>
  x === null || x === undefined ? '–' : Math.round(x).toLocaleString('en-US');
const pct = (x: number | null | undefined): string =>
  x === null || x === undefined ? '–' : `${(100 * x).toFixed(1)}%`;
const minutes = (x: number | null): string => (x === null ? 'never' : `${x} min`);

const eventWords: Record<OriginEventFigure['kind'], string> = {
  workers: 'workers lost',
  slow: 'a slow dependency',
  storm: 'an error storm',
};

function eventText(e: OriginEventFigure): string {
  const span = e.untilMinute === null ? `from minute ${e.fromMinute}` : `minutes ${e.fromMinute} to ${e.untilMinute}`;
  return `${eventWords[e.kind]} (${span}, capacity ${n0(e.capacity)}): back within the objective after ${minutes(e.objectiveMinutes)}, admissions at the capacity after ${minutes(e.admissionsMinutes)}`;
}

/** One row per scenario with an origin for the report's summary table. */
export function originHeadline(all: readonly ScenarioFigures[]): string {
  const rows = all.flatMap((f) => {
    const o = f.origin;
    // A room's figures inside a report of several, written before the origin was, have none at all.
    if (o === null || o === undefined) return [];
    return [
      `| ${f.name} | ${o.spans.map((s) => n0(s.perMinute)).join(' → ')} | ${minutes(o.reachMinutes)} | ${o.breachMinutes} of ${o.minutesWithRequests} | ${pct(o.requests === 0 ? null : o.errors / o.requests)} | ${n0(o.admitted)} / ${n0(o.clairvoyantAdmitted)} (${o.ratio === null ? '–' : o.ratio.toFixed(2)}) | ${o.events.map(eventText).join('; ') || '–'} |`,
    ];
  });
  if (rows.length === 0) return '';
  return [
    'Scenarios with an origin behind the room (its capacity is the simulator’s; figures are explained in each section):',
    '',
    '| scenario | capacity, new visitors a minute | at the capacity after | minutes out of the objective | errors | admitted / clairvoyant operator (ratio) | events |',
    '|---|---:|---:|---:|---:|---:|---|',
    ...rows,
  ].join('\n');
}

function minutesTable(o: OriginFigures): string {
  const p = o.objective.percentile;
  return [
    `| minute | requests | p${p} time, ms | errors | within the objective | admissions | capacity | rate aimed at | at the capacity | clairvoyant operator: admissions, within the objective |`,
    '|---:|---:|---:|---:|:---:|---:|---:|---:|:---:|---:|',
    ...o.minutes
      .filter((m) => m.requests > 0 || m.admissions > 0)
      .map(
        (m) =>
          `| ${m.minute} | ${n0(m.requests)} | ${n0(m.latencyMs)} | ${pct(m.errorShare)} | ${m.kept ? 'yes' : '**no**'} | ${n0(m.admissions)} | ${n0(m.capacity)} | ${n0(m.rate)} | ${m.atCapacity ? 'yes' : m.fillable ? '' : '(queue short)'} | ${m.clairvoyantAdmissions === null ? '–' : `${n0(m.clairvoyantAdmissions)}, ${m.clairvoyantKept ? 'yes' : '**no**'}`} |`,
      ),
  ].join('\n');
}

export function originSection(f: ScenarioFigures): string[] {
  const o = f.origin;
  if (o === null || o === undefined) return [];
  const s = o.spec;
  const j = o.objective;
  return [
    `- The origin (the simulator’s, never told to the controller): ${s.workers} workers, a mean of ${s.serviceMs} ms a request (log-normal, sigma ${s.serviceSigma}), first come first served; a request that would wait over ${s.shedAfterMs / 1000} s is shed (503 at once), one unanswered after ${s.timeoutMs / 1000} s is a timeout. The objective: ${j.latencyMs} ms at the ${j.percentile}th percentile, ${pct(j.errorShare)} errors.`,
    `- Its capacity (the highest steady rate of new visitors a minute at which 90% of the minutes keep the objective, the origin alone fed this crowd’s browsing): ${o.spans.map((x) => `${n0(x.perMinute)} from minute ${x.fromMs / 60_000} (${x.label})`).join(', ')}.`,
    `- At the capacity (three minutes in a row within ±10% of it, each with enough waiting to fill it) from minute ${o.reachMinutes ?? '– (never)'}. ${n0(o.requests)} requests forwarded, ${n0(o.errors)} errors (${pct(o.requests === 0 ? null : o.errors / o.requests)}); ${o.breachMinutes} of ${o.minutesWithRequests} minutes out of the objective.`,
    ...o.events.map(
      (e) => `- Event: ${eventText(e)} (two minutes in a row within the objective; three at the capacity in force).`,
    ),
    `- Admitted over the run: ${n0(o.admitted)}, against ${n0(o.clairvoyantAdmitted)} by a clairvoyant operator (the same crowd and seed, manual, new_users_per_minute at the capacity in force, changed at each event)${o.ratio === null ? '' : `: ${o.ratio.toFixed(2)} of it; the clairvoyant operator's origin was out of the objective ${o.clairvoyantBreachMinutes} minutes`}.`,
    '',
    minutesTable(o),
  ];
}
