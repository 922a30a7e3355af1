// The report as one self-contained HTML page: inline CSS, the charts as inline SVG, each chart's
// figures in a table folded under it; nothing fetched from anywhere.
import type { ReportFigures, RoomFigures } from './figures.js';
import { originText } from './origin-page.js';
import { lanesText } from './lanes.js';
import { variantsSection } from './variants-page.js';

export interface PageInput {
  figures: ReportFigures;
  /** Chart id -> its SVG drawn wide (a desktop) and narrow (a phone). */
  svgs: Map<string, { wide: string; narrow: string }>;
  logName: string;
  journalName: string | null;
  room: string | null;
}

const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const num = (n: number): string => Math.round(n).toLocaleString('en-GB');
const secs = (n: number | null): string =>
  n === null
    ? '–'
    : n < 10
      ? `${Number(n.toFixed(1))} s`
      : n < 120
        ? `${Math.round(n)} s`
        : `${Number((n / 60).toFixed(1))} min`;
const hhmm = (ms: number): string => new Date(ms).toISOString().slice(11, 16);
const when = (ms: number): string =>
  `${new Date(ms).toISOString().slice(0, 10)} ${new Date(ms).toISOString().slice(11, 19)}`;

const STYLE = `
  :root { color-scheme: light; --fg: #1b1f24; --muted: #57606a; --rule: #d0d7de; --bg: #fff; --note: #fff8e1; }
  body { font: 15px/1.5 system-ui, sans-serif; margin: 1.5rem auto; padding: 0 1rem; max-width: 72rem; color: var(--fg); background: var(--bg); }
  @media (max-width: 480px) { body { padding: 0 .6rem; margin: .75rem auto; } }
  h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
  h2 { font-size: 1.2rem; margin: 2rem 0 .5rem; border-bottom: 1px solid var(--rule); padding-bottom: .2rem; }
  h3 { font-size: 1rem; margin: 1.25rem 0 .25rem; }
  p, li { max-width: 48rem; }
  .note { background: var(--note); padding: .5rem .75rem; border-radius: 6px; }
  figure { margin: 1rem 0; min-width: 0; }
  figure svg { max-width: 100%; height: auto; display: block; }
  figure svg.narrow { display: none; }
  @media (max-width: 560px) { figure svg.wide { display: none; } figure svg.narrow { display: block; } }
  figcaption { color: var(--muted); font-size: .9rem; max-width: 48rem; }
  details { margin: .25rem 0 1rem; }
  summary { cursor: pointer; color: var(--muted); }
  .table { overflow-x: auto; max-width: 100%; }
  table { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: .9rem; }
  caption { text-align: left; color: var(--muted); padding-bottom: .25rem; }
  th, td { border-bottom: 1px solid var(--rule); padding: .2rem .5rem; text-align: right; }
  th:first-child, td:first-child { text-align: left; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
  @media (max-width: 480px) { dl { grid-template-columns: 1fr; } dd { margin-bottom: .4rem; } }
  dt { font-weight: 600; }
  dd { margin: 0; overflow-wrap: anywhere; }
  .langs span { white-space: nowrap; }
`;

/** A table folded under its chart: `head` names the columns, the first one the row. */
function table(caption: string, head: string[], body: string[][]): string {
  const th = head.map((h) => `<th scope="col">${esc(h)}</th>`).join('');
  const rows = body
    .map(
      (r) =>
        `<tr><th scope="row">${esc(r[0]!)}</th>${r
          .slice(1)
          .map((c) => `<td>${esc(c)}</td>`)
          .join('')}</tr>`,
    )
    .join('\n');
  return `<details><summary>${esc(caption)}: the figures</summary><div class="table"><table><caption>${esc(caption)}</caption><thead><tr>${th}</tr></thead><tbody>\n${rows}\n</tbody></table></div></details>`;
}

