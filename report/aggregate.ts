// The decision log, line by line, into per-minute figures: admissions, waiting visitors, waits lived,
// leavers and the chance the draws used, per room and per POP; and per room the languages the waiting
// visitors were answered in. Memory stays bounded whatever the file's
// size: per-minute aggregates (a histogram for the waits), and per-ticket state only for the tickets
// still alive, forgotten when their cohort's grace window has passed as the controller's ledger does
// (control/model/ledger.ts).
import { countLaneAdmission } from './lanes.js';
import { type LogFigures, type MinuteFigures, minuteOf } from './log-figures.js';
import { parseLogLine } from '../control/sources/index.js';
import type { DecisionLine } from '../control/types.js';
import { OriginTally } from './origin.js';
import { inLogSample, isWaitingDecision } from '../src/core/log/index.js';
import { type VariantChain, VariantTally } from './variants.js';

/** Reasons whose allow token starts a session (the ledger's ADMITS). */
const ADMITS = new Set(['draw_won', 'won_admitted', 'allow_all', 'cursor_passed', 'event_passed']);
const DRAWS = new Set(['draw_won', 'draw_lost', 'ceiling_held']);
/** A pre-queue ticket not seen for this long has stopped coming (it has no cohort to close). */
const PRE_IDLE_MS = 10 * 60_000;
/** Lines from several POPs arrive a little out of order: close cohorts this far behind the newest line. */
const SLACK_MS = 60_000;
/** An admitted token is remembered this long, so a repeated line is not a second admission. */
const ADMITTED_MS = 10 * 60_000;
/** Distinct languages kept a room; past them (a forged log), the rest are counted together as `other`. */
const MAX_LANGUAGES = 64;

/**
 * One visitor's wait: the tickets of a chain (a token, the one set in its place, the successor named
 * ahead, a held win) share it, so the visitor is counted once however many tickets they hold. Its
 * variant, fate and fallback are the A/B test's (report/variants.ts).
 */
interface Chain extends VariantChain {
  /** The language the visitor was counted in (their first answer in one), null until then. */
  lang: string | null;
}

interface Ticket {
  /** When the visitor's chain began (their first waiting line), ms; null when it began before the log. */
  startMs: number | null;
  /** Its cohort (epoch s), or null for a pre-queue ticket. */
  exp: number | null;
  period: number;
  lastSeenMs: number;
  drawn: boolean;
  /** The visitor went on under another ticket (a successor, a reissue, an admission). */
  continued: boolean;
  /** How many tickets it stands for: 1/rate of the edge's sample when it was first seen. */
  weight: number;
  /**
   * In the edge's sample (always, unsampled): a ticket's own waiting lines are logged only when its id
   * is, so one first seen in another's line, or in an always-logged line, counts only when it is in it.
   */
  counted: boolean;
  /** The minute it was last counted as waiting in (a pre-queue ticket counts once a minute). */
  countedMinute: number;
  room: string;
  pop: string;
  chain: Chain;
}

export class LogAggregator {
  private readonly tickets = new Map<string, Ticket>();
  /** Successor id named ahead -> the chain it continues. */
  private readonly named = new Map<string, { startMs: number | null; untilMs: number; chain: Chain | undefined }>();
  private readonly admitted = new Map<string, number>();
  private readonly chanceSums = new Map<string, Map<number, { sum: number; n: number }>>();
  /** Room and POP -> the window a cohort waits through (ms, the window before its draw) -> its tickets, weighted. */
  private readonly crowds = {
    rooms: new Map<string, Map<number, number>>(),
    pops: new Map<string, Map<number, number>>(),
  };
  /** Room -> the edge's sample rate, as its waiting lines last said it (1/w); 1 until one does. */
  private readonly rates = new Map<string, number>();
  private readonly figures: LogFigures = {
    firstMs: null,
    lastMs: null,
    lines: { read: 0, used: 0, foreign: 0, previews: 0, bad: 0, otherRooms: 0, noRoom: 0, badWhy: {} },
    sampled: false,
    rooms: new Map(),
    pops: new Map(),
    chances: new Map(),
    languages: new Map(),
    variants: new Map(),
    waitsUnknown: 0,
    lanes: new Map(),
    origin: { rooms: new Map(), unreadable: 0 },
  };
  private readonly origin = new OriginTally();
  private readonly variantTally = new VariantTally();
  private prunedAtMs = 0;

