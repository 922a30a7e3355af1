// The report's words for a controlled scenario: the controller's figures against the targets.
import type { ControlFigures } from './control-figures.js';
import type { ScenarioFigures } from './figures.js';

const n0 = (x: number | null | undefined): string =>
  x === null || x === undefined ? '–' : Math.round(x).toLocaleString('en-US');
const n2 = (x: number | null | undefined): string => (x === null || x === undefined ? '–' : x.toFixed(2));
const signed = (x: number | null): string => (x === null ? '–' : `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`);

/** One row per controlled scenario for the report's summary table. */
export function controlHeadline(all: readonly ScenarioFigures[]): string {
  const rows = all.flatMap((f) => {
    const c = f.control;
    if (c === null) return [];
    const w = f.waits[0];
    return [
      `| ${f.name} | ${c.judged === 0 ? '–' : `${c.withinTenPercent} of ${c.judged}`} | ${signed(c.worstError)} | ${c.busiest ? `${n2(c.busiest.ratio)}x (limit ${n2(c.busiest.limit)}x)` : '–'} | ${c.active.ratio === null ? '–' : `${n0(c.active.max)} of ${n0(c.active.cap)} (${signed(c.active.ratio - 1)})`} | ${c.ceiling ? `${c.ceiling.worst10s} of ${c.ceiling.limit10s}; ${c.ceiling.lostWins} of ${n0(c.ceiling.heldWinners)} held wins lost` : '–'} | ${w ? `${n0(w.observed.p50)} / ${n0(w.predicted.p50)} (${signed(w.medianError)})` : '–'} | ${n0(c.writesPerHour)} |`,
    ];
  });
  if (rows.length === 0) return '';
  return [
    'Controlled scenarios (the controller holds `new_users_per_minute`; figures are explained in each section):',
    '',
    "| scenario | judged minutes within ±10% of the target | worst judged minute | busiest 10 s over the target's share | most active sessions against the cap | busiest 10 s of the worst POP against its ceiling | median wait observed / predicted (s) | writes an hour |",
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
}

function minutesTable(c: ControlFigures): string {
  return [
    '| minute | target | admissions | off by | fewest waiting | waiting, as the controller saw it | judged |',
    '|---:|---:|---:|---:|---:|---:|:---:|',
    ...c.minutes
      .filter((m) => m.admissions > 0 || m.fewestWaiting > 0)
      .map(
        (m) =>
          `| ${m.minute} | ${n0(m.target)} | ${n0(m.admissions)} | ${signed(m.error)} | ${n0(m.fewestWaiting)} | ${n0(m.controllerWaiting)} | ${m.judged ? 'yes' : ''} |`,
      ),
  ].join('\n');
}

export function controlSection(f: ScenarioFigures): string[] {
  const c = f.control;
  if (c === null) return [];
  const lines: string[] = [];
  lines.push(
    `- POPs: ${c.pops.map((p) => `${p.name} ${(100 * p.share).toFixed(0)}% of visitors, sees a write after ${(p.propagationMs / 1000).toFixed(1)} s, logs ${(p.logDelayMs / 1000).toFixed(1)} s late`).join('; ')}.`,
    `- The controller: ${n0(c.linesDelivered)} decision lines read (${c.badLines} bad), ${c.writes} writes (${n0(c.writesPerHour)} an hour)${c.stoppedAtMs === null ? '' : `, stopped at minute ${c.stoppedAtMs / 60_000}`}.`,
  );
  if (c.queueStartSecond !== null) {
    lines.push(
      `- The queue formed at second ${c.queueStartSecond}. Judged minutes start two minutes later (and two minutes after a change of target, or after a scheduled event's last pre-queued visitor got in and the draw took over) and need at least a window's share of the target waiting at every second who could be let in (the simulator's count; latecomers held behind a pre-queue are not), so that the target could be met: ${c.judged} judged, ${c.withinTenPercent} within ±10%, the worst ${signed(c.worstError)}.`,
    );
  }
  if (c.busiest) {
    const b = c.busiest;
    lines.push(
      `- Busiest 10 seconds of the judged minutes: ${b.count} admissions at second ${b.atSecond}, ${n2(b.ratio)}x the target's 10-second share of ${n2(b.share)}. A Poisson process at exactly the target rate has a busiest 10 s of ${n2(b.poissonRatio99)}x the share or less in 99 of 100 runs over the same seconds, so the figure is held to ${n2(b.limit)}x (1.3x, or that bound where chance alone goes higher).`,
    );
  }
  const a = c.active;
  lines.push(
    a.cap === null
      ? `- Active sessions (admitted, until ${a.sessionMinutes} minutes after their last request): at most ${n0(a.max)} (second ${a.atSecond}); no cap set.`
      : `- Active sessions (admitted, until ${a.sessionMinutes} minutes after their last request): at most ${n0(a.max)} at second ${a.atSecond}, against total_active_users ${n0(a.cap)}: ${signed(a.ratio! - 1)}.`,
  );
  if (c.ceiling) {
    const g = c.ceiling;
    lines.push(
      `- Ceiling ${g.perSecond} admissions a second per POP (${g.limit10s} over 10 s): the busiest POP, ${g.worstPop}, admitted at most ${g.worst10s} in any 10 s. ${n0(g.heldWinners)} visitors won a draw and were held back by the ceiling at least once; ${g.lostWins} of them were never admitted. The simulator's rate counter is exact; Fastly's estimates, so on Fastly a POP can pass its ceiling by that counter's error.`,
    );
  }
  lines.push('', minutesTable(c));
  return lines;
}
