// A made decision log for the report's tests: visitors arrive, wait for their window's draw, win or
// lose (a loser goes on under the successor named ahead), some leave; decision lines as the edge
// writes it, in time order. Optionally sampled as the edge samples (src/core/log/log-sample.ts logWeight): a
// waiting line is kept when the id of the token it used or of the one it set is in the sample, with its
// weight in `w`; every other line is kept.
import { logWeight } from '../../src/core/log/log-sample.js';
import type { Outcome, TokenClaims } from '../../src/core/types.js';

/** The fields every decision line has, of a first-time waiting page of `room` at `ms` in windows of `d` seconds. */
const lineBase = (ms: number, pop: string, room: string, d: number): Record<string, unknown> => ({
  wr: 1,
  ts: new Date(ms).toISOString(),
  pop,
  room,
  rule: null,
  win: Math.floor(ms / 1000 / d) * d,
  period: d,
  decision: 'wait',
  outcome: 'startwaiting',
  reason: 'no_token',
  tid: null,
  exp: null,
  dec: null,
  newTid: null,
  newExp: null,
  newDec: null,
  nextTid: null,
  pct: null,
  pos: null,
});

/**
 * One decision line of room `shop` at `ms` as the edge writes it, a first-time waiting page in windows of
 * 20 s unless `f` says otherwise: for the tests that write their lines one by one.
 */
export const rawLine = (ms: number, f: Record<string, unknown>): string =>
  JSON.stringify({ ...lineBase(ms, 'LHR', 'shop', 20), ...f });

export interface MadeLog {
  lines: string[];
  /** What happened, to compare the report with. */
  truth: {
    admissions: number;
    leavers: number;
    waits: number[];
    waitingAtOnce: Map<number, number>;
    languages: Map<string, number>;
    /** Per variant of the waiting page: its visitors, those admitted, those who left, their waits. */
    variants: Map<string, { visitors: number; admitted: number; left: number; waits: number[] }>;
  };
}

