// What the page shows, as plain rows: each room's minutes (admissions against the target, waiting,
// draws, leavers, waits lived), the chance by window, the languages its waiting visitors read, the
// POPs, and the API calls from the journal.
import { roomLanes, type RoomLanes } from './lanes.js';
import type { LogFigures, MinuteFigures } from './log-figures.js';
import { targetAt, type JournalFigures } from './journal.js';
import { WaitHistogram } from './histogram.js';
import { originFigures, type OriginRoomFigures } from './origin-figures.js';
import { type RoomVariants, roomVariants } from './variants.js';

export interface MinuteRow {
  startMs: number;
  admissions: number;
  straightIn: number;
  target: number | null;
  waiting: number;
  draws: number;
  leavers: number;
  /** Waits lived by the minute's admissions, seconds (null: none measured). */
  p50: number | null;
  p90: number | null;
  p99: number | null;
  waitsMeasured: number;
}

export interface RoomFigures {
  id: string;
  minutes: MinuteRow[];
  /** The chance the draws used, by window (ms), and the one the journal's writes published. */
  chances: { startMs: number; pct: number }[];
  published: { startMs: number; pct: number }[];
  totals: {
    admissions: number;
    leavers: number;
    draws: number;
    peakWaiting: number;
    p50: number | null;
    p90: number | null;
    p99: number | null;
    waitsMeasured: number;
  };
  /** The waiting visitors by the language they were answered in, most first (none: the log names no language). */
  languages: { tag: string; visitors: number }[];
  /** The origin minute by minute, against the autopilot's objective (null: neither log nor journal says anything of it). */
  origin: OriginRoomFigures | null;
  /** Admissions by priority lane against each lane's share (null: no admission named a lane). */
  lanes: RoomLanes | null;
  /** The waiting page's variants compared, when the room ran an A/B test (report/variants.ts); else null. */
  variants: RoomVariants | null;
}

export interface PopFigures {
  pop: string;
  lines: number;
  admissions: number;
  draws: number;
  leavers: number;
  peakWaiting: number;
}

export interface ApiFigures {
  minutes: {
    startMs: number;
    read: number;
    write: number;
    heartbeat: number;
    logTail: number;
    writesMade: number;
    failed: number;
    limited: number;
    remaining: number | null;
  }[];
  totals: {
    read: number;
    write: number;
    heartbeat: number;
    logTail: number;
    writesMade: number;
    failed: number;
    limited: number;
  };
  /** The most calls in any 60 minutes running. */
  busiestHour: number;
  journalLines: number;
  journalSkipped: number;
}

export interface ReportFigures {
  fromMs: number | null;
  toMs: number | null;
  lines: LogFigures['lines'];
  sampled: boolean;
  waitsUnknown: number;
  targetFrom: 'journal' | 'option' | 'none';
  rooms: RoomFigures[];
  pops: PopFigures[];
  /** Admissions a minute by POP (every room's). */
  popMinutes: { startMs: number; pop: string; admissions: number }[];
  api: ApiFigures | null;
  /** Lines whose origin fields were unreadable, and the autopilot's values in the journal that were: left out, counted. */
  unreadable: { originLines: number; journalValues: number };
}

const round = (n: number): number => Math.round(n * 10) / 10;
const minuteStarts = (from: number, to: number): number[] => {
  const out: number[] = [];
  for (let m = from; m <= to; m += 60_000) out.push(m);
  return out;
};