function figure(id: string, svgs: PageInput['svgs'], caption: string): string {
  const svg = svgs.get(id);
  if (svg === undefined) return '';
  // The SVG is a picture described by its caption (and the table folded under it).
  // Vega's own roles on its mark groups would ask each for a name of its own: dropped.
  const labelled = (text: string, kind: 'wide' | 'narrow'): string =>
    text
      .replace(/ (role|aria-roledescription|aria-label)="[^"]*"/g, '')
      .replace(/^<svg\b/, `<svg class="${kind}" role="img" aria-labelledby="${esc(id)}-caption"`);
  return `<figure id="${esc(id)}">${labelled(svg.wide, 'wide')}${labelled(svg.narrow, 'narrow')}<figcaption id="${esc(id)}-caption">${esc(caption)}</figcaption></figure>`;
}

/** Languages shown by name on a room's line; the rest are summed after them. */
const LANGUAGES_SHOWN = 12;

/** "Languages: en-US 812, de-DE 140, ar-EG 12": the waiting visitors by the language they read, most first. */
function languagesText(room: RoomFigures): string {
  const langs = room.languages;
  if (langs.length === 0) {
    // A log from an edge before the field names no language; a room nobody waited in has none to name.
    return room.totals.peakWaiting > 0
      ? `<p class="langs">Languages: none named in this log (its lines come from before the room logged them).</p>`
      : '';
  }
  const shown = langs.slice(0, LANGUAGES_SHOWN).map((l) => `<span>${esc(l.tag)} ${num(l.visitors)}</span>`);
  const rest = langs.slice(LANGUAGES_SHOWN);
  if (rest.length > 0)
    shown.push(`<span>${num(rest.length)} more languages ${num(rest.reduce((s, l) => s + l.visitors, 0))}</span>`);
  return `<p class="langs">Languages of the waiting visitors: ${shown.join(', ')}.</p>`;
}

/** The origin's times and errors against the autopilot's objective, and the rate it chose (report/origin-page.ts). */
function originSection(room: RoomFigures, input: PageInput): string {
  const o = originText(room);
  if (o === null) return '';
  return `<h3 id="origin-${esc(room.id)}">The origin</h3>
<p class="origin">${esc(o.summary)}</p>
${figure(`${room.id}-origin-latency`, input.svgs, o.latencyCaption)}
${figure(`${room.id}-origin-errors`, input.svgs, o.errorsCaption)}
${table(o.table.caption, o.table.head, o.table.rows)}`;
}

/** Admissions by priority lane against each lane's share (report/lanes.ts); nothing in a room without lanes. */
function lanesSection(room: RoomFigures): string {
  const l = lanesText(room.lanes, hhmm);
  if (l === null) return '';
  return `<h3 id="lanes-${esc(room.id)}">Lanes</h3>
<p class="lanes">${esc(l.summary)}</p>
${table(`Room ${room.id}: ${l.caption}`, l.head, l.rows)}`;
}

