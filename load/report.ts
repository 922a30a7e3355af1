// What a load run prints and writes: a line a minute while it runs, then a table, the verdict against
// the target, and a JSON file with every figure.
import { quantile } from '../lib/quantiles.js';
import type { LoadResult } from './run.js';
import type { MinuteRow } from './tally.js';
import { verdictSummary } from './verdict.js';

export function minuteLine(row: MinuteRow, extra = ''): string {
  const target = row.target === null ? '' : `, target ${row.target}`;
  return (
    `minute ${row.minute}: arrivals ${row.arrivals}, requests ${row.requests}, admitted ${row.admissions}, ` +
    `waiting ${row.waiting}, gave up ${row.gaveUp}, errors ${row.errors}${target}${extra}`
  );
}

const COLUMNS = [
  'minute',
  'arrivals',
  'requests',
  'admitted',
  'waiting',
  'gave up',
  'left',
  'errors',
  'target',
  'vs target',
] as const;

export function summaryTable(result: LoadResult): string {
  const byMinute = new Map(result.verdicts.map((v) => [v.minute, v]));
  const cells = result.rows.map((r) => {
    const v = byMinute.get(r.minute);
    const vs = v?.percent == null ? '' : `${v.percent.toFixed(0)}% ${v.within ? 'ok' : 'OUT'}`;
    return [
      r.minute,
      r.arrivals,
      r.requests,
      r.admissions,
      r.waiting,
      r.gaveUp,
      r.left,
      r.errors,
      r.target ?? '',
      vs,
    ].map(String);
  });
  const t = result.totals;
  cells.push(['all', t.arrivals, t.requests, t.admissions, '', t.gaveUp, t.left, t.errors, '', ''].map(String));
  const widths = COLUMNS.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  const line = (row: readonly string[]) => row.map((c, i) => c.padStart(widths[i]!)).join('  ');
  return [line(COLUMNS), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

/** The lines after the table: each judged minute against the target, the verdict, the errors. */
export function verdictLines(result: LoadResult): string[] {
  const out: string[] = [];
  const judged = result.verdicts.filter((v) => v.percent !== null);
  if (judged.length === 0) {
    out.push(
      result.verdicts.length === 0
        ? 'No minute after the first two: run longer (--minutes 3 or more) to compare admissions with the target.'
        : 'No target known (new_users_per_minute unset in the store, or no --target): nothing to compare.',
    );
  } else {
    out.push('Admissions against the target, after the first two minutes:');
    for (const v of judged) {
      out.push(
        `  minute ${v.minute}: ${v.admissions} of ${v.target} = ${v.percent!.toFixed(1)}%  ${v.within ? 'within ±10%' : 'OUTSIDE ±10%'}`,
      );
    }
    out.push(verdictSummary(result.verdicts)!);
  }
  const causes = Object.entries(result.errorCauses).sort((a, b) => b[1] - a[1]);
  out.push(
    result.totals.errors === 0
      ? 'Errors: none.'
      : `Errors: ${result.totals.errors} (${causes.map(([cause, n]) => `${cause}: ${n}`).join(', ')})`,
  );
  const e = result.endState;
  out.push(
    `At the end: ${e.admitted} visitors admitted in all, ${e.browsing} still browsing, ${e.waiting} still waiting.`,
  );
  return out;
}

export function resultJson(
  result: LoadResult,
  settings: Record<string, unknown>,
  heldBackByMinute: readonly HeldBack[] = [],
): string {
  return `${JSON.stringify(
    {
      settings,
      startedAt: new Date(result.startedMs).toISOString(),
      durationSeconds: result.durationMs / 1000,
      totals: result.totals,
      endState: result.endState,
      errors: result.errorCauses,
      minutes: result.rows,
      admissionsPerMinute: result.rows.map((r) => r.admissions),
      verdicts: result.verdicts,
      /** This tool's own slot waits, per minute: how late it made its browsers. */
      heldBack: heldBackByMinute,
    },
    null,
    2,
  )}\n`;
}

/** How long this tool kept its own requests waiting for a free slot in one minute. */
export interface HeldBack {
  minute: number;
  requests: number;
  /** 95th percentile and longest slot wait, seconds. */
  p95Seconds: number;
  maxSeconds: number;
}

export function heldBack(minute: number, waitsMs: readonly number[]): HeldBack {
  const sorted = [...waitsMs].sort((a, b) => a - b);
  const at = (q: number) => (sorted.length === 0 ? 0 : quantile(sorted, q) / 1000);
  return { minute, requests: sorted.length, p95Seconds: at(0.95), maxSeconds: at(1) };
}

/** A second's wait for a slot is already a late return: below it the tool does not count as holding back. */
export const HELD_BACK_SECONDS = 1;

/** ", the load tool held 5% of its requests back 3.2 s or more (longest 7.0 s): raise --concurrency", or ''. */
export function heldBackNote(h: HeldBack): string {
  if (h.p95Seconds < HELD_BACK_SECONDS) return '';
  return `; this tool held 5% of its requests back ${h.p95Seconds.toFixed(1)} s or more for a free slot (longest ${h.maxSeconds.toFixed(1)} s), so its browsers came back late: raise --concurrency`;
}
