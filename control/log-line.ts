// One line of log text -> the room's decision, or why not. Lines come from the local host's output
// (`waiting_room_log :: {...}`), from `fastly log-tail` (the instance's stdout, after its own prefix),
// from a file, or from a batch an HTTPS log endpoint received: whatever precedes the JSON object is
// ignored. Never throws: a line is the room's decision, `foreign` (not the room's at all) or `bad`
// (the room's marker, but unusable), and the caller counts the last two and goes on.
import { DEFAULT_ROOM, ROOM_ID } from '../src/core/settings/index.js';
import type { DecisionLine } from './types.js';

export type LineVerdict = { kind: 'decision'; line: DecisionLine } | { kind: 'foreign' } | { kind: 'bad'; why: string };

const TID = /^[A-Za-z0-9_-]{8}$/;
const DECS = new Set(['wait', 'allow', 'won', 'pre']);
const PROOFS = new Set(['valid', 'wrong', 'failed', 'skipped', 'missing']);
/** A language tag as the room writes one (`de-DE`, `zh-TW`): letters first, then subtags; 35 characters at most. */
const LANG = /^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8}){0,7}$/;
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

export function parseLogLine(text: string, nowMs: number = Date.now()): LineVerdict {
  const start = text.indexOf('{"wr":');
  if (start < 0) return { kind: 'foreign' };
  let o: Record<string, unknown>;
  try {
    const value: unknown = JSON.parse(text.slice(start).trim());
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return { kind: 'bad', why: 'not a JSON object' };
    o = value as Record<string, unknown>;
  } catch {
    return { kind: 'bad', why: 'not valid JSON' };
  }
  if (o.wr !== 1) return { kind: 'bad', why: `unknown line version ${JSON.stringify(o.wr)}` };
  const tsMs = typeof o.ts === 'string' ? Date.parse(o.ts) : Number.NaN;
  if (!(tsMs >= EARLIEST_MS && tsMs <= nowMs + 86_400_000))
    return { kind: 'bad', why: 'ts is missing or not a believable time' };
  const period = o.period;
  if (typeof period !== 'number' || !Number.isSafeInteger(period) || period < 1)
    return { kind: 'bad', why: 'period must be a whole number of seconds' };
  const win = seconds(o.win);
  if (win === null || win === undefined) return { kind: 'bad', why: 'win must be a window start in seconds' };
  for (const f of ['decision', 'outcome', 'reason'] as const)
    if (typeof o[f] !== 'string') return { kind: 'bad', why: `${f} must be a string` };
  const fields = {
    tid: tid(o.tid),
    exp: seconds(o.exp),
    dec: dec(o.dec),
    newTid: tid(o.newTid),
    newExp: seconds(o.newExp),
    newDec: dec(o.newDec),
    nextTid: tid(o.nextTid),
  };
  for (const [name, value] of Object.entries(fields))
    if (value === undefined) return { kind: 'bad', why: `${name} is malformed` };
  const pct =
    o.pct === null || o.pct === undefined
      ? null
      : typeof o.pct === 'number' && o.pct >= 0 && o.pct <= 100
        ? o.pct
        : undefined;
  if (pct === undefined) return { kind: 'bad', why: 'pct must be 0..100' };
  // A place in line (docs/events.md): a position near an epoch second; absent from older lines.
  const pos =
    o.pos === null || o.pos === undefined
      ? null
      : typeof o.pos === 'number' && Number.isFinite(o.pos) && o.pos >= 0 && o.pos < 1e11
        ? o.pos
        : undefined;
  if (pos === undefined) return { kind: 'bad', why: 'pos must be a position (epoch seconds)' };
  // A sampled waiting decision's weight (log_sample_rate r < 1 at the edge: w = 1/r); absent on every other line.
  const weight = o.w === undefined ? 1 : typeof o.w === 'number' && o.w >= 1 && o.w <= 1e9 ? o.w : undefined;
  if (weight === undefined) return { kind: 'bad', why: 'w must be a weight, at least 1 (1/log_sample_rate)' };
  // No `room` at all: an edge from before rooms, whose one room is `default`.
  const room =
    o.room === undefined
      ? DEFAULT_ROOM
      : o.room === null
        ? null
        : typeof o.room === 'string' && ROOM_ID.test(o.room)
          ? o.room
          : undefined;
  if (room === undefined) return { kind: 'bad', why: 'room must be a room id or null' };
  // What a draw's request brought for a proof of work (docs/bots.md); absent when none was asked. A
  // value this reader does not know is left out, not the line: the line still counts its admission.
  const proof =
    typeof o.proof === 'string' && PROOFS.has(o.proof) ? (o.proof as NonNullable<DecisionLine['proof']>) : undefined;
  const rule = typeof o.rule === 'string' ? o.rule.slice(0, 64) : null;
  // The language of the room's own answer; absent from the origin's and from older lines. Something
  // that is no tag is left out, not the line: nothing the controller decides depends on it.
  const lang = typeof o.lang === 'string' && o.lang.length <= 35 && LANG.test(o.lang) ? o.lang : undefined;
  return {
    kind: 'decision',
    line: {
      tsMs,
      pop: typeof o.pop === 'string' && o.pop !== '' ? o.pop.slice(0, 32) : 'local',
      room,
      rule,
      win,
      period,
      decision: o.decision as string,
      outcome: o.outcome as string,
      reason: o.reason as string,
      tid: fields.tid as DecisionLine['tid'],
      exp: fields.exp as DecisionLine['exp'],
      dec: fields.dec as DecisionLine['dec'],
      newTid: fields.newTid as DecisionLine['newTid'],
      newExp: fields.newExp as DecisionLine['newExp'],
      newDec: fields.newDec as DecisionLine['newDec'],
      nextTid: fields.nextTid as DecisionLine['nextTid'],
      pct,
      pos,
      weight,
      // A token of the infinite queue (docs/bots.md): never a win, so the model leaves it out of the demand.
      bot: o.bot === true,
      ...(proof === undefined ? {} : { proof }),
      ...(lang === undefined ? {} : { lang }),
    },
  };
}