  /** `room`: only that room's lines are counted. `nowMs`: lines dated over a day after it are refused. */
  constructor(private readonly options: { room?: string; nowMs?: number } = {}) {}

  /** One line of the file, whatever it holds: never throws. */
  line(text: string): void {
    const f = this.figures;
    f.lines.read++;
    const verdict = parseLogLine(text, this.options.nowMs ?? Date.now());
    if (verdict.kind === 'foreign') return void f.lines.foreign++;
    if (verdict.kind === 'preview') return void f.lines.previews++;
    if (verdict.kind === 'bad') {
      f.lines.bad++;
      f.lines.badWhy[verdict.why] = (f.lines.badWhy[verdict.why] ?? 0) + 1;
      return;
    }
    const line = verdict.line;
    // The origin's time counts for its room, and a request no room decided for every room (report/origin.ts).
    if (line.room === null || this.options.room === undefined || line.room === this.options.room)
      this.origin.add(line, text);
    if (line.room === null) return void f.lines.noRoom++;
    if (this.options.room !== undefined && line.room !== this.options.room) return void f.lines.otherRooms++;
    f.lines.used++;
    if (line.weight !== 1) f.sampled = true;
    // The edge's rate, as its waiting lines say it (the controller's ledger does the same): a ticket an
    // always-logged line shows first (an admission, a held win) is tracked at it too, not at that line's 1.
    if (isWaitingDecision(line.outcome, line.dec, line.newDec)) this.rates.set(line.room, 1 / line.weight);
    this.observe(line, this.rates.get(line.room) ?? 1);
  }

  private observe(line: DecisionLine, rate: number): void {
    const f = this.figures;
    const ms = line.tsMs;
    if (f.firstMs === null || ms < f.firstMs) f.firstMs = ms;
    if (f.lastMs === null || ms > f.lastMs) f.lastMs = ms;
    const minute = Math.floor(ms / 60_000) * 60_000;
    const room = minuteOf(f.rooms, line.room!, minute);
    const pop = minuteOf(f.pops, line.pop, minute);
    room.lines++;
    pop.lines++;
    const both = (fn: (m: MinuteFigures) => void): void => (fn(room), fn(pop));

    const used = line.tid === null ? undefined : this.tickets.get(line.tid);
    // The chain this line belongs to: the ticket used, else one named ahead as its successor.
    const named = used === undefined && line.tid !== null ? this.named.get(line.tid) : undefined;
    // (null: a chain that began before the log; undefined: none known.)
    const startMs: number | null | undefined = used !== undefined ? used.startMs : named?.startMs;
    let chain: Chain | undefined = used?.chain ?? named?.chain;
    const waitingKind = (dec: DecisionLine['dec']): boolean => dec === 'wait' || dec === 'pre';

    if (line.tid !== null && waitingKind(line.dec)) {
      // A ticket first seen in use: its chain began before the log (or before a gap in it).
      const t = used ?? this.ticket(line.tid, startMs ?? null, line, line.exp, line.dec === 'pre', rate, chain);
      chain = t.chain;
      t.lastSeenMs = Math.max(t.lastSeenMs, ms);
      if (t.exp === null && t.counted && t.countedMinute !== minute) {
        t.countedMinute = minute;
        both((m) => (m.waiting += t.weight));
      }
      if (DRAWS.has(line.reason) && !t.drawn) {
        t.drawn = true;
        if (t.counted) both((m) => (m.draws += t.weight));
        if (line.pct !== null) this.chance(line.room!, line.win, line.pct);
      }
    }
    if (line.newTid !== null && waitingKind(line.newDec) && line.newTid !== line.tid) {
      if (used !== undefined) used.continued = true;
      // Someone who held nothing starts a chain here; a holder's new ticket goes on with theirs.
      const start = line.dec === null ? ms : (startMs ?? null);
      const t =
        this.tickets.get(line.newTid) ??
        this.ticket(line.newTid, start, line, line.newExp, line.newDec === 'pre', rate, chain);
      chain ??= t.chain;
      t.lastSeenMs = Math.max(t.lastSeenMs, ms);
      // A pre-queue newcomer waits from this line on (a wait ticket counts in its cohort's crowd).
      if (t.exp === null && line.dec === null && t.counted && t.countedMinute !== minute) {
        t.countedMinute = minute;
        both((m) => (m.waiting += t.weight));
      }
      if (line.nextTid !== null)
        this.named.set(line.nextTid, {
          startMs: t.startMs,
          untilMs: ms + 3 * line.period * 1000 + SLACK_MS,
          chain: t.chain,
        });
    }
    // A win held for later (ceiling_held): the won token goes on with the chain.
    if (line.newDec === 'won' && line.newTid !== null) {
      if (used !== undefined) used.continued = true;
      this.named.set(line.newTid, { startMs: startMs ?? null, untilMs: ms + PRE_IDLE_MS, chain });
    }
    if (line.newDec === 'allow' && line.newTid !== null && ADMITS.has(line.reason) && !this.admitted.has(line.newTid)) {
      if (used !== undefined) used.continued = true;
      this.admit(line, line.newTid, minute, startMs, chain, both);
    }
    if (chain !== undefined) this.traits(line, chain);
    if (ms - this.prunedAtMs >= 10_000) this.prune(ms);
  }

