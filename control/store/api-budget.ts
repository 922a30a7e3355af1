// The controller's one budget of Fastly API calls an hour, shared by its reads, writes, heartbeats and
// the starts of `fastly log-tail` (docs/control/budget.md#writes-and-the-budget). It counts every call in the
// trailing hour, gives the spacing the writes may have now (what the budget leaves after the planned
// reads and heartbeats and the log-tail starts of the last hour, spread over the hour), says when a
// call outside the writes' spacing (a log-tail start) must wait, and counts such a call as it goes (its
// outcome settled later), reads the API's rate-limit headers from each answer (when the token has
// fewer calls left than the hour needs, because the operator's `npm run tune` or another tool spent
// them, it slows down: that is how the token is shared), and on a 429 backs off until the reset the
// API names, holds and says so once. Its hour, back-off and token figures are saved with the state
// file and restored after a restart (saved/restore). Pure: time comes from its arguments.
import type { CallKind, StoreCall } from './api-call.js';
import type { ApiStatus } from '../types.js';

// The calls it counts: defined beside it, and named here too for the modules that take both.
export {
  ApiError,
  callKind,
  cliRateLimited,
  outcomeUnknown,
  rateLimitOf,
  retryDelayMs,
  type CallKind,
  type CallReporter,
  type StoreCall,
} from './api-call.js';

/** Calls an hour by default: see docs/control/budget.md#writes-and-the-budget for why 300. */
export const DEFAULT_API_BUDGET = 300;
/** How often the controller reads the settings on Fastly by default, ms: one call a minute. */
export const DEFAULT_READ_EVERY_MS = 60_000;
/** Calls of the token's remaining ones the controller never spends: the operator's tune, a deploy. */
export const RESERVED_CALLS = 20;
/** Back off this long after a 429 that names no reset and no Retry-After, ms. */
export const DEFAULT_BACKOFF_MS = 60_000;

const HOUR_MS = 3_600_000;

/** A call counted when it went, whose outcome comes later (a start of `fastly log-tail`: its first line, 10 s, or its exit). */
export interface PendingCall {
  /** Its outcome: the rate-limit figures and a 429 are taken as record() takes them; the call is counted already. */
  settle(call: StoreCall, nowMs: number): void;
  /** It never went (the CLI could not be spawned): no longer counted. */
  cancel(): void;
}

/** A call outside the writes' spacing that may go now (counted from now), or until when it waits and why. */
export type CallTake = { go: PendingCall } | { wait: { untilMs: number; why: string } };

/** What the state file keeps of the budget (state-file.ts), so a restart neither forgets the hour's calls nor a 429. */
export interface BudgetSaved {
  /** The calls of the trailing hour when saved, oldest first. */
  calls: { atMs: number; kind: CallKind; calls: number }[];
  /** The 429 back-off's end, ms since the epoch, or null. */
  backoffUntilMs: number | null;
  /** The token's remaining calls and their reset (ms since the epoch), as the API last said; null: not known. */
  remaining: number | null;
  resetMs: number | null;
}

/** A budget waiting for room in the trailing hour keeps the first freed call this long past when it frees, ms. */
const CLAIM_GRACE_MS = 5_000;

export interface ApiBudgetOptions {
  /** Calls an hour at most, reads, writes, heartbeats and log-tail starts together. */
  perHour: number;
  /** The planned read interval, ms; 0: the store is a local file, its reads cost nothing. */
  readEveryMs: number;
  /** The planned heartbeat interval when nothing else is written, ms (null: none planned). */
  heartbeatEveryMs?: number | null;
  log: (message: string) => void;
}

export class ApiBudget {
  readonly perHour: number;
  private calls: { atMs: number; kind: CallKind; calls: number }[] = [];
  /** Calls a start waiting for room in the hour has claimed (callers other than it see that much less room), until when. */
  private claim: { calls: number; untilMs: number } | null = null;
  /** Counts every change worth saving (a call, a 429): the state file is saved again when it moves. */
  changes = 0;
  private remaining: number | null = null;
  private resetMs: number | null = null;
  private backoffUntil: number | null = null;
  private toldBackoff = false;
  private toldSlow = false;
  /** When the last write call went, and what it cost: the next waits cost x spacing. */
  private lastWrite: { atMs: number; calls: number } | null = null;

