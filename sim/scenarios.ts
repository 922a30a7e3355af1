// The situations the room is judged in. Sizes are chosen so the default run (all scenarios) takes a
// few minutes on two cores (sim/README.md gives the last run's time): every request is a real HS512
// verify and often a sign.
import { heldLanes, heldLanesNone } from './lane-scenarios.js';
import { botScenarios } from './bot-scenarios.js';
import { browsing, MINUTE, spread } from './arrivals.js';
import { controlledScenarios, controlSpec, heldUnsolved } from './control-scenarios.js';
import { eventScenarios } from './event-scenarios.js';
import { originScenarios } from './origin-scenarios.js';
import { optInScenarios as roomsOptIn, roomsScenarios } from './rooms-scenarios.js';
import { sampleScenarios } from './sample-scenarios.js';
import type { Scenario } from './scenario-types.js';
import type { Arrival, Group } from './visitors.js';

const room = (allow: number, extra: Record<string, string> = {}): Record<string, string> => ({
  allow_percentage: String(allow),
  wait_period_duration: '30',
  // Ten-minute sessions so renewals happen within a run (the default hour would never renew here).
  allow_period_duration: '600',
  ...extra,
});

/** Who is in the adversary run, as shares of `visitors`. */
export const defaultMix: Partial<Record<Group, number>> = {
  honest: 0.4,
  devices5: 0.15,
  clearer: 0.1,
  refresher: 0.1,
  holder: 0.1,
  twojars: 0.15,
};

/** The adversary run; tests pass their own mix to buy statistical power where they need it. */
export function adversaries(mix: Partial<Record<Group, number>> = defaultMix, visitors = 2400): Scenario {
  const d = 10;
  const horizon = 7;
  return {
    name: 'adversaries',
    title: 'Adversaries against honest visitors',
    summary: `Honest visitors and five kinds of adversary arrive over ten minutes at allow_percentage 10 with ${d}-second windows (the mechanics scale with the window; short windows keep the every-second refresher affordable). Each is compared on the chance of admission within ${horizon} windows after the arrival window: about ${horizon - 1} draws for an honest visitor.`,
    settings: room(10, { wait_period_duration: String(d) }),
    changes: [],
    // Arrivals for ten minutes, then time for the last ones (and the friends of late holders) to finish.
    durationMs: 10 * MINUTE + 2 * (horizon + 2) * d * 1000 + MINUTE,
    behaviour: { thinkSeconds: 20, sessionSecondsMedian: 180, jitter: true, horizonWindows: horizon },
    compare: { from: 'arrival', windows: horizon },
    visitors,
    arrivals: (rng, n) => {
      const out: Arrival[] = [];
      for (const [group, share] of Object.entries(mix) as [Group, number][]) {
        out.push(...spread(rng, Math.round(n * share), 0, 10 * MINUTE, group));
      }
      // Nobody gives up within the horizon: the comparison is about chances, not patience.
      return out.map((a) => ({ ...a, patienceMs: Infinity })).sort((a, b) => a.atMs - b.atMs);
    },
  };
}

/**
 * The adversary run with the controller setting each window's chance, on five POPs. With 30-second
 * windows: the controller fixes a window's chance 25 s ahead, so a 10-second window's cohort would
 * still be arriving when its chance is set, and the law would steer by forecast alone.
 */
function heldAdversaries(): Scenario {
  const base = adversaries();
  const d = 30;
  const horizon = base.compare!.windows;
  return {
    ...base,
    name: 'held-adversaries',
    title: 'Adversaries against honest visitors, under the controller',
    summary: `The adversary mix of the run above, arriving over ten minutes on five POPs, with 30-second windows and the controller holding 120 admissions a minute. The room queues from the start (allow_percentage 10 until the controller's first schedule), so nobody walks in while it is open. Compared on the chance of admission within ${horizon} windows after the arrival window.`,
    settings: {
      ...base.settings,
      wait_period_duration: String(d),
      allow_percentage: '10',
      log_endpoint: 'controller',
      new_users_per_minute: '120',
    },
    durationMs: 10 * MINUTE + 2 * (horizon + 2) * d * 1000 + MINUTE,
    control: controlSpec,
  };
}

