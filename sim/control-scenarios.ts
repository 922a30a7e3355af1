// Scenarios with the operator's controller holding new_users_per_minute: the same crowds as the
// uncontrolled ones, spread over several POPs with Zipf-like shares, each POP seeing a new setting
// 5 to 20 s after the controller writes it and delivering its decision lines 2 to 8 s late.
import { browsing, MINUTE, spread } from './arrivals.js';
import type { ControlSpec } from './control.js';
import type { Scenario } from './scenario-types.js';

export const controlSpec: ControlSpec = {
  pops: 5,
  zipf: 1,
  propagationMs: [5_000, 20_000],
  logDelayMs: [2_000, 8_000],
  tickMs: 1_000,
  minWriteIntervalMs: 20_000,
  leadSeconds: 25,
};

/** The room as an operator sets it for the controller: open until the target is reached, lines logged. */
export const controlledRoom = (target: number, extra: Record<string, string> = {}): Record<string, string> => ({
  allow_percentage: '100',
  wait_period_duration: '30',
  allow_period_duration: '600',
  log_endpoint: 'controller',
  new_users_per_minute: String(target),
  ...extra,
});

/** Also the base of `held-surprise`, the same crowd into an open room. */
const heldFlash: Scenario = {
  name: 'held-flash',
  title: 'Flash crowd held to the target',
  summary:
    "Ten thousand visitors arrive within the first minute on five POPs; the origin takes 600 a minute. The room queues from the start at allow_percentage 1, the placeholder the operator sets at an opening, until the controller's first schedule: admissions should follow the target, not the crowd, from the first minute until the queue runs dry.",
  settings: controlledRoom(600, { allow_percentage: '1' }),
  changes: [],
  durationMs: 25 * MINUTE,
  behaviour: browsing,
  visitors: 10_000,
  arrivals: (rng, n) => spread(rng, n, 0, MINUTE),
  control: controlSpec,
};

/** The README's load test on a laptop: one POP, settings and log lines within a second or so. */
const localSpec: ControlSpec = { ...controlSpec, pops: 1, propagationMs: [500, 1_500], logDelayMs: [0, 500] };

