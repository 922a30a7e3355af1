// What a sale costs in requests (`npm run simulate -- --costs`, docs/production.md#what-a-sale-costs):
// from a run's visitors, each with its requests counted by kind (requests.ts), the requests per visitor,
// per admitted visitor and per admission, and the share the room answers itself. Fastly bills Compute
// by the request: these are the figures to multiply by the price.
import type { Actor } from './actor.js';
import { requestKinds, type RequestKind } from './requests.js';
import type { RunResult } from './run-types.js';
import { farmGroups, type Group } from './visitors.js';

/** Who a row counts: the whole crowd, or one part of it (below). */
export type Crowd = 'everyone' | 'people' | 'adversaries' | 'bots';

/** One crowd of a run: everyone, and when the run mixes them, the people, the adversaries and a bot farm apart. */
export interface CostRow {
  crowd: Crowd;
  visitors: number;
  admitted: number;
  /** Gave up waiting, and still waiting when the run ended (their checks would have gone on). */
  gaveUp: number;
  stillWaiting: number;
  /** Time from the first request to admission, of those admitted (s): median and 90th percentile; null when nobody got in. */
  admitMedianSeconds: number | null;
  admitP90Seconds: number | null;
  /** Requests per visitor. */
  median: number;
  mean: number;
  p90: number;
  /** Mean requests of a visitor who got in; null when nobody did. */
  perAdmitted: number | null;
  /** Every request of the crowd over those admitted: what one admission costs, those who left included. */
  perAdmission: number | null;
  /** Share of the requests the room answered itself: they never reached the origin. */
  edgeShare: number;
  /** Mean requests per visitor by kind: they add up to `mean`. */
  kinds: Record<RequestKind, number>;
  /** Checks (waiting page, deny page, countdown, the winning one) per minute spent before admission or leaving. */
  checksPerMinute: number | null;
  /** Every request of the crowd. */
  total: number;
}

export interface ScenarioCosts {
  name: string;
  title: string;
  seed: string;
  visitors: number;
  durationMinutes: number;
  waitPeriodSeconds: number;
  /** Requests the room decided in the run: every request but the solver's, which is served before any decision. */
  decisions: number;
  /** The run's wall-clock time: the simulator's own cost. */
  elapsedMs: number;
  rows: CostRow[];
}

/** The q-quantile of sorted values, interpolated; 0 for none. */
function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

/** The checks a visitor made while waiting: the waiting page's, the deny page's, the countdown's, and the one that won. */
const checksOf = ({ requests: { kinds } }: Actor): number => kinds.check + kinds.deny + kinds.countdown + kinds.win;

/** How long a visitor was on the room's pages (ms): until admitted, gone, or the run's end. */
function waitedMs(a: Actor, endMs: number): number {
  const until = a.admittedMs ?? a.abandonedMs ?? (a.done ? (a.lastRequestMs ?? a.arrivalMs) : endMs);
  return Math.max(0, until - a.arrivalMs);
}

export function costRow(crowd: CostRow['crowd'], actors: readonly Actor[], endMs: number): CostRow {
  const totals = actors.map((a) => a.requests.total).sort((x, y) => x - y);
  const total = totals.reduce((x, y) => x + y, 0);
  const admitted = actors.filter((a) => a.admittedMs !== null);
  const admittedTotal = admitted.reduce((x, a) => x + a.requests.total, 0);
  const edge = actors.reduce((x, a) => x + a.requests.edge, 0);
  const kinds = Object.fromEntries(
    requestKinds.map((k) => [k, actors.reduce((x, a) => x + a.requests.kinds[k], 0) / Math.max(1, actors.length)]),
  ) as Record<RequestKind, number>;
  const waitedMinutes = actors.reduce((x, a) => x + waitedMs(a, endMs), 0) / 60_000;
  const times = admitted.map((a) => (a.admittedMs! - a.arrivalMs) / 1000).sort((x, y) => x - y);
  return {
    crowd,
    visitors: actors.length,
    admitted: admitted.length,
    gaveUp: actors.filter((a) => a.abandonedMs !== null).length,
    stillWaiting: actors.filter((a) => a.admittedMs === null && a.abandonedMs === null && !a.done).length,
    admitMedianSeconds: times.length === 0 ? null : quantile(times, 0.5),
    admitP90Seconds: times.length === 0 ? null : quantile(times, 0.9),
    median: quantile(totals, 0.5),
    mean: total / Math.max(1, actors.length),
    p90: quantile(totals, 0.9),
    perAdmitted: admitted.length === 0 ? null : admittedTotal / admitted.length,
    perAdmission: admitted.length === 0 ? null : total / admitted.length,
    edgeShare: total === 0 ? 0 : edge / total,
    kinds,
    checksPerMinute: waitedMinutes === 0 ? null : actors.reduce((x, a) => x + checksOf(a), 0) / waitedMinutes,
    total,
  };
}

/** The simulator's adversaries (sim/README.md), each bending one rule: they cost what their rule costs. */
const ADVERSARIES: readonly Group[] = [
  'devices5',
  'clearer',
  'refresher',
  'friend',
  'twojars',
  'hoarder',
  'replayer',
  'hopper',
];