  constructor(private readonly o: ApiBudgetOptions) {
    this.perHour = o.perHour;
  }

  get readEveryMs(): number {
    return this.o.readEveryMs;
  }

  /** Calls an hour the plan sets aside for reads and heartbeats. */
  private get plannedOthers(): number {
    const reads = this.o.readEveryMs > 0 ? HOUR_MS / this.o.readEveryMs : 0;
    const beats = this.o.heartbeatEveryMs ? HOUR_MS / this.o.heartbeatEveryMs : 0;
    return reads + beats;
  }

  /** Takes one call's outcome: counts it, reads its rate-limit headers, backs off on a 429. */
  record(call: StoreCall, nowMs: number): void {
    if (call.calls > 0) this.calls.push({ atMs: nowMs, kind: call.kind, calls: call.calls });
    this.learn(call, nowMs);
  }

  /** What an answer says: the token's remaining calls and reset, and a 429's back-off. */
  private learn(call: StoreCall, nowMs: number): void {
    this.changes++;
    // Calls whose answer gave no figure (the CLI's) still spend the token's remaining ones.
    if (call.remaining !== null) this.remaining = call.remaining;
    else if (this.remaining !== null) this.remaining = Math.max(0, this.remaining - call.calls);
    if (call.resetMs !== null) this.resetMs = call.resetMs;
    if (call.status === 429) {
      const until =
        call.resetMs !== null && call.resetMs > nowMs
          ? call.resetMs
          : nowMs + (call.retryAfterMs ?? DEFAULT_BACKOFF_MS);
      this.backoffUntil = Math.max(this.backoffUntil ?? 0, until);
      if (!this.toldBackoff) {
        this.o.log(
          `the Fastly API answered 429 (its rate limit is spent): calling nothing, holding, until ${new Date(this.backoffUntil).toISOString()} (${call.resetMs !== null ? 'its Fastly-RateLimit-Reset' : call.retryAfterMs !== null ? 'its Retry-After' : 'no reset given: 60 s'}); ` +
            'another tool on the same token may have spent it: check with `fastly` what else runs, or lower --api-budget',
        );
        this.toldBackoff = true;
      }
    }
  }

  /** A write call goes now, costing `calls`: the next waits that many spacings. */
  noteWrite(nowMs: number, calls: number): void {
    this.lastWrite = { atMs: nowMs, calls };
  }

  /** The 429 back-off in force at `nowMs`, or null; said again once it ends. */
  backoff(nowMs: number): number | null {
    if (this.backoffUntil !== null && nowMs >= this.backoffUntil) {
      this.backoffUntil = null;
      if (this.toldBackoff) this.o.log('the Fastly API rate limit has reset: calling it again');
      this.toldBackoff = false;
      // The remaining count the 429 gave is of the hour before the reset.
      this.remaining = null;
    }
    return this.backoffUntil;
  }

  /** Calls in the trailing hour, by kind. */
  used(nowMs: number): ApiStatus['usedLastHour'] {
    while (this.calls.length > 0 && this.calls[0]!.atMs <= nowMs - HOUR_MS) this.calls.shift();
    const out = { reads: 0, writes: 0, heartbeats: 0, logTails: 0 };
    for (const c of this.calls) out[USED[c.kind]] += c.calls;
    return out;
  }

  private usedTotal(nowMs: number): number {
    const u = this.used(nowMs);
    return u.reads + u.writes + u.heartbeats + u.logTails;
  }

  /**
   * The spacing of the budget alone: what is left of the hour after the planned reads and heartbeats
   * and the log-tail starts of the trailing hour (unplanned: a log-tail that keeps failing is
   * restarted up to 120 times an hour, and the writes make room for it).
   */
  budgetIntervalMs(nowMs: number): number {
    return HOUR_MS / Math.max(1, this.perHour - this.plannedOthers - this.used(nowMs).logTails);
  }

  /**
   * The spacing between writes now, ms: the budget's, or longer when the token's remaining calls (as
   * the API last said) would not last until its reset at that pace.
   */
  writeIntervalMs(nowMs: number): number {
    return Math.max(this.budgetIntervalMs(nowMs), this.tokenIntervalMs(nowMs) ?? 0);
  }