export const controlledScenarios: readonly Scenario[] = [
  {
    name: 'held-late',
    title: 'Visitors who come back late, held to the target',
    summary:
      "The README's load test: 2,000 visitors within a minute into a room that queues (allow_percentage 10, 20-second windows) with a target of 120 a minute, on one POP. A third of the waiting pages are background tabs, whose timers the browser fires once a minute, so they come back up to 60 s late and often past their window; every other check comes up to 10 s late (a slow network, a busy machine). Admissions should hold 120 a minute all the same, and the room must not open while a crowd waits.",
    settings: controlledRoom(120, { allow_percentage: '10', wait_period_duration: '20', allow_period_duration: '120' }),
    changes: [],
    durationMs: 12 * MINUTE,
    behaviour: { ...browsing, lateReturns: { backgroundShare: 1 / 3, delayMs: 10_000 } },
    visitors: 2000,
    arrivals: (rng, n) => spread(rng, n, 0, MINUTE),
    control: localSpec,
  },
  {
    name: 'held-steady',
    title: 'Steady arrivals above the target, held by the controller',
    summary:
      "Visitors arrive at 300 a minute for 20 minutes on five POPs; the origin takes 240 a minute (new_users_per_minute). The room starts open; the controller engages once admissions reach the target and publishes each window's chance from then on. Admissions should sit on 240 a minute while the queue lasts.",
    settings: controlledRoom(240),
    changes: [],
    durationMs: 30 * MINUTE,
    behaviour: browsing,
    visitors: 6000,
    arrivals: (rng, n) => spread(rng, n, 0, 20 * MINUTE),
    control: controlSpec,
  },
  heldFlash,
  {
    ...heldFlash,
    name: 'held-surprise',
    title: 'Flash crowd into an open room',
    summary:
      'The same flash crowd, but nobody expected it: the room is open (allow_percentage 100) when it comes, so it admits everyone until the controller sees the target reached and its first setting reaches every POP; from then on admissions should follow the target. The first waiting pages are shown before the controller knows how big the crowd is.',
    settings: controlledRoom(600),
  },
  {
    name: 'held-onsale',
    title: 'On-sale held to the target',
    summary:
      'A crowd gathers for ten minutes on the deny page (allow_percentage 0); at minute 10 the operator opens the sale by setting allow_percentage to 1, which hands the room to the controller, and more visitors keep arriving for ten minutes. The origin takes 300 a minute. Those on the deny page come back within its five-to-six-minute check, so the queue fills over the first minutes of the sale.',
    settings: controlledRoom(300, { allow_percentage: '0' }),
    changes: [{ atMs: 10 * MINUTE, key: 'allow_percentage', value: '1' }],
    durationMs: 35 * MINUTE,
    behaviour: browsing,
    visitors: 5000,
    arrivals: (rng, n) => [
      ...spread(rng, Math.round(n * 0.7), 0, 10 * MINUTE, 'honest', (u) => Math.sqrt(u)),
      ...spread(rng, n - Math.round(n * 0.7), 10 * MINUTE, 20 * MINUTE),
    ],
    control: controlSpec,
  },
  {
    name: 'held-retarget',
    title: 'Target raised mid-run',
    summary:
      'Visitors arrive at 400 a minute for 20 minutes; the origin takes 200 a minute until minute 10, when the operator raises new_users_per_minute to 400. Admissions should move to the new target within two minutes and hold it while the backlog lasts.',
    settings: controlledRoom(200),
    changes: [{ atMs: 10 * MINUTE, key: 'new_users_per_minute', value: '400' }],
    durationMs: 30 * MINUTE,
    behaviour: browsing,
    visitors: 8000,
    arrivals: (rng, n) => spread(rng, n, 0, 20 * MINUTE),
    control: controlSpec,
  },
  {
    name: 'held-cap',
    title: 'Active sessions capped',
    summary:
      'Visitors arrive at 600 a minute for 15 minutes; the origin would take 600 new visitors a minute but only 1,500 at once (total_active_users), a visitor counting as active until 5 minutes after their last request (session_duration). The cap, not the rate, should bind: active sessions should stay at or under 1,500.',
    settings: controlledRoom(600, { total_active_users: '1500', session_duration: '5' }),
    changes: [],
    durationMs: 25 * MINUTE,
    behaviour: browsing,
    visitors: 9000,
    arrivals: (rng, n) => spread(rng, n, 0, 15 * MINUTE),
    control: controlSpec,
  },
  {
    ...heldFlash,
    name: 'held-restart',
    title: 'Controller killed and restarted mid-flash',
    summary:
      'The flash crowd held to 600 a minute; at minute 6 the controller is killed (kill -9) and restarted at once from its state file, its log source giving again the last 30 seconds of lines. The restarted controller should count each line once and hold the target from the second minute after the restart, as if nothing had happened.',
    control: { ...controlSpec, restartAtMs: 6 * MINUTE },
  },
  {
    name: 'held-ceiling',
    title: 'Controller stopped mid-flash, per-POP ceiling on',
    summary:
      'A flash crowd of 6,000 held to 600 a minute with pop_admissions_per_second at 5 on every POP; the controller stops at minute 6, and a second crowd of 4,000 arrives at minute 8. The room keeps the last chance written, so admissions follow the new crowd again, and the ceiling is all that holds each POP. No POP should pass 5 a second over any 10 seconds, and every winner the ceiling holds back should still get in.',
    settings: controlledRoom(600, { pop_admissions_per_second: '5' }),
    changes: [],
    durationMs: 25 * MINUTE,
    behaviour: browsing,
    visitors: 10_000,
    arrivals: (rng, n) => [
      ...spread(rng, Math.round(n * 0.6), 0, MINUTE),
      ...spread(rng, n - Math.round(n * 0.6), 8 * MINUTE, 9 * MINUTE),
    ],
    control: { ...controlSpec, stopAtMs: 6 * MINUTE },
  },
];

/**
 * Opt-in (`--scenario held-unsolved`): `held-steady` with proof_of_work = fixed. The simulated visitors
 * send no proof, so every draw is at proof_free_share (0.2) of the chance published: the controller
 * must learn that share from the draw lines and publish what the target needs over it.
 */
export const heldUnsolved: Scenario = {
  ...controlledScenarios.find((x) => x.name === 'held-steady')!,
  name: 'held-unsolved',
  title: 'Steady arrivals held by the controller, a proof of work asked that nobody brings',
  summary:
    "held-steady with proof_of_work = fixed (5 s): 300 a minute for 20 minutes against a target of 240 a minute, on five POPs, and no visitor sends a proof (a crowd without JavaScript, or every visitor while the page's solver fails), so each draw gets proof_free_share (0.2) of the chance published. The controller learns that share from the draw lines and publishes what the target needs over it: admissions should sit on 240 a minute while the queue lasts, as in held-steady.",
  settings: controlledRoom(240, { proof_of_work: 'fixed', proof_seconds: '5' }),
};
