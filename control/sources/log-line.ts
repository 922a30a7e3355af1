// One line of log text -> the room's decision, or why not. Lines come from the local host's output
// (`waiting_room_log :: {...}`), from `fastly log-tail` (the instance's stdout, after its own prefix),
// from a file, or from a batch an HTTPS log endpoint received: whatever precedes the JSON object is
// ignored. Never throws: a line is the room's decision, `preview` (a preview link's page or its refusal:
// never a visitor, counted apart), `foreign` (not the room's at all) or `bad` (the room's marker, but
// unusable), and the caller counts the last three and goes on.
import { PREVIEW_DECISION } from '../../src/core/log/index.js';
import { DEFAULT_ROOM, LANE_ID, ROOM_ID } from '../../src/core/settings/index.js';
import type { DecisionLine, OriginStatus } from '../types.js';

export type LineVerdict =
  | { kind: 'decision'; line: DecisionLine }
  | { kind: 'preview'; room: string | null; reason: string }
  | { kind: 'foreign' }
  | { kind: 'bad'; why: string };

const TID = /^[A-Za-z0-9_-]{8}$/;
const DECS = new Set(['wait', 'allow', 'won', 'pre']);
const PROOFS = new Set(['valid', 'wrong', 'failed', 'skipped', 'missing']);
const ORIGIN_FAILURES = new Set(['timeout', 'refused', 'failed']);
/** A language tag as the room writes one (`de-DE`, `zh-TW`): letters first, then subtags; 35 characters at most. */
const LANG = /^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8}){0,7}$/;
/** A variant of the waiting page as the room names one (`page_variants`). */
const VARIANT = /^[a-z0-9]{1,16}$/;
const VARIANT_FALLBACKS = new Set(['missing', 'unreadable', 'template']);
/** Decisions from before 2020 or over a day ahead of the reader's clock are not believed. */
const EARLIEST_MS = Date.UTC(2020, 0, 1);

function tid(v: unknown): string | null | undefined {
  if (v === null || v === undefined) return null;
  return typeof v === 'string' && TID.test(v) ? v : undefined;
}

function seconds(v: unknown): number | null | undefined {
  if (v === null || v === undefined) return null;
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined;
}

function dec(v: unknown): DecisionLine['dec'] | undefined {
  if (v === null || v === undefined) return null;
  return typeof v === 'string' && DECS.has(v) ? (v as DecisionLine['dec']) : undefined;
}

/**
 * How the origin answered a forwarded request: `originMs` (whole ms to its headers) and `originStatus`
 * (an HTTP status, or why none came). Absent from other lines and older edges; a malformed value is left
 * out, not the line: the line still counts its decision.
 */
function origin(o: Record<string, unknown>): Pick<DecisionLine, 'originMs' | 'originStatus'> {
  const ms = o.originMs;
  const st = o.originStatus;
  const originMs = typeof ms === 'number' && Number.isSafeInteger(ms) && ms >= 0 ? ms : undefined;
  const originStatus =
    typeof st === 'number'
      ? Number.isInteger(st) && st >= 100 && st <= 599
        ? st
        : undefined
      : typeof st === 'string' && ORIGIN_FAILURES.has(st)
        ? (st as OriginStatus)
        : undefined;
  return {
    ...(originMs === undefined ? {} : { originMs }),
    ...(originStatus === undefined ? {} : { originStatus }),
  };
}

/** The JSON object after the room's marker, or the verdict on a line without a usable one. */
function lineObject(text: string): LineVerdict | { kind: 'object'; o: Record<string, unknown> } {
  const start = text.indexOf('{"wr":');
  if (start < 0) return { kind: 'foreign' };
  try {
    const value: unknown = JSON.parse(text.slice(start).trim());
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return { kind: 'bad', why: 'not a JSON object' };
    return { kind: 'object', o: value as Record<string, unknown> };
  } catch {
    return { kind: 'bad', why: 'not valid JSON' };
  }
}

/** The line's version, time and window, and its three words; a string: why the line is bad. */
function when(o: Record<string, unknown>, nowMs: number): { tsMs: number; period: number; win: number } | string {
  if (o.wr !== 1) return `unknown line version ${JSON.stringify(o.wr)}`;
  const tsMs = typeof o.ts === 'string' ? Date.parse(o.ts) : Number.NaN;
  if (!(tsMs >= EARLIEST_MS && tsMs <= nowMs + 86_400_000)) return 'ts is missing or not a believable time';
  const period = o.period;
  if (typeof period !== 'number' || !Number.isSafeInteger(period) || period < 1)
    return 'period must be a whole number of seconds';
  const win = seconds(o.win);
  if (win === null || win === undefined) return 'win must be a window start in seconds';
  for (const f of ['decision', 'outcome', 'reason'] as const)
    if (typeof o[f] !== 'string') return `${f} must be a string`;
  return { tsMs, period, win };
}

type Tokens = Pick<DecisionLine, 'tid' | 'exp' | 'dec' | 'newTid' | 'newExp' | 'newDec' | 'nextTid'>;