  /** An admission: counted once per allow token, with the wait of the chain that led to it. */
  private admit(
    line: DecisionLine,
    allowTid: string,
    minute: number,
    startMs: number | null | undefined,
    chain: Chain | undefined,
    both: (fn: (m: MinuteFigures) => void) => void,
  ): void {
    const f = this.figures;
    const ms = line.tsMs;
    this.admitted.set(allowTid, ms);
    both((m) => m.admissions++);
    countLaneAdmission(f.lanes, line.room!, minute, line.lane);
    const wait = startMs === null || startMs === undefined ? null : Math.max(0, (ms - startMs) / 1000);
    if (line.dec === null) both((m) => m.straightIn++);
    else if (wait === null) f.waitsUnknown++;
    else both((m) => m.waits.add(wait));
    if (chain !== undefined && line.dec !== null) this.variantTally.admitted(line.room!, chain, wait);
  }

  /** What a waiting visitor's line says of them: their language and their variant of the waiting page. */
  private traits(line: DecisionLine, chain: Chain): void {
    // The first answer of theirs that names a language (the origin's names none): a visitor, not a request.
    if (line.lang !== undefined && chain.lang === null) {
      chain.lang = line.lang;
      if (chain.weight > 0) this.language(line.room!, line.lang, chain.weight);
    }
    // Their variant of the waiting page (an A/B test), found as the language is.
    if (line.variant !== undefined) this.variantTally.seen(line.room!, line, chain);
  }

  private language(room: string, tag: string, weight: number): void {
    let byTag = this.figures.languages.get(room);
    if (byTag === undefined) this.figures.languages.set(room, (byTag = new Map()));
    const key = byTag.has(tag) || byTag.size < MAX_LANGUAGES ? tag : 'other';
    byTag.set(key, (byTag.get(key) ?? 0) + weight);
  }