/** Hoarders against honest visitors at a raise from 1% to 50%. */
function raise(): Scenario {
  const at = 10 * MINUTE;
  return {
    name: 'raise',
    title: 'Token hoarders at a raise',
    summary:
      'allow_percentage is 1 for ten minutes, then raised to 50. Honest visitors draw all along; hoarders take a fresh token every window without drawing, and present every token they kept late in the first window after the raise, when all are due. Tokens are drawable only until two windows after their expiry, so a pile is worth at most two draws. Compared on the chance of admission in the two windows from the raise, among those still waiting at it.',
    settings: room(1),
    changes: [{ atMs: at, key: 'allow_percentage', value: '50' }],
    durationMs: at + 3 * MINUTE,
    behaviour: { ...browsing, cashInMs: at },
    compare: { from: 'firstChange', windows: 1 },
    visitors: 1000,
    arrivals: (rng, n) =>
      [
        ...spread(rng, Math.round(n * 0.6), 0, 8 * MINUTE, 'honest'),
        ...spread(rng, n - Math.round(n * 0.6), 0, 8 * MINUTE, 'hoarder'),
      ]
        .map((a) => ({ ...a, patienceMs: Infinity }))
        .sort((a, b) => a.atMs - b.atMs),
  };
}

export const scenarios: readonly Scenario[] = [
  {
    name: 'steady',
    title: 'Steady arrivals',
    summary:
      'Visitors arrive at a constant rate for 20 minutes; allow_percentage 20, 30-second windows. The room should admit at the arrival rate, smoothly, with waits that match what the page promised.',
    settings: room(20),
    changes: [],
    durationMs: 30 * MINUTE,
    behaviour: browsing,
    visitors: 3000,
    arrivals: (rng, n) => spread(rng, n, 0, 20 * MINUTE, 'honest'),
  },
  {
    name: 'nojitter',
    title: 'Steady arrivals, pages that ignore the jitter',
    summary:
      'The steady scenario with fewer visitors, but every waiting page comes back exactly when Retry-After says, as a script or an app without the jitter would. The room fixes each wait token its own due time within the window, so this should look as smooth as the steady run.',
    settings: room(20),
    changes: [],
    durationMs: 30 * MINUTE,
    behaviour: { ...browsing, jitter: false },
    visitors: 1500,
    arrivals: (rng, n) => spread(rng, n, 0, 20 * MINUTE, 'honest'),
  },
  {
    name: 'flash',
    title: 'Flash crowd',
    summary:
      'All visitors arrive within the first minute (the Cloudflare seed simulated 10,000). allow_percentage 20. Admissions should decay window by window without spikes at window boundaries, and arrival order should say little about admission order.',
    settings: room(20),
    changes: [],
    durationMs: 25 * MINUTE,
    behaviour: browsing,
    visitors: 10_000,
    arrivals: (rng, n) => spread(rng, n, 0, MINUTE, 'honest'),
  },
  {
    name: 'onsale',
    title: 'On-sale with a crowd gathering before opening',
    summary:
      'A crowd gathers for ten minutes while allow_percentage is 0 (deny page, cookie cleared), the sale opens at minute 10 by raising it to 15, and more visitors keep arriving for ten minutes. Early birds should gain nothing over people who arrive at opening.',
    settings: room(0),
    changes: [{ atMs: 10 * MINUTE, key: 'allow_percentage', value: '15' }],
    durationMs: 35 * MINUTE,
    behaviour: browsing,
    visitors: 4000,
    arrivals: (rng, n) => [
      // Arrivals speed up towards the opening: density grows linearly over the ten minutes.
      ...spread(rng, Math.round(n * 0.7), 0, 10 * MINUTE, 'honest', (u) => Math.sqrt(u)),
      ...spread(rng, n - Math.round(n * 0.7), 10 * MINUTE, 20 * MINUTE, 'honest'),
    ],
  },
  {
    name: 'change',
    title: 'allow_percentage raised mid-run',
    summary:
      'Steady arrivals for 20 minutes at allow_percentage 10; at minute 10 the operator raises it to 30. The backlog should drain faster at once: more admissions per second and a larger share of draws won.',
    settings: room(10),
    changes: [{ atMs: 10 * MINUTE, key: 'allow_percentage', value: '30' }],
    durationMs: 30 * MINUTE,
    behaviour: browsing,
    visitors: 3000,
    arrivals: (rng, n) => spread(rng, n, 0, 20 * MINUTE, 'honest'),
  },
  adversaries(),
  raise(),
  ...controlledScenarios,
  heldAdversaries(),
  ...eventScenarios,
  ...roomsScenarios,
];

/** Scenarios run only when named (`--scenario`): too long for the default run (sample-scenarios.ts). */
export const optInScenarios: readonly Scenario[] = [
  ...roomsOptIn,
  ...sampleScenarios,
  heldUnsolved,
  ...botScenarios,
  ...originScenarios,
  heldLanes,
  heldLanesNone,
];

export function findScenario(name: string): Scenario | undefined {
  return scenarios.find((s) => s.name === name) ?? optInScenarios.find((s) => s.name === name);
}