  /** The spacing the token's remaining calls allow until the reset, or null when they are no limit. */
  private tokenIntervalMs(nowMs: number): number | null {
    if (this.remaining === null || this.resetMs === null || this.resetMs <= nowMs) return null;
    const left = this.resetMs - nowMs;
    const others = (this.plannedOthers * left) / HOUR_MS;
    const writes = this.remaining - RESERVED_CALLS - others;
    const atBudget = left / this.budgetIntervalMs(nowMs);
    if (writes >= atBudget) return null;
    // Nothing to spare: the writes wait for the reset.
    return writes < 1 ? left : left / writes;
  }

  /**
   * Null when a write costing `calls` may go now; else why not. Writes are spaced by the interval
   * in force, weighted by what the last write cost, and never take the trailing hour past the budget.
   */
  writeWait(nowMs: number, calls: number): string | null {
    const backoff = this.backoff(nowMs);
    if (backoff !== null)
      return `the Fastly API rate limit is spent (429): backing off until ${new Date(backoff).toISOString()}`;
    const spacing = this.writeIntervalMs(nowMs);
    if (this.lastWrite !== null && nowMs < this.lastWrite.atMs + this.lastWrite.calls * spacing) {
      return this.slowWhy(nowMs);
    }
    if (this.usedTotal(nowMs) + this.claimed(nowMs) + calls > this.perHour)
      return `the budget of ${this.perHour} API calls an hour is spent for now (--api-budget)`;
    return null;
  }

  /**
   * One call outside the writes' spacing (a start of `fastly log-tail`): when callWait lets it go, it is
   * counted at once, before its outcome is known, so no read or write can pass its own check meanwhile
   * and take the hour past the budget; its outcome is settled on the PendingCall. When the hour has no
   * room, the first call it frees is kept for this one (writes and reads see that much less room until
   * it takes it, or a few seconds after it frees when it never comes back).
   */
  take(nowMs: number, kind: CallKind, calls = 1): CallTake {
    const wait = this.waitOf(nowMs, calls);
    if (wait !== null) {
      if (wait.full) this.claim = { calls, untilMs: wait.untilMs + CLAIM_GRACE_MS };
      return { wait: { untilMs: wait.untilMs, why: wait.why } };
    }
    this.claim = null;
    const entry = { atMs: nowMs, kind, calls };
    this.calls.push(entry);
    this.changes++;
    let open = true;
    return {
      go: {
        settle: (call, atMs) => {
          if (!open) return;
          open = false;
          this.learn({ ...call, calls }, atMs);
        },
        cancel: () => {
          if (!open) return;
          open = false;
          this.calls = this.calls.filter((c) => c !== entry);
          this.changes++;
        },
      },
    };
  }

  /** Calls claimed by a start waiting for room, at `nowMs` (0: none). */
  private claimed(nowMs: number): number {
    if (this.claim !== null && nowMs > this.claim.untilMs) this.claim = null;
    return this.claim?.calls ?? 0;
  }

  /**
   * Null when one call outside the writes' spacing (a start of `fastly log-tail`) may go now; else
   * until when it waits and why: a 429's back-off, the trailing hour's budget spent, or a call that
   * would take the token (as the API last said) into the RESERVED_CALLS kept for the operator.
   */
  callWait(nowMs: number, calls = 1): { untilMs: number; why: string } | null {
    const wait = this.waitOf(nowMs, calls);
    return wait === null ? null : { untilMs: wait.untilMs, why: wait.why };
  }

  /** callWait's answer, and whether it waits for room in the trailing hour (`full`). */
  private waitOf(nowMs: number, calls: number): { untilMs: number; why: string; full?: true } | null {
    const backoff = this.backoff(nowMs);
    if (backoff !== null) return { untilMs: backoff, why: 'the Fastly API rate limit is spent (429)' };
    const over = this.usedTotal(nowMs) + calls - this.perHour;
    if (over > 0) {
      // Until enough of the oldest calls have left the trailing hour.
      let freed = 0;
      const first = this.calls.find((c) => (freed += c.calls) >= over);
      return {
        untilMs: (first?.atMs ?? nowMs) + HOUR_MS,
        why: `the budget of ${this.perHour} API calls an hour is spent for now (--api-budget)`,
        full: true,
      };
    }
    if (
      this.remaining !== null &&
      this.resetMs !== null &&
      this.resetMs > nowMs &&
      this.remaining - calls < RESERVED_CALLS
    ) {
      return {
        untilMs: this.resetMs,
        why: `the API token has ${this.remaining} calls left until its reset, all kept for the operator`,
      };
    }
    return null;
  }