export interface MadeLogOptions {
  startMs: number;
  minutes: number;
  /** New visitors a minute (at minute i: arrivals(i)). */
  arrivals: (minute: number) => number;
  /** Admissions a minute the chance is set for. */
  target: number;
  period?: number;
  /** Chance a waiting visitor leaves before each draw. */
  leave?: number;
  room?: string;
  pops?: string[];
  /** log_sample_rate: waiting lines logged only for ids in the sample. */
  sampleRate?: number;
  seed?: number;
  /**
   * The languages newcomers read, with their shares: each visitor's waiting pages carry their `lang`,
   * as the edge writes it (the origin's answers none). Absent: lines without the field, as an older edge.
   */
  languages?: [tag: string, share: number][];
  /**
   * An A/B test of the waiting page: each newcomer gets a variant by its share, named on their waiting
   * lines (`variant`) as the edge names it, and leaves before a draw with the variant's own chance
   * (else `leave`). Absent: lines without the field.
   */
  variants?: { name: string; share: number; leave?: number }[];
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

export function makeLog(o: MadeLogOptions): MadeLog {
  const d = o.period ?? 20;
  const rnd = random(o.seed ?? 1);
  const pops = o.pops ?? ['LHR'];
  const room = o.room ?? 'shop';
  const id = (): string => Array.from({ length: 8 }, () => ALPHABET[Math.floor(rnd() * 64)]).join('');
  const u = (tid: string): number => [...tid].reduce((n, c) => n * 64 + ALPHABET.indexOf(c), 0) / 2 ** 48;
  const lines: { ms: number; text: string }[] = [];
  // waitingAtOnce: minute start -> the most visitors holding a ticket for one draw in it (a window's crowd).
  const truth: MadeLog['truth'] = {
    admissions: 0,
    leavers: 0,
    waits: [],
    waitingAtOnce: new Map(),
    languages: new Map(),
    variants: new Map(),
  };
  const pickVariant = (): string | undefined => {
    if (o.variants === undefined) return undefined;
    let x = rnd();
    for (const v of o.variants) if ((x -= v.share) < 0) return v.name;
    return o.variants.at(-1)!.name;
  };
  const variantTruth = (name: string) => {
    let t = truth.variants.get(name);
    if (t === undefined) truth.variants.set(name, (t = { visitors: 0, admitted: 0, left: 0, waits: [] }));
    return t;
  };
  const leaveChance = (v: { variant: string | undefined }): number =>
    o.variants?.find((x) => x.name === v.variant)?.leave ?? o.leave ?? 0;
  const pickLanguage = (): string | undefined => {
    if (o.languages === undefined) return undefined;
    let x = rnd();
    for (const [tag, share] of o.languages) if ((x -= share) < 0) return tag;
    return o.languages.at(-1)![0];
  };
  const rate = o.sampleRate ?? 1;
  const line = (ms: number, pop: string, f: Record<string, unknown>): void => {
    const o2: Record<string, unknown> = {
      ...lineBase(ms, pop, room, d),
      kid: 'k1',
      method: 'GET',
      path: '/',
      identity: 'ip',
      status: 429,
      ...f,
    };
    // The edge's own rule, on the decision the line tells of (a token id is the 8 characters after its
    // last dot: tokenId).
    const tid = o2.tid as string | null;
    const newTid = o2.newTid as string | null;
    const weight = logWeight(
      {
        outcome: o2.outcome as Outcome,
        used: tid === null ? null : { token: `.${tid}`, dec: o2.dec as TokenClaims['dec'], exp: o2.exp as number },
        set: newTid === null ? null : { dec: o2.newDec as TokenClaims['dec'], exp: o2.newExp as number },
        setToken: newTid === null ? null : `.${newTid}`,
      },
      rate,
    );
    if (weight === null) return;
    if (weight !== 1) o2.w = weight;
    lines.push({ ms, text: JSON.stringify(o2) });
  };
  interface Visitor {
    arrivedMs: number;
    tid: string;
    next: string;
    exp: number;
    pop: string;
    lang: string | undefined;
    variant: string | undefined;
  }
  const langOf = (v: Visitor): Record<string, string> => ({
    ...(v.lang === undefined ? {} : { lang: v.lang }),
    ...(v.variant === undefined ? {} : { variant: v.variant }),
  });
  let waiting: Visitor[] = [];
  const endMs = o.startMs + o.minutes * 60_000;
  for (let w = Math.floor(o.startMs / 1000 / d) * d; w * 1000 < endMs; w += d) {
    const winMs = w * 1000;
    // The draw of window w: every visitor whose ticket expires at w comes back in its first seconds.
    const pct = Math.min(100, waiting.length === 0 ? 100 : ((o.target * d) / 60 / Math.max(1, waiting.length)) * 100);
    const still: Visitor[] = [];
    for (const v of waiting) {
      if (v.exp !== w) {
        still.push(v);
        continue;
      }
      if (rnd() < leaveChance(v)) {
        truth.leavers++;
        if (v.variant !== undefined) variantTruth(v.variant).left++;
        continue;
      }
      const ms = winMs + Math.floor(rnd() * 5000);
      if (u(v.tid) < pct / 100) {
        const allow = id();
        truth.admissions++;
        truth.waits.push((ms - v.arrivedMs) / 1000);
        if (v.variant !== undefined) {
          variantTruth(v.variant).admitted++;
          variantTruth(v.variant).waits.push((ms - v.arrivedMs) / 1000);
        }
        line(ms, v.pop, {
          decision: 'allow',
          outcome: 'origin',
          reason: 'draw_won',
          status: 200,
          tid: v.tid,
          exp: v.exp,
          dec: 'wait',
          newTid: allow,
          newExp: w + 600,
          newDec: 'allow',
          pct,
        });
      } else {
        const next = id();
        line(ms, v.pop, {
          reason: 'draw_lost',
          tid: v.tid,
          exp: v.exp,
          dec: 'wait',
          newTid: v.next,
          newExp: v.exp + d,
          newDec: 'wait',
          nextTid: next,
          pct,
          ...langOf(v),
        });
        still.push({ ...v, tid: v.next, next, exp: v.exp + d });
      }
    }
    waiting = still;
    // Newcomers through the window, each given a ticket for the next window's draw and its successor.
    const perWindow = Math.round((o.arrivals(Math.floor((winMs - o.startMs) / 60_000)) * d) / 60);
    for (let i = 0; i < perWindow; i++) {
      const ms = winMs + Math.floor((i * d * 1000) / Math.max(1, perWindow));
      if (ms >= endMs || ms < o.startMs) continue;
      const v: Visitor = {
        arrivedMs: ms,
        tid: id(),
        next: id(),
        exp: w + d,
        pop: pops[Math.floor(rnd() * pops.length)]!,
        lang: pickLanguage(),
        variant: pickVariant(),
      };
      if (v.lang !== undefined) truth.languages.set(v.lang, (truth.languages.get(v.lang) ?? 0) + 1);
      if (v.variant !== undefined) variantTruth(v.variant).visitors++;
      line(ms, v.pop, { newTid: v.tid, newExp: v.exp, newDec: 'wait', nextTid: v.next, ...langOf(v) });
      waiting.push(v);
    }
    // Everyone still waiting holds exactly one ticket, for the next draw, through this window.
    const minute = Math.floor(winMs / 60_000) * 60_000;
    if (winMs < endMs && waiting.length > 0)
      truth.waitingAtOnce.set(minute, Math.max(truth.waitingAtOnce.get(minute) ?? 0, waiting.length));
  }
  lines.sort((a, b) => a.ms - b.ms);
  return { lines: lines.map((l) => l.text), truth };
}
