// Synthetic decision lines: what the edge logs for a queue of N visitors each checking once a window
// (d seconds), at a fixed chance, sampled at `log_sample_rate` as the edge samples (src/core/log/log-sample.ts),
// without running the room: token ids are hashes of (visitor slot, window), so nothing per visitor is
// kept and ten million cost no memory here. Each slot's ticket for window k is id(slot, k); it draws
// in window k: a loser gets id(slot, k + 1), the successor named when id(slot, k) was issued; a winner
// is admitted (always logged) and a new visitor takes the slot with id(slot, k + 2), so the queue
// stays at N. Admitted visitors browse on their allow token once a window for `sessionWindows`.
// Read by `npm run bench:ingest` (control-ingest.ts) and its test.
import { decisionLine, logWeight } from '../src/core/log/index.js';
import type { DecideResult } from '../src/core/decision/index.js';

export interface IngestOptions {
  /** Waiting visitors (slots). */
  visitors: number;
  /** The window, seconds. */
  d: number;
  /** log_sample_rate at the edge (0 < r <= 1). */
  rate: number;
  /** Admissions a window the fixed chance aims at. */
  admitsPerWindow: number;
  /** Epoch ms of window 0's start (a multiple of d). */
  startMs: number;
  pops?: readonly string[];
  /** Windows an admitted visitor keeps browsing (one allow line a window). */
  sessionWindows?: number;
  room?: string;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const DEFAULT_POPS = ['LHR', 'FRA', 'IAD', 'SJC', 'NRT', 'SYD'];

function mix(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

/** 24 bits as 4 base64url characters. */
const chars24 = (n: number): string =>
  ALPHABET[(n >>> 18) & 63]! + ALPHABET[(n >>> 12) & 63]! + ALPHABET[(n >>> 6) & 63]! + ALPHABET[n & 63]!;

/** The token id of slot `slot`'s ticket for window `k` (`salt` tells kinds apart): 48 hashed bits. */
export function slotId(slot: number, k: number, salt = 0): string {
  const a = mix(slot * 0x9e3779b1 + k * 0x85ebca6b + salt);
  const b = mix(a ^ (k + 0x27d4eb2f) ^ Math.imul(slot, 0x165667b1));
  return chars24(a >>> 8) + chars24(b >>> 8);
}

/** The draw number of an id (its 48 bits / 2^48), as the edge and the controller read it. */
function drawOf(id: string): number {
  let n = 0;
  for (const c of id) n = n * 64 + ALPHABET.indexOf(c);
  return n / 2 ** 48;
}

const token = (id: string): string => `h.p.${id}`;

export class IngestLines {
  readonly chance: number;
  private readonly pops: readonly string[];
  /** Allow-token ids admitted, by window, for the browsing lines. */
  private readonly admitted = new Map<number, string[]>();

  constructor(readonly o: IngestOptions) {
    this.chance = Math.min(1, o.admitsPerWindow / o.visitors);
    this.pops = o.pops ?? DEFAULT_POPS;
  }

  private line(
    nowMs: number,
    slot: number,
    reason: string,
    outcome: 'origin' | 'keepwaiting' | 'startwaiting',
    result: Pick<DecideResult, 'used' | 'set' | 'setToken' | 'nextToken' | 'pct'>,
  ): string | null {
    const full = { ...result, outcome } as Pick<DecideResult, 'used' | 'set' | 'setToken' | 'outcome'>;
    const weight = logWeight(full, this.o.rate);
    if (weight === null) return null;
    return decisionLine({
      nowMs,
      pop: this.pops[slot % this.pops.length]!,
      room: this.o.room ?? 'default',
      rule: null,
      waitPeriodSeconds: this.o.d,
      decision: outcome === 'origin' ? 'allow' : reason === 'no_token' ? 'start' : 'wait',
      outcome,
      reason: reason as never,
      kid: 'key1',
      method: 'GET',
      path: '/',
      identity: 'ip',
      status: 200,
      weight,
      result,
    });
  }

  /**
   * The lines of window k in time order, in chunks of at most `chunk` (the edge's log of that window,
   * every POP's interleaved), with how many decisions they stand for.
   */
  *window(k: number, chunk = 20_000): Generator<{ lines: string[]; lastMs: number }> {
    const { d, visitors: n } = this.o;
    const w = this.o.startMs / 1000 + k * d;
    const p = this.chance;
    const pct = 100 * p;
    const winners: string[] = [];
    const browsing: string[] = [];
    for (let j = 1; j <= (this.o.sessionWindows ?? 10); j++) browsing.push(...(this.admitted.get(k - j) ?? []));
    let out: string[] = [];
    let lastMs = w * 1000;
    for (let slot = 0; slot < n; slot++) {
      const nowMs = w * 1000 + Math.floor((slot * d * 1000) / n);
      lastMs = nowMs;
      // The slot's ticket of the window before won: its new visitor's ticket is for the next window.
      if (k > 0 && drawOf(slotId(slot, k - 1)) < p) continue;
      const id = slotId(slot, k);
      const used = { token: token(id), dec: 'wait' as const, exp: w };
      let text: string | null;
      if (drawOf(id) < p) {
        const allow = slotId(slot, k, 7);
        winners.push(allow);
        text = this.line(nowMs, slot, 'draw_won', 'origin', {
          used,
          setToken: token(allow),
          set: { dec: 'allow', exp: w + 600 },
          nextToken: null,
          pct,
        });
        if (text !== null) out.push(text);
        // A new visitor takes the slot: a ticket for the window after next, and its successor.
        const fresh = slotId(slot, k + 2);
        text = this.line(nowMs, slot, 'no_token', 'startwaiting', {
          used: null,
          setToken: token(fresh),
          set: { dec: 'wait', exp: w + 2 * d },
          nextToken: token(slotId(slot, k + 3)),
          pct: null,
        });
      } else {
        const next = slotId(slot, k + 1);
        text = this.line(nowMs, slot, 'draw_lost', 'keepwaiting', {
          used,
          setToken: token(next),
          set: { dec: 'wait', exp: w + d },
          nextToken: token(slotId(slot, k + 2)),
          pct,
        });
      }
      if (text !== null) out.push(text);
      // Admitted visitors browse: one allow line each a window, spread like the draws.
      if (browsing.length > 0 && slot % Math.max(1, Math.floor(n / browsing.length)) === 0) {
        const b = browsing.pop()!;
        const allowLine = this.line(nowMs, slot, 'allow_valid', 'origin', {
          used: { token: token(b), dec: 'allow', exp: w + 600 },
          setToken: null,
          set: null,
          nextToken: null,
          pct: null,
        });
        if (allowLine !== null) out.push(allowLine);
      }
      if (out.length >= chunk) {
        yield { lines: out, lastMs };
        out = [];
      }
    }
    this.admitted.set(k, winners);
    this.admitted.delete(k - 1 - (this.o.sessionWindows ?? 10));
    if (out.length > 0) yield { lines: out, lastMs };
  }
}
