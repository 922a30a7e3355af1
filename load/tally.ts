// Per-minute bookkeeping of a load run. Browsers report events with their time; the tally puts each in
// the minute of the run it fell in (minute 1 is the first 60 s after the start) and derives how many
// visitors were still waiting at each minute's end. Pure: no clock of its own.

export type EventKind = 'arrival' | 'request' | 'admission' | 'gaveUp' | 'left' | 'error';

export interface MinuteRow {
  /** 1-based minute of the run. */
  minute: number;
  arrivals: number;
  requests: number;
  /** First admissions: each visitor counts once, in the minute the room first let them through. */
  admissions: number;
  gaveUp: number;
  /** Admitted visitors who finished their session and left. */
  left: number;
  errors: number;
  /** Arrived, not admitted and not gone, at the minute's end (or at the moment asked, for the running minute). */
  waiting: number;
  /** The target (new_users_per_minute) read during this minute; null when unknown. */
  target: number | null;
}

const emptyCounts = (): Record<EventKind, number> => ({
  arrival: 0,
  request: 0,
  admission: 0,
  gaveUp: 0,
  left: 0,
  error: 0,
});

export class Tally {
  private readonly minutes: Record<EventKind, number>[] = [];
  private readonly targets: (number | null)[] = [];
  /** Errors by cause ("connection refused", "HTTP 502", ...), for the summary. */
  readonly errorCauses = new Map<string, number>();

  constructor(
    readonly startMs: number,
    readonly minuteMs = 60_000,
  ) {}

  /** The 0-based minute an instant falls in; events before the start count in the first. */
  indexOf(atMs: number): number {
    return Math.max(0, Math.floor((atMs - this.startMs) / this.minuteMs));
  }

  add(kind: EventKind, atMs: number, cause?: string): void {
    const i = this.indexOf(atMs);
    while (this.minutes.length <= i) this.minutes.push(emptyCounts());
    this.minutes[i]![kind]++;
    if (kind === 'error' && cause !== undefined) this.errorCauses.set(cause, (this.errorCauses.get(cause) ?? 0) + 1);
  }

  /** Records the target in force at `atMs` (the last one recorded in a minute stands for it). */
  setTarget(atMs: number, target: number | null): void {
    const i = this.indexOf(atMs);
    while (this.targets.length <= i) this.targets.push(null);
    this.targets[i] = target;
  }

  /** One row for each of the first `count` minutes (default: every minute with an event or a target). */
  rows(count = Math.max(this.minutes.length, this.targets.length)): MinuteRow[] {
    const out: MinuteRow[] = [];
    let waiting = 0;
    for (let i = 0; i < count; i++) {
      const c = this.minutes[i] ?? emptyCounts();
      waiting += c.arrival - c.admission - c.gaveUp;
      out.push({
        minute: i + 1,
        arrivals: c.arrival,
        requests: c.request,
        admissions: c.admission,
        gaveUp: c.gaveUp,
        left: c.left,
        errors: c.error,
        waiting,
        target: this.targets[i] ?? null,
      });
    }
    return out;
  }

  totals(): Omit<MinuteRow, 'minute' | 'target' | 'waiting'> {
    const t = emptyCounts();
    for (const m of this.minutes) for (const k of Object.keys(t) as EventKind[]) t[k] += m[k];
    return {
      arrivals: t.arrival,
      requests: t.request,
      admissions: t.admission,
      gaveUp: t.gaveUp,
      left: t.left,
      errors: t.error,
    };
  }
}