const crowdOf = (group: Group): Crowd =>
  farmGroups.includes(group) ? 'bots' : ADVERSARIES.includes(group) ? 'adversaries' : 'people';

/** A run's costs: one row for everyone, then, when the crowd is mixed, one for each part of it. */
export function scenarioCosts(result: RunResult): ScenarioCosts {
  const { actors } = result.trace;
  const endMs = result.scenario.durationMs;
  const parts = (['people', 'adversaries', 'bots'] as const)
    .map((crowd) => ({ crowd, of: actors.filter((a) => crowdOf(a.group) === crowd) }))
    .filter((p) => p.of.length > 0);
  const rows = [costRow('everyone', actors, endMs)];
  if (parts.length > 1) rows.push(...parts.map((p) => costRow(p.crowd, p.of, endMs)));
  return {
    name: result.scenario.name,
    title: result.scenario.title,
    seed: result.seed,
    visitors: result.visitors,
    durationMinutes: result.scenario.durationMs / 60_000,
    waitPeriodSeconds: result.waitPeriodSeconds,
    decisions: result.decisions,
    elapsedMs: result.elapsedMs,
    rows,
  };
}

const n1 = (x: number | null): string => (x === null ? '–' : x.toFixed(1));
const int = (x: number): string => Math.round(x).toLocaleString('en-US');
const minutes = (s: number | null): string => (s === null ? '–' : (s / 60).toFixed(1));
const share = (part: number, whole: number): string =>
  `${int(part)} (${((100 * part) / Math.max(1, whole)).toFixed(0)}%)`;

/** A Markdown table with its columns lined up: the first two (names) to the left, the figures to the right. */
function table(header: readonly string[], rows: readonly string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const cells = (r: readonly string[]) => r.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)));
  const rule = widths.map((w, i) => (i < 2 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`));
  return [header, rule, ...rows].map((r, i) => `| ${(i === 1 ? r : cells(r)).join(' | ')} |`);
}

/** One line as a cost run's scenario finishes. */
export function describeCosts(s: ScenarioCosts): string {
  const rows = s.rows.map((r) => `${r.crowd} ${n1(r.mean)} requests a visitor (median ${n1(r.median)})`).join(', ');
  return `${s.name.padEnd(16)} ${rows}  [${s.decisions} decisions, ${(s.elapsedMs / 1000).toFixed(1)} s]`;
}

/** Each kind's column in the table by kind. */
const KIND_LABEL: Record<RequestKind, string> = {
  first: 'first visit',
  check: 'waiting checks',
  deny: 'deny page',
  countdown: 'countdown',
  win: 'winning check',
  reload: 'reload',
  origin: 'pages inside',
  solver: 'solver',
};

type Line = { s: ScenarioCosts; r: CostRow };

function perVisitorTable(lines: readonly Line[]): string[] {
  const header = [
    'sale',
    'crowd',
    'visitors',
    'got in',
    'gave up',
    'still waiting at the end',
    'minutes to get in: median / p90',
    'requests per visitor: median / mean / p90',
    'per admitted visitor',
    'all requests per admission',
    'never reach the origin',
  ];
  return table(
    header,
    lines.map(({ s, r }) => [
      s.name,
      r.crowd,
      int(r.visitors),
      share(r.admitted, r.visitors),
      share(r.gaveUp, r.visitors),
      share(r.stillWaiting, r.visitors),
      `${minutes(r.admitMedianSeconds)} / ${minutes(r.admitP90Seconds)}`,
      `${n1(r.median)} / ${n1(r.mean)} / ${n1(r.p90)}`,
      n1(r.perAdmitted),
      n1(r.perAdmission),
      `${(100 * r.edgeShare).toFixed(1)}%`,
    ]),
  );
}

function byKindTable(lines: readonly Line[]): string[] {
  return table(
    ['sale', 'crowd', ...requestKinds.map((k) => KIND_LABEL[k]), 'all', 'checks a minute waited'],
    lines.map(({ s, r }) => [
      s.name,
      r.crowd,
      ...requestKinds.map((k) => r.kinds[k].toFixed(2)),
      r.mean.toFixed(2),
      r.checksPerMinute === null ? '–' : r.checksPerMinute.toFixed(2),
    ]),
  );
}

/** The cost run's two tables, in Markdown: per visitor, then by kind; then what each sale was. */
export function costTables(all: readonly ScenarioCosts[]): string {
  const lines = all.flatMap((s) => s.rows.map((r) => ({ s, r })));
  const runs = all.map(
    (s) =>
      `- ${s.name}: ${s.title}; ${int(s.visitors)} visitors, ${s.durationMinutes} minutes, ${s.waitPeriodSeconds}-second windows, ${int(s.decisions)} requests decided`,
  );
  const seeds = [...new Set(all.map((s) => s.seed))].join(', ');
  return [
    `Requests per visitor (seed ${seeds}):`,
    '',
    ...perVisitorTable(lines),
    '',
    'Mean requests per visitor, by kind:',
    '',
    ...byKindTable(lines),
    '',
    ...runs,
  ].join('\n');
}