/** The tokens the line names; a string: which is malformed. */
function tokens(o: Record<string, unknown>): Tokens | string {
  const fields = {
    tid: tid(o.tid),
    exp: seconds(o.exp),
    dec: dec(o.dec),
    newTid: tid(o.newTid),
    newExp: seconds(o.newExp),
    newDec: dec(o.newDec),
    nextTid: tid(o.nextTid),
  };
  for (const [name, value] of Object.entries(fields)) if (value === undefined) return `${name} is malformed`;
  return fields as Tokens;
}

/** The draw's chance, the place in line, the weight and the room; a string: why the line is bad. */
function figures(o: Record<string, unknown>): Pick<DecisionLine, 'pct' | 'pos' | 'weight' | 'room'> | string {
  const pct =
    o.pct === null || o.pct === undefined
      ? null
      : typeof o.pct === 'number' && o.pct >= 0 && o.pct <= 100
        ? o.pct
        : undefined;
  if (pct === undefined) return 'pct must be 0..100';
  // A place in line (docs/events.md): a position near an epoch second; absent from older lines.
  const pos =
    o.pos === null || o.pos === undefined
      ? null
      : typeof o.pos === 'number' && Number.isFinite(o.pos) && o.pos >= 0 && o.pos < 1e11
        ? o.pos
        : undefined;
  if (pos === undefined) return 'pos must be a position (epoch seconds)';
  // A sampled waiting decision's weight (log_sample_rate r < 1 at the edge: w = 1/r); absent on every other line.
  const weight = o.w === undefined ? 1 : typeof o.w === 'number' && o.w >= 1 && o.w <= 1e9 ? o.w : undefined;
  if (weight === undefined) return 'w must be a weight, at least 1 (1/log_sample_rate)';
  // No `room` at all: an edge from before rooms, whose one room is `default`.
  const room =
    o.room === undefined
      ? DEFAULT_ROOM
      : o.room === null
        ? null
        : typeof o.room === 'string' && ROOM_ID.test(o.room)
          ? o.room
          : undefined;
  if (room === undefined) return 'room must be a room id or null';
  return { pct, pos, weight, room };
}

/**
 * The waiting page's variant of an A/B test, and why its page fell back; absent from lines without a
 * test and from older ones. Something that is no variant name is left out, not the line: no decision
 * depends on it.
 */
function variantOf(o: Record<string, unknown>): Pick<DecisionLine, 'variant' | 'variantFallback'> {
  if (typeof o.variant !== 'string' || !VARIANT.test(o.variant)) return {};
  const fallback = o.variantFallback;
  return typeof fallback === 'string' && VARIANT_FALLBACKS.has(fallback)
    ? { variant: o.variant, variantFallback: fallback as NonNullable<DecisionLine['variantFallback']> }
    : { variant: o.variant };
}

export function parseLogLine(text: string, nowMs: number = Date.now()): LineVerdict {
  const found = lineObject(text);
  if (found.kind !== 'object') return found;
  const o = found.o;
  const t = when(o, nowMs);
  if (typeof t === 'string') return { kind: 'bad', why: t };
  // Someone looking at a page through a preview link (docs/operating.md): no visitor, no decision.
  if (o.decision === PREVIEW_DECISION)
    return { kind: 'preview', room: typeof o.room === 'string' ? o.room : null, reason: o.reason as string };
  const tok = tokens(o);
  if (typeof tok === 'string') return { kind: 'bad', why: tok };
  const f = figures(o);
  if (typeof f === 'string') return { kind: 'bad', why: f };
  // What a draw's request brought for a proof of work (docs/bots.md); absent when none was asked. A
  // value this reader does not know is left out, not the line: the line still counts its admission.
  const proof =
    typeof o.proof === 'string' && PROOFS.has(o.proof) ? (o.proof as NonNullable<DecisionLine['proof']>) : undefined;
  const rule = typeof o.rule === 'string' ? o.rule.slice(0, 64) : null;
  // The language of the room's own answer; absent from the origin's and from older lines. Something
  // that is no tag is left out, not the line: nothing the controller decides depends on it.
  const lang = typeof o.lang === 'string' && o.lang.length <= 35 && LANG.test(o.lang) ? o.lang : undefined;
  // The priority lane (docs/lanes.md); absent in the general lane and from older lines. A value that is
  // no lane id is left out (the general lane), not the line: the line still counts.
  const lane = typeof o.lane === 'string' && LANE_ID.test(o.lane) ? o.lane : undefined;
  return {
    kind: 'decision',
    line: {
      tsMs: t.tsMs,
      pop: typeof o.pop === 'string' && o.pop !== '' ? o.pop.slice(0, 32) : 'local',
      room: f.room,
      rule,
      win: t.win,
      period: t.period,
      decision: o.decision as string,
      outcome: o.outcome as string,
      reason: o.reason as string,
      ...tok,
      pct: f.pct,
      pos: f.pos,
      weight: f.weight,
      // A token of the infinite queue (docs/bots.md): never a win, so the model leaves it out of the demand.
      bot: o.bot === true,
      ...(proof === undefined ? {} : { proof }),
      ...(lang === undefined ? {} : { lang }),
      ...(lane === undefined ? {} : { lane }),
      ...variantOf(o),
      ...origin(o),
    },
  };
}
