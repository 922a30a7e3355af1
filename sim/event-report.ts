// The report's words for scheduled events and first-come queues: the figures of event-figures.ts
// against what docs/events.md promises.
import type { EventFigures, GroupGain } from './event-figures.js';
import type { ScenarioFigures } from './figures.js';

const n0 = (x: number | null | undefined): string =>
  x === null || x === undefined ? '–' : Math.round(x).toLocaleString('en-US');
const n2 = (x: number | null | undefined): string => (x === null || x === undefined ? '–' : x.toFixed(2));
const pct = (x: number | null | undefined): string =>
  x === null || x === undefined ? '–' : `${(100 * x).toFixed(1)}%`;
const signed = (x: number | null): string => (x === null ? '–' : `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`);

const label: Record<string, string> = {
  honest: 'honest visitor',
  devices5: '5 devices behind one identity',
  twojars: 'two cookie jars used in turn',
  refresher: 'refreshes every second',
  clearer: 'clears cookies before every visit',
  sharer: 'hands its pre-queue token to a friend at the start',
};

/** One row per event scenario for the report's summary table. */
export function eventHeadline(all: readonly ScenarioFigures[]): string {
  const rows = all.flatMap((f) => {
    const e = f.events;
    if (e === null) return [];
    const p = e.prequeue;
    const q = e.fifo;
    return [
      `| ${f.name} | ${p ? n2(p.spearman) : '–'} | ${p ? `${p.latecomersBefore} of ${n0(p.latecomersAdmitted)}` : '–'} | ${p ? `${p.replayed.admitted} of ${p.replayed.tried}` : '–'} | ${q ? n2(q.spearman) : '–'} | ${q ? `${n2(q.place.medianRatio)} (${pct(q.place.withinTenPercent)} within ±10%)` : '–'} | ${q ? `${n0(q.place.promisedMedian)} / ${n0(q.place.livedMedian)} (${signed(q.place.turnError)})` : '–'} |`,
    ];
  });
  if (rows.length === 0) return '';
  return [
    'Scheduled events and the first-come queue ([docs/events.md](../events.md)):',
    '',
    '| scenario | pre-queue: Spearman arrival vs admission (0 = no head start) | latecomers admitted before the last pre-queued visitor | pre-queue tokens replayed by another identity, let in | fifo: Spearman arrival vs admission | place shown / admitted before them, median | turn promised / lived, median (s) |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
}

function gainsTable(groups: readonly GroupGain[], due: string): string {
  const ci = (g: GroupGain) =>
    g.gain === null ? '–' : `${signed(g.gain.value)} (${signed(g.gain.low)} to ${signed(g.gain.high)})`;
  return [
    `| who | visitors | admitted | got in ahead of ${due}, share of the queue (95% CI) |`,
    '|---|---:|---:|---:|',
    ...groups.map((g) => `| ${label[g.group] ?? g.group} | ${n0(g.actors)} | ${n0(g.admitted)} | ${ci(g)} |`),
  ].join('\n');
}

export function eventSection(f: ScenarioFigures): string[] {
  const e: EventFigures | null = f.events;
  if (e === null) return [];
  const lines: string[] = [];
  const p = e.prequeue;
  if (p !== null) {
    lines.push(
      `- Pre-queue: ${n0(p.visitors)} honest visitors saw the countdown, ${n0(p.admitted)} were admitted. Spearman correlation of their arrival time and admission order: ${n2(p.spearman)} (0: arriving early bought nothing).`,
      `- The last of them got in at minute ${p.lastAdmissionMs === null ? '–' : (p.lastAdmissionMs / 60_000).toFixed(1)}; of ${n0(p.latecomersAdmitted)} visitors who arrived after the start and were admitted, ${p.latecomersBefore} got in before that.`,
      `- Pre-queue tokens handed to another identity after the start: ${p.replayed.tried} tried, ${p.replayed.admitted} let in on them.`,
      '',
      gainsTable(p.groups, 'the place the seed drew for them'),
      '',
    );
  }
  const q = e.fifo;
  if (q !== null) {
    const pl = q.place;
    lines.push(
      `- First come, first served: ${n0(q.admitted)} honest visitors admitted; Spearman correlation of arrival and admission: ${n2(q.spearman)}.`,
      `- Place in line: ${n0(pl.visitors)} visitors were shown a place on their first waiting page and later admitted. The place shown against the number of visitors actually admitted between that page and their own admission: median ratio ${n2(pl.medianRatio)}, ${pct(pl.withinTenPercent)} within ±10% (places of 20 or more).`,
      `- Turn: the page promised a median ${n0(pl.promisedMedian)} s; the median wait lived from that page was ${n0(pl.livedMedian)} s (${signed(pl.turnError)}).`,
      '',
      gainsTable(q.groups, 'their arrival order'),
      '',
    );
  }
  if (e.afterStop.length > 0) {
    lines.push(
      `- After the controller stopped: admissions a minute ${e.afterStop.map((m) => `${m.admissions}`).join(', ')} (minutes ${e.afterStop[0]!.minute} to ${e.afterStop.at(-1)!.minute}); visitors waiting at each minute's end ${e.afterStop.map((m) => `${m.waiting}`).join(', ')}.`,
    );
  }
  if (e.diagnostics.length > 0) lines.push(`- The edge reported: ${e.diagnostics.map((d) => `"${d}"`).join('; ')}.`);
  return lines;
}