function roomFigures(
  id: string,
  byMinute: Map<number, MinuteFigures>,
  span: number[],
  log: LogFigures,
  journal: JournalFigures | null,
  target: number | null,
): RoomFigures {
  const all = new WaitHistogram();
  const minutes = span.map((startMs): MinuteRow => {
    const m = byMinute.get(startMs);
    if (m !== undefined) all.merge(m.waits);
    const q = (p: number): number | null => {
      const v = m?.waits.quantile(p) ?? null;
      return v === null ? null : round(v);
    };
    return {
      startMs,
      admissions: m?.admissions ?? 0,
      straightIn: m?.straightIn ?? 0,
      target: targetAt(journal, id, startMs) ?? target,
      waiting: Math.round(m?.waiting ?? 0),
      draws: Math.round(m?.draws ?? 0),
      leavers: Math.round(m?.leavers ?? 0),
      p50: q(0.5),
      p90: q(0.9),
      p99: q(0.99),
      waitsMeasured: m?.waits.count ?? 0,
    };
  });
  const q = (p: number): number | null => {
    const v = all.quantile(p);
    return v === null ? null : round(v);
  };
  const sum = (f: (r: MinuteRow) => number): number => minutes.reduce((s, r) => s + f(r), 0);
  return {
    id,
    minutes,
    chances: [...(log.chances.get(id) ?? [])].map(([win, pct]) => ({
      startMs: win * 1000,
      pct: Math.round(pct * 100) / 100,
    })),
    variants: roomVariants(log.variants.get(id) ?? new Map()),
    languages: [...(log.languages.get(id) ?? [])]
      .map(([tag, n]) => ({ tag, visitors: Math.round(n) }))
      .sort((a, b) => b.visitors - a.visitors || a.tag.localeCompare(b.tag)),
    published: [...(journal?.schedules.get(id) ?? [])]
      .sort((a, b) => a[0] - b[0])
      .map(([win, pct]) => ({ startMs: win * 1000, pct: Math.round(pct * 100) / 100 })),
    totals: {
      admissions: sum((r) => r.admissions),
      leavers: sum((r) => r.leavers),
      draws: sum((r) => r.draws),
      peakWaiting: Math.max(0, ...minutes.map((r) => r.waiting)),
      p50: q(0.5),
      p90: q(0.9),
      p99: q(0.99),
      waitsMeasured: all.count,
    },
    origin: originFigures(log.origin.rooms.get(id), journal?.pace.get(id), span),
    lanes: roomLanes(log.lanes.get(id), span, journal?.lanes.get(id)),
  };
}

function apiFigures(j: JournalFigures): ApiFigures {
  const keys = [...j.minutes.keys()].sort((a, b) => a - b);
  const span = keys.length === 0 ? [] : minuteStarts(keys[0]!, keys.at(-1)!);
  const minutes = span.map((startMs) => ({
    startMs,
    ...(j.minutes.get(startMs) ?? {
      read: 0,
      write: 0,
      heartbeat: 0,
      logTail: 0,
      writesMade: 0,
      failed: 0,
      limited: 0,
      remaining: null,
    }),
  }));
  const totals = { read: 0, write: 0, heartbeat: 0, logTail: 0, writesMade: 0, failed: 0, limited: 0 };
  for (const m of minutes) for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += m[k];
  let busiestHour = 0;
  let running = 0;
  minutes.forEach((m, i) => {
    running += m.read + m.write + m.heartbeat + m.logTail;
    const out = minutes[i - 60];
    if (out !== undefined) running -= out.read + out.write + out.heartbeat + out.logTail;
    busiestHour = Math.max(busiestHour, running);
  });
  return { minutes, totals, busiestHour, journalLines: j.lines, journalSkipped: j.skipped };
}

export function reportFigures(
  log: LogFigures,
  journal: JournalFigures | null,
  options: { target?: number } = {},
): ReportFigures {
  const first = log.firstMs === null ? null : Math.floor(log.firstMs / 60_000) * 60_000;
  const last = log.lastMs === null ? null : Math.floor(log.lastMs / 60_000) * 60_000;
  const span = first === null || last === null ? [] : minuteStarts(first, last);
  const rooms = [...log.rooms]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([id, m]) => roomFigures(id, m, span, log, journal, options.target ?? null));
  const journalTargets = journal !== null && journal.targets.size > 0;
  const pops = [...log.pops].map(([pop, byMinute]): PopFigures => {
    const ms = [...byMinute.values()];
    const sum = (f: (m: MinuteFigures) => number): number => Math.round(ms.reduce((s, m) => s + f(m), 0));
    return {
      pop,
      lines: sum((m) => m.lines),
      admissions: sum((m) => m.admissions),
      draws: sum((m) => m.draws),
      leavers: sum((m) => m.leavers),
      peakWaiting: Math.round(Math.max(0, ...ms.map((m) => m.waiting))),
    };
  });
  pops.sort((a, b) => b.lines - a.lines);
  const popMinutes = pops.flatMap((p) =>
    span.map((startMs) => ({ startMs, pop: p.pop, admissions: log.pops.get(p.pop)?.get(startMs)?.admissions ?? 0 })),
  );
  return {
    fromMs: log.firstMs,
    toMs: log.lastMs,
    lines: log.lines,
    sampled: log.sampled,
    waitsUnknown: log.waitsUnknown,
    targetFrom: journalTargets ? 'journal' : options.target !== undefined ? 'option' : 'none',
    rooms,
    pops,
    popMinutes,
    api: journal === null ? null : apiFigures(journal),
    unreadable: { originLines: log.origin.unreadable, journalValues: journal?.badValues ?? 0 },
  };
}