  /** Why the writes are spaced as they are, in a sentence. */
  private slowWhy(nowMs: number): string {
    const token = this.tokenIntervalMs(nowMs);
    const budget = this.budgetIntervalMs(nowMs);
    if (token !== null && token > budget) {
      if (!this.toldSlow)
        this.o.log(
          `the API token has ${this.remaining} calls left until ${new Date(this.resetMs!).toISOString()} (another tool spends it too): writing a call every ${fmt(token)} s instead of ${fmt(budget)} s`,
        );
      this.toldSlow = true;
      return `the API token has ${this.remaining} calls left until its reset: a call every ${fmt(token)} s`;
    }
    this.toldSlow = false;
    const logTails = this.used(nowMs).logTails;
    const less = `a read every ${fmt(this.o.readEveryMs)} s${logTails > 0 ? ` and ${logTails} log-tail start${logTails === 1 ? '' : 's'} in the last hour` : ''}`;
    return `the API budget allows a write every ${fmt(budget)} s (${this.perHour} calls an hour, --api-budget, less ${less})`;
  }

  /** A read may go now: no 429 back-off, and one more call keeps the trailing hour within the budget (reads included). */
  readAllowed(nowMs: number): boolean {
    return this.backoff(nowMs) === null && this.usedTotal(nowMs) + this.claimed(nowMs) + 1 <= this.perHour;
  }

  /** What the state file keeps: the trailing hour's calls, the back-off, the token's figures. */
  saved(nowMs: number): BudgetSaved {
    this.used(nowMs);
    return {
      calls: this.calls.map((c) => ({ ...c })),
      backoffUntilMs: this.backoffUntil,
      remaining: this.remaining,
      resetMs: this.resetMs,
    };
  }

  /**
   * Goes on from a saved budget (a restart): its calls of the trailing hour are counted beside the ones
   * made since the start, a back-off still in force holds (said once), and the token's figures stand
   * until their reset.
   */
  restore(saved: BudgetSaved, nowMs: number): void {
    const since = this.calls;
    this.calls = [
      ...saved.calls.filter((c) => c.atMs > nowMs - HOUR_MS && c.calls > 0).map((c) => ({ ...c })),
      ...since,
    ].sort((a, b) => a.atMs - b.atMs);
    if (saved.resetMs !== null && saved.resetMs > nowMs && this.resetMs === null) {
      this.resetMs = saved.resetMs;
      // The calls made since the start spent the token's remaining ones too.
      if (saved.remaining !== null)
        this.remaining = Math.max(0, saved.remaining - since.reduce((n, c) => n + c.calls, 0));
    }
    if (saved.backoffUntilMs !== null && saved.backoffUntilMs > nowMs) {
      this.backoffUntil = Math.max(this.backoffUntil ?? 0, saved.backoffUntilMs);
      if (!this.toldBackoff) {
        this.o.log(
          `the state file says the Fastly API answered 429 before the restart: calling nothing, holding, until ${new Date(this.backoffUntil).toISOString()}; ` +
            'another tool on the same token may have spent it: check with `fastly` what else runs, or lower --api-budget',
        );
        this.toldBackoff = true;
      }
    }
    this.changes++;
  }

  status(nowMs: number, lastReadMs: number): ApiStatus {
    const backoffUntilMs = this.backoff(nowMs);
    return {
      perHour: this.perHour,
      usedLastHour: this.used(nowMs),
      remaining: this.remaining,
      backoffUntilMs,
      why:
        backoffUntilMs !== null
          ? `backing off after a 429 until ${new Date(backoffUntilMs).toISOString()}`
          : this.slowWhy(nowMs),
      nextReadMs:
        this.o.readEveryMs > 0 && Number.isFinite(lastReadMs)
          ? Math.max(lastReadMs + this.o.readEveryMs, backoffUntilMs ?? 0)
          : null,
    };
  }
}

/** The dashboard's count each kind of call goes to. */
const USED: Record<CallKind, keyof ApiStatus['usedLastHour']> = {
  read: 'reads',
  write: 'writes',
  heartbeat: 'heartbeats',
  'log-tail': 'logTails',
};

const fmt = (ms: number): string => String(Math.round(ms / 100) / 10);