function roomSection(room: RoomFigures, input: PageInput): string {
  const f = input.figures;
  const t = room.totals;
  const targets = [...new Set(room.minutes.map((m) => m.target).filter((v) => v !== null))];
  const targetText = targets.length === 0 ? 'no target known' : `target ${targets.map(num).join(', then ')} a minute`;
  const fullWaits =
    t.waitsMeasured === 0
      ? 'no wait measured'
      : `waits lived: p50 ${secs(t.p50)}, p90 ${secs(t.p90)}, p99 ${secs(t.p99)} (${num(t.waitsMeasured)} admissions)`;
  const minutes = room.minutes;
  const id = (s: string): string => `${room.id}-${s}`;
  return `<section aria-labelledby="room-${esc(room.id)}">
<h2 id="room-${esc(room.id)}">Room ${esc(room.id)}</h2>
<p>${num(t.admissions)} admitted, ${targetText}; at most ${num(t.peakWaiting)} visitors waiting at once; ${num(t.draws)} draws (a waiting visitor is drawn once a window); ${num(t.leavers)} left before their draw; ${fullWaits}.</p>
${languagesText(room)}
${figure(id('admissions'), input.svgs, `Admissions in each minute (bars) against the target in force (dashed${f.targetFrom === 'journal' ? ', from the journal' : f.targetFrom === 'option' ? ', from --target' : ': none known'}).${room.origin?.auto ? ' In auto the target is the ceiling, and the green line is the rate the autopilot chose (the journal).' : ''}`)}
${figure(id('waiting'), input.svgs, 'Waiting visitors: the most holding a ticket for one draw in the minute (each waiting visitor holds one ticket a window), and the draws held in the minute (one a waiting visitor a window, so several a visitor).')}
${figure(id('waits'), input.svgs, 'Waits lived by the visitors admitted in each minute: p50, p90 and p99, in seconds.')}
${figure(id('leavers'), input.svgs, 'Leavers: tickets that stopped coming before being drawn, counted in the minute they were last seen.')}
${figure(id('chance'), input.svgs, room.published.length > 0 ? "The chance of a draw window by window: what the draws used, and what the controller's writes published." : 'The chance of a draw window by window, as the draws used it.')}
${table(
  `Room ${room.id}, minute by minute`,
  ['minute (UTC)', 'admitted', 'target', 'waiting', 'drawn', 'leavers', 'wait p50', 'p90', 'p99'],
  minutes.map((m) => [
    hhmm(m.startMs),
    num(m.admissions),
    m.target === null ? '–' : num(m.target),
    num(m.waiting),
    num(m.draws),
    num(m.leavers),
    secs(m.p50),
    secs(m.p90),
    secs(m.p99),
  ]),
)}
${lanesSection(room)}
${variantsSection(room)}
${originSection(room, input)}
</section>`;
}

function linesText(f: ReportFigures): string {
  const l = f.lines;
  const why = Object.entries(l.badWhy)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([w, n]) => `${w} (${num(n)})`)
    .join('; ');
  const parts = [
    `${num(l.read)} lines read`,
    `${num(l.used)} decision lines used`,
    `${num(l.foreign)} skipped as not the room's (other output)`,
    `${num(l.bad)} skipped as unusable${why ? `: ${why}` : ''}`,
  ];
  if (l.previews > 0) parts.push(`${num(l.previews)} from preview links (no visitor's)`);
  if (l.noRoom > 0) parts.push(`${num(l.noRoom)} decided by no room (bypass rules, no route)`);
  if (l.otherRooms > 0) parts.push(`${num(l.otherRooms)} of other rooms`);
  if (f.unreadable.originLines > 0)
    parts.push(
      `${num(f.unreadable.originLines)} with an unreadable originMs or originStatus (left out of the origin's figures)`,
    );
  return parts.join(', ');
}

