// A load run: the arrival schedule, one virtual browser per visitor, the per-minute tally and its
// report. The clock and the network come in as options, so the same run drives the real room over
// HTTP (load/cli.ts) or, in the tests, a fake room on a fake clock.
import { createRandom, type Random } from '../lib/random.js';
import { VirtualBrowser, type BrowserProfile, type Send } from './browser.js';
import { realClock, type Clock } from './clock.js';
import { arrivalSchedule, type Shape } from './schedule.js';
import { Tally, type MinuteRow } from './tally.js';
import { minuteVerdicts, type MinuteVerdict } from './verdict.js';

export interface LoadOptions {
  visitors: number;
  shape: Shape;
  /** steady only: arrivals a minute; null spreads the visitors over the run. */
  ratePerMinute: number | null;
  flashSeconds: number;
  minutes: number;
  seed: string;
  /** Prefix of every visitor id, so two runs never share identities (they would share tokens). */
  tag: string;
  send: Send;
  clock?: Clock;
  /** The target in force (new_users_per_minute), read at the start of every minute; null: none. */
  readTarget?: () => Promise<number | null>;
  /** Called at the end of every minute (and of a last, partial one). */
  onMinute?: (row: MinuteRow) => void;
  /** Ends the run early (Ctrl-C): the summary covers the minutes so far. */
  signal?: AbortSignal;
  /** Length of a reporting "minute" (tests shorten it; visitors' own times stay real seconds). */
  minuteMs?: number;
}

export interface LoadResult {
  startedMs: number;
  durationMs: number;
  rows: MinuteRow[];
  totals: ReturnType<Tally['totals']>;
  verdicts: MinuteVerdict[];
  errorCauses: Record<string, number>;
  /** Browsers still waiting, browsing or admitted when the run ended. */
  endState: { waiting: number; browsing: number; admitted: number };
}

/** Honest visitors as the simulator draws them (sim/scenarios.ts): patience, session and think time. */
const PATIENCE_MEDIAN_MS = 10 * 60_000;
const PATIENCE_SIGMA = 0.8;
const SESSION_MEDIAN_S = 150;
const SESSION_SIGMA = 0.6;
const THINK_MEAN_S = 60;

/** One honest visitor's patience, session and think time, drawn from `profiles`. */
function honestVisitor(profiles: Random): BrowserProfile {
  return {
    patienceMs: profiles.logNormal(PATIENCE_MEDIAN_MS, PATIENCE_SIGMA),
    sessionMs: Math.max(30, profiles.logNormal(SESSION_MEDIAN_S, SESSION_SIGMA)) * 1000,
    thinkMeanSeconds: THINK_MEAN_S,
  };
}

/** Stops every browser, counting where each was when the run ended. */
function stopAll(browsers: readonly VirtualBrowser[]): LoadResult['endState'] {
  const endState = { waiting: 0, browsing: 0, admitted: 0 };
  for (const b of browsers) {
    if (b.admittedMs !== null) endState.admitted++;
    if (b.state === 'waiting') endState.waiting++;
    if (b.state === 'browsing') endState.browsing++;
    b.stop();
  }
  return endState;
}

/** Reads the target in force into the tally at `atMs`, in the background (none when it cannot be read). */
function targetReading(options: LoadOptions, tally: Tally): (atMs: number) => void {
  return (atMs) => {
    if (options.readTarget === undefined) return;
    void options.readTarget().then(
      (target) => tally.setTarget(atMs, target),
      () => tally.setTarget(atMs, null),
    );
  };
}

export function runLoad(options: LoadOptions): Promise<LoadResult> {
  const clock = options.clock ?? realClock;
  const minuteMs = options.minuteMs ?? 60_000;
  const durationMs = Math.round(options.minutes * minuteMs);
  const rng = createRandom(`load/${options.seed}`);
  const arrivals = arrivalSchedule(
    {
      visitors: options.visitors,
      shape: options.shape,
      durationMs,
      ratePerMinute: options.ratePerMinute,
      flashSeconds: options.flashSeconds,
    },
    rng.fork('arrivals'),
  );
  const profiles = rng.fork('profiles');
  const pageRandom = rng.fork('pages');
  const startedMs = clock.now();
  const tally = new Tally(startedMs, minuteMs);
  const browsers: VirtualBrowser[] = [];
  const cancels: (() => void)[] = [];
  const deps = {
    clock,
    send: options.send,
    random: pageRandom.next,
    report: (kind: Parameters<Tally['add']>[0], at: number, cause?: string) => tally.add(kind, at, cause),
  };

  arrivals.forEach((offset, i) => {
    const browser = new VirtualBrowser(`${options.tag}-${i}`, deps, honestVisitor(profiles));
    browsers.push(browser);
    cancels.push(clock.after(offset, () => browser.start()));
  });

  const readTarget = targetReading(options, tally);
  readTarget(startedMs);

  const minutes = Math.ceil(durationMs / minuteMs);
  return new Promise((resolve) => {
    let done = false;
    for (let m = 1; m <= minutes; m++) {
      const endMs = Math.min(m * minuteMs, durationMs);
      cancels.push(
        clock.after(endMs, () => {
          options.onMinute?.(tally.rows(m)[m - 1]!);
          if (endMs < durationMs) readTarget(startedMs + endMs);
          else finish();
        }),
      );
    }
    const finish = (): void => {
      if (done) return;
      done = true;
      for (const cancel of cancels) cancel();
      // Cut short: the table ends with the minute that was running.
      const shown = Math.min(minutes, tally.indexOf(clock.now()) + 1);
      const endState = stopAll(browsers);
      const rows = tally.rows(shown);
      resolve({
        startedMs,
        durationMs: Math.min(durationMs, clock.now() - startedMs),
        rows,
        totals: tally.totals(),
        verdicts: minuteVerdicts(rows),
        errorCauses: Object.fromEntries(tally.errorCauses),
        endState,
      });
    };
    if (minutes === 0) finish();
    options.signal?.addEventListener('abort', finish, { once: true });
  });
}