  /** A ticket first seen: it goes on with `chain`, or starts a visitor's chain of its own. */
  private ticket(
    tid: string,
    startMs: number | null,
    line: DecisionLine,
    exp: number | null,
    pre: boolean,
    rate: number,
    chain: Chain | undefined,
  ): Ticket {
    const counted = rate >= 1 || inLogSample(tid, rate);
    const t: Ticket = {
      startMs,
      exp: pre ? null : exp,
      period: line.period,
      lastSeenMs: line.tsMs,
      drawn: false,
      continued: false,
      weight: 1 / rate,
      counted,
      countedMinute: -1,
      room: line.room!,
      pop: line.pop,
      chain: chain ?? { weight: counted ? 1 / rate : 0, lang: null, variant: null, fate: null, fellBack: false },
    };
    this.tickets.set(tid, t);
    // A wait ticket joins its cohort's crowd once: the visitors waiting through the window before its draw.
    if (t.exp !== null && t.counted) {
      const windowMs = (t.exp - t.period) * 1000;
      for (const [byKey, key] of [
        [this.crowds.rooms, t.room],
        [this.crowds.pops, t.pop],
      ] as const) {
        let byWindow = byKey.get(key);
        if (byWindow === undefined) byKey.set(key, (byWindow = new Map()));
        byWindow.set(windowMs, (byWindow.get(windowMs) ?? 0) + t.weight);
      }
    }
    return t;
  }

  private chance(room: string, win: number, pct: number): void {
    let byWin = this.chanceSums.get(room);
    if (byWin === undefined) this.chanceSums.set(room, (byWin = new Map()));
    const c = byWin.get(win) ?? { sum: 0, n: 0 };
    c.sum += pct;
    c.n++;
    byWin.set(win, c);
  }

  /** Close the tickets that can no longer be drawn: their cohort's grace window has passed. */
  private prune(nowMs: number): void {
    this.prunedAtMs = nowMs;
    const behind = nowMs - SLACK_MS;
    for (const [id, t] of this.tickets) {
      const over = t.exp === null ? t.lastSeenMs + PRE_IDLE_MS < behind : (t.exp + 2 * t.period) * 1000 < behind;
      if (over) this.close(id, t);
    }
    for (const [id, n] of this.named) if (n.untilMs < behind) this.named.delete(id);
    for (const [id, atMs] of this.admitted) if (atMs + ADMITTED_MS < behind) this.admitted.delete(id);
  }

  private close(id: string, t: Ticket): void {
    this.tickets.delete(id);
    if (t.drawn || t.continued || !t.counted) return;
    const minute = Math.floor(t.lastSeenMs / 60_000) * 60_000;
    // A ticket in the sample is seen in the line that set it whatever the id before it (the edge logs a
    // waiting line when either id is in), so its holder's never coming back stands for `weight` leavers.
    minuteOf(this.figures.rooms, t.room, minute).leavers += t.weight;
    minuteOf(this.figures.pops, t.pop, minute).leavers += t.weight;
    this.variantTally.left(t.room, t.chain);
  }

  /** Each minute's waiting visitors: its largest window crowd, within the log's span (a ticket first seen in use waited before it). */
  private addCrowds(): void {
    const f = this.figures;
    if (f.firstMs === null || f.lastMs === null) return;
    const from = Math.floor(f.firstMs / 60_000) * 60_000;
    for (const [figures, crowds] of [
      [f.rooms, this.crowds.rooms],
      [f.pops, this.crowds.pops],
    ] as const) {
      for (const [key, byWindow] of crowds) {
        const most = new Map<number, number>();
        for (const [windowMs, n] of byWindow) {
          const minute = Math.floor(windowMs / 60_000) * 60_000;
          if (minute >= from && windowMs <= f.lastMs) most.set(minute, Math.max(most.get(minute) ?? 0, n));
        }
        for (const [minute, n] of most) minuteOf(figures, key, minute).waiting += n;
      }
      crowds.clear();
    }
  }

  /** Per-ticket state held now (for the bounded-memory test). */
  get live(): number {
    return this.tickets.size + this.named.size + this.admitted.size;
  }

  /** The figures, once every line is in: tickets still open at the end are neither leavers nor admitted. */
  finish(): LogFigures {
    this.addCrowds();
    this.figures.origin = this.origin.finish(this.figures.rooms.keys());
    this.figures.variants = this.variantTally.rooms;
    for (const [room, byWin] of this.chanceSums) {
      const out = new Map<number, number>();
      for (const [win, c] of [...byWin].sort((a, b) => a[0] - b[0])) out.set(win, c.sum / c.n);
      this.figures.chances.set(room, out);
    }
    return this.figures;
  }
}