function apiSection(input: PageInput): string {
  const api = input.figures.api;
  if (api === null) {
    return `<section aria-labelledby="api-h"><h2 id="api-h">Writes and API calls</h2><p class="note">No journal given, so no writes or API calls to show. Start the controller with <code>npm run control -- --journal control.jsonl …</code> and give the file here with <code>--journal control.jsonl</code>.</p></section>`;
  }
  const t = api.totals;
  return `<section aria-labelledby="api-h"><h2 id="api-h">Writes and API calls</h2>
<p>From the journal ${esc(input.journalName ?? '')}: ${num(t.writesMade)} writes made; API calls: ${num(t.read)} reads, ${num(t.write)} writes, ${num(t.heartbeat)} heartbeats and ${num(t.logTail)} starts of fastly log-tail; ${num(api.busiestHour)} calls in the busiest hour; ${num(t.failed)} failed, ${num(t.limited)} of them refused by the rate limit (429).${api.journalSkipped > 0 ? ` ${num(api.journalSkipped)} journal lines skipped as unreadable.` : ''}${input.figures.unreadable.journalValues > 0 ? ` ${num(input.figures.unreadable.journalValues)} values of the autopilot's (pace_rate, the objective) unreadable, left out.` : ''}</p>
${figure('api', input.svgs, 'API calls in each minute, by kind. A write to the local store file is no API call and counts 0.')}
${table(
  'API calls, minute by minute',
  ['minute (UTC)', 'writes made', 'reads', 'writes', 'heartbeats', 'failed', '429', 'rate limit left'],
  api.minutes.map((m) => [
    hhmm(m.startMs),
    num(m.writesMade),
    num(m.read),
    num(m.write),
    num(m.heartbeat),
    num(m.failed),
    num(m.limited),
    m.remaining === null ? '–' : num(m.remaining),
  ]),
)}
</section>`;
}

export function reportPage(input: PageInput): string {
  const f = input.figures;
  const span =
    f.fromMs === null || f.toMs === null ? 'no decision line in the file' : `${when(f.fromMs)} to ${when(f.toMs)} UTC`;
  const pops =
    f.pops.length === 0
      ? ''
      : `<section aria-labelledby="pops-h"><h2 id="pops-h">Points of presence</h2>
${figure('pops', input.svgs, 'Admissions in each minute, by the POP that admitted them.')}
${table(
  'Each POP over the whole log',
  ['POP', 'lines', 'admitted', 'drawn', 'leavers', 'most waiting at once'],
  f.pops.map((p) => [p.pop, num(p.lines), num(p.admissions), num(p.draws), num(p.leavers), num(p.peakWaiting)]),
)}
</section>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Waiting room report${input.room ? `: room ${esc(input.room)}` : ''}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Waiting room report${input.room ? `: room ${esc(input.room)}` : ''}</h1>
<p>${esc(span)}, from ${esc(input.logName)}. Times of day are UTC.</p>
<dl>
<dt>Log</dt><dd id="lines">${esc(linesText(f))}.</dd>
<dt>Rooms</dt><dd>${f.rooms.length === 0 ? 'none' : f.rooms.map((r) => `<a href="#room-${esc(r.id)}">${esc(r.id)}</a>`).join(', ')}</dd>
<dt>Target</dt><dd>${f.targetFrom === 'journal' ? "new_users_per_minute as the controller's journal wrote it" : f.targetFrom === 'option' ? 'given with --target' : 'none known: give --target N (admissions a minute) or a journal that carries it'}</dd>
</dl>
${f.sampled ? `<p class="note" id="sampled">This log is sampled: the edge logged the waiting decisions of a share of the tickets only (log_sample_rate), each line with its weight <code>w</code> (1 / the rate). Waiting visitors, draws, leavers and languages are counted with those weights, so they are estimates; admissions are always logged and counted one by one. A wait is measured only when the admitted visitor's whole ticket chain is in the sample, so the waits shown lean towards the shorter ones.</p>` : ''}
<details><summary>How these figures are measured</summary>
<ul>
<li>Counts are of distinct tokens, never of lines: a visitor's page comes back many times with the same token.</li>
<li>A <strong>wait lived</strong> is the time of the admission minus the time of the first waiting line of that visitor's ticket chain: the chain follows each token to the one set in its place (the line's <code>tid</code> to its <code>newTid</code>) and to the successor named ahead (<code>nextTid</code>), as the controller's ledger does. ${f.waitsUnknown > 0 ? `${num(f.waitsUnknown)} admissions had a chain that began before the log did, and have no wait.` : 'Every admitted visitor who waited had their chain in the log.'} Visitors the open room let straight in waited nothing and are left out of the waits.</li>
<li>A <strong>leaver</strong> is a waiting ticket that was never drawn and not followed by another before its cohort's grace window closed (two windows after it expired).</li>
<li>The <strong>chance</strong> is the <code>pct</code> of the draws of each window, averaged over the POPs that drew in it.</li>
<li>The <strong>languages</strong> count each waiting visitor (a ticket chain, as for the waits) once, in the language of the first page or JSON answer of theirs that the log shows (the line's <code>lang</code>): visitors, not requests.</li>
</ul>
</details>
${f.rooms.map((r) => roomSection(r, input)).join('\n')}
${pops}
${apiSection(input)}
</main>
</body>
</html>
`;
}
