// Scenarios with an origin behind the room (origin.ts) and the controller's autopilot
// (`target_mode=auto`) choosing the rate of new visitors from how the origin answers, between a floor
// and a ceiling, against an origin whose capacity only the simulator knows (origin-capacity.ts).
// One crowd for all: 20,000 over 20 minutes, 1,000 a minute, more than three times what the origin takes.
import { browsing, MINUTE, spread } from './arrivals.js';
import { controlledRoom, controlSpec } from './control-scenarios.js';
import type { OriginEvent, OriginSpec } from './origin.js';
import type { Scenario } from './scenario-types.js';

/**
 * The shop's origin: 4 workers, a mean of 180 ms a request (log-normal, sigma 0.5), first come first
 * served; a request that would wait over 2 s for a worker is shed (503 at once), one unanswered after
 * 10 s is a timeout. About 1,330 requests a minute at most, and an admitted visitor makes about 3.8.
 */
export const shopOrigin: OriginSpec = {
  workers: 4,
  serviceMs: 180,
  serviceSigma: 0.5,
  shedAfterMs: 2_000,
  timeoutMs: 10_000,
  quickMs: 5,
  events: [],
};

/**
 * Its real capacity in new visitors a minute, as origin-capacity.ts finds it for this crowd's browsing
 * and the objective below (test/sim/origin.test.ts holds the two equal): `origin-manual-over` sets
 * twice this by hand.
 */
export const SHOP_CAPACITY = 280;

/** The autopilot between 25 and 1,000 a minute, holding the origin to 800 ms at the 90th percentile and 1% errors. */
const autoRoom = controlledRoom(1000, {
  allow_percentage: '1',
  target_mode: 'auto',
  auto_floor_per_minute: '25',
  origin_latency_ms: '800',
  origin_latency_percentile: '90',
  origin_error_percent: '1',
});

const find: Scenario = {
  name: 'origin-find',
  title: 'The autopilot finds the origin’s capacity',
  summary:
    'Twenty thousand visitors arrive over 20 minutes (1,000 a minute) on five POPs; the room queues from the start (allow_percentage 1) with `target_mode=auto` between a floor of 25 and a ceiling of 1,000 new visitors a minute. Behind it an origin of 4 workers that keeps 800 ms at the 90th percentile up to about 280 new visitors a minute, a figure the controller is never told: it sees only the origin’s times and statuses in the decision lines. Admissions should climb from the floor to the capacity and stay near it without the origin breaking its objective.',
  settings: autoRoom,
  changes: [],
  durationMs: 30 * MINUTE,
  behaviour: browsing,
  visitors: 20_000,
  arrivals: (rng, n) => spread(rng, n, 0, 20 * MINUTE),
  control: controlSpec,
  origin: shopOrigin,
};

const withEvent = (event: OriginEvent, patch: Pick<Scenario, 'name' | 'title' | 'summary'>): Scenario => ({
  ...find,
  ...patch,
  origin: { ...shopOrigin, events: [event] },
});

export const originScenarios: readonly Scenario[] = [
  find,
  withEvent(
    { kind: 'workers', fromMs: 10 * MINUTE, share: 0.5 },
    {
      name: 'origin-halved',
      title: 'The origin loses half its workers mid-sale',
      summary:
        '`origin-find`’s crowd and autopilot; at minute 10 two of the origin’s four workers go, each once the request it holds is done, and do not come back: its capacity falls from about 280 to about 120 new visitors a minute. The autopilot should see the times grow, cut the rate, and settle near the new capacity.',
    },
  ),
  withEvent(
    { kind: 'slow', fromMs: 10 * MINUTE, untilMs: 15 * MINUTE, addMs: 400 },
    {
      name: 'origin-slow',
      title: 'A slow dependency for five minutes',
      summary:
        '`origin-find`’s crowd and autopilot; from minute 10 to 15 a dependency of the origin adds 400 ms to every request it serves, which also holds its workers that much longer: its capacity falls to about 45 new visitors a minute, then comes back. Visitors admitted before minute 10 keep browsing, so the origin breaks its objective for a while whatever the room does; the autopilot should cut, then find the capacity again once the dependency recovers.',
    },
  ),
  withEvent(
    { kind: 'storm', fromMs: 10 * MINUTE, untilMs: 11 * MINUTE, share: 0.6, status: 500 },
    {
      name: 'origin-storm',
      title: 'An error storm for one minute',
      summary:
        '`origin-find`’s crowd and autopilot; for one minute from minute 10 the origin answers 60% of the requests 500 at once (a failing dependency it does not wait for). No rate keeps the error objective during the storm, and admitting fewer does not end it; the autopilot should stop letting new visitors in, and come back to the capacity once the storm is over.',
    },
  ),
  {
    ...find,
    name: 'origin-manual-over',
    title: 'The same crowd held by hand at twice the origin’s capacity',
    summary:
      '`origin-find`’s crowd and origin, the room in manual mode with new_users_per_minute at 560, twice the 280 the origin takes: an operator who guessed high. The controller holds its target as asked; what the origin suffers is the comparison for the autopilot’s runs.',
    settings: controlledRoom(2 * SHOP_CAPACITY, {
      allow_percentage: '1',
      origin_latency_ms: '800',
      origin_latency_percentile: '90',
      origin_error_percent: '1',
    }),
  },
];
