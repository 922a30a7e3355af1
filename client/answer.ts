// What one answer to a check is: the room's own (its JSON `waitingRoom`), a 429 or 503 to come back
// from later, or the origin's answer, which is the visitor's turn. Read as the waiting page reads it
// (pages/parts/waiting.js): an answer without the room's body is the origin's.
import type { AnswerText, Lane, ProofAsked, RoomAnswer } from './types.js';

export type Reading =
  | { kind: 'room'; answer: RoomAnswer }
  /** A 429, or a 502, 503 or 504 without the room's body: come back at Retry-After. */
  | { kind: 'busy'; answer: RoomAnswer | null }
  | { kind: 'turn' };

const STATUSES: readonly RoomAnswer['status'][] = ['startwaiting', 'keepwaiting', 'prequeue', 'deny'];
/** Statuses that say "later" even without the room's body (a proxy's, a platform's). */
const LATER = new Set([429, 502, 503, 504]);

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const record = (v: unknown): Record<string, unknown> | null =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/** `lane` (its id) and `laneName`; null in the general lane. */
function laneOf(w: Record<string, unknown>): Lane | null {
  const id = str(w.lane);
  return id ? { id, name: str(w.laneName) || id } : null;
}

function textOf(v: unknown): AnswerText | null {
  const r = record(v);
  if (r === null) return null;
  const out: Record<string, string | null> = {};
  for (const k of [
    'title',
    'placeAhead',
    'turnIn',
    'waitSummary',
    'wait25',
    'wait50',
    'wait75',
    'startsIn',
    'message',
    'lane',
  ])
    out[k] = null;
  for (const [k, x] of Object.entries(r)) out[k] = str(x);
  return out as AnswerText;
}

function proofOf(w: Record<string, unknown>): ProofAsked | null | undefined {
  if (!('proof' in w)) return undefined;
  const p = record(w.proof);
  if (p === null || !Array.isArray(p.challenges) || p.challenges.length === 0) return null;
  return {
    scheme: str(p.scheme) ?? 'altcha-v2',
    header: str(p.header) ?? 'waiting-room-proof',
    seconds: num(p.seconds) ?? 0,
    counters: num(p.counters) ?? 0,
    challenges: p.challenges as ProofAsked['challenges'],
  };
}

/** The room's `waitingRoom` object read field by field; null when it does not say the visitor waits. */
export function answerFrom(waitingRoom: unknown): RoomAnswer | null {
  const w = record(waitingRoom);
  if (w === null || w.inWaitingRoom !== true) return null;
  const given = str(w.status) as RoomAnswer['status'] | null;
  return {
    // A status this client does not know yet still says "in the waiting room": wait, never walk in.
    status: given !== null && STATUSES.includes(given) ? given : 'keepwaiting',
    retryAfterSeconds: num(w.retryAfterSeconds),
    refreshIntervalSeconds: num(w.refreshIntervalSeconds),
    jitterSeconds: num(w.jitterSeconds),
    waitTime25PercentileSeconds: num(w.waitTime25PercentileSeconds),
    waitTime50PercentileSeconds: num(w.waitTime50PercentileSeconds),
    waitTime75PercentileSeconds: num(w.waitTime75PercentileSeconds),
    waitTimePending: w.waitTimePending === true,
    allowPercentage: num(w.allowPercentage),
    chancePercentage: num(w.chancePercentage),
    chanceSource: str(w.chanceSource),
    queueingMethod: str(w.queueingMethod),
    eventStart: str(w.eventStart),
    startsInSeconds: num(w.startsInSeconds),
    placeQueue: str(w.placeQueue),
    visitorsAhead: num(w.visitorsAhead),
    turnInSeconds: num(w.turnInSeconds),
    lane: laneOf(w),
    message: str(w.message) ?? '',
    language: str(w.language),
    languages: Array.isArray(w.languages) ? w.languages.filter((l): l is string => typeof l === 'string') : [],
    text: textOf(w.text),
    proof: proofOf(w),
    hammering: w.hammering === true,
    raw: w,
  };
}

/** Reads `response` without consuming it: a turn's response goes to the app untouched. */
export async function readResponse(response: Response): Promise<Reading> {
  let answer: RoomAnswer | null = null;
  if (/json/i.test(response.headers.get('content-type') ?? '')) {
    try {
      answer = answerFrom(record(await response.clone().json())?.waitingRoom);
    } catch {
      // Not JSON after all: not the room's (the room's answers always parse).
    }
  }
  if (response.status === 429 || (answer === null && LATER.has(response.status))) return { kind: 'busy', answer };
  return answer === null ? { kind: 'turn' } : { kind: 'room', answer };
}
