// Scheduled on-sales and first-come queues under the controller (docs/events.md): the same POPs,
// propagation and log delays as the other controlled scenarios.
import { browsing, MINUTE, spread } from './arrivals.js';
import { controlledRoom, controlSpec } from './control-scenarios.js';
import type { Random } from '../lib/random.js';
import { EPOCH_MS } from './room.js';
import type { Scenario } from './scenario-types.js';
import type { Arrival, Group } from './visitors.js';

const iso = (ms: number): string => new Date(EPOCH_MS + ms).toISOString().replace('.000Z', 'Z');

/** A crowd with a few of each adversary mixed in: `share` of `n` for each group named. */
function mixed(
  rng: Random,
  n: number,
  from: number,
  to: number,
  groups: readonly Group[],
  share: number,
  shape?: (u: number) => number,
): Arrival[] {
  const each = Math.round(n * share);
  const out = spread(rng, n - each * groups.length, from, to, 'honest', shape);
  for (const group of groups) out.push(...spread(rng, each, from, to, group, shape));
  return out.sort((a, b) => a.atMs - b.atMs);
}

const START = 15 * MINUTE;

const onsale: Scenario = {
  name: 'event-shuffle',
  title: 'Scheduled on-sale: pre-queue shuffled at the start',
  summary:
    'The pre-queue opens at minute 0 and the sale starts at minute 15 (event_prequeue_start, event_start). 4,000 visitors gather on the countdown page, more of them as the start nears; 1,500 more rush in during the first two minutes of the sale and 500 over the next thirteen. The origin takes 300 a minute. At the start every pre-queued visitor has a place drawn from the event seed, and the controller moves the cursor through them at the target rate; everyone who came after the start waits behind the whole pre-queue, then draws. Among the pre-queue, 2% each use five devices, two cookie jars, refresh every second, clear their cookies, or hand their pre-queue token to a friend on another identity just after the start.',
  settings: controlledRoom(300, { event_prequeue_start: iso(0), event_start: iso(START) }),
  changes: [],
  durationMs: 50 * MINUTE,
  behaviour: { ...browsing, eventStartMs: START },
  visitors: 6000,
  arrivals: (rng, n) => [
    ...mixed(
      rng,
      Math.round(n * (4 / 6)),
      0,
      START,
      ['devices5', 'twojars', 'refresher', 'clearer', 'sharer'],
      0.02,
      (u) => Math.sqrt(u),
    ),
    ...spread(rng, Math.round(n * (1.5 / 6)), START, START + 2 * MINUTE),
    ...spread(rng, n - Math.round(n * (4 / 6)) - Math.round(n * (1.5 / 6)), START + 2 * MINUTE, START + 15 * MINUTE),
  ],
  control: controlSpec,
};

const fifo: Scenario = {
  name: 'event-fifo',
  title: 'First come, first served',
  summary:
    'queueing_method fifo: 5,000 visitors arrive over 15 minutes, 333 a minute, on five POPs; the origin takes 250 a minute. Each wait token carries its arrival time, and the controller moves a cursor over arrival times at the target rate; the page shows how many are ahead and when the turn comes. 2% each of the crowd use five devices, two cookie jars, refresh every second, or clear their cookies.',
  settings: controlledRoom(250, { queueing_method: 'fifo' }),
  changes: [],
  durationMs: 40 * MINUTE,
  behaviour: browsing,
  visitors: 5000,
  arrivals: (rng, n) => mixed(rng, n, 0, 15 * MINUTE, ['devices5', 'twojars', 'refresher', 'clearer'], 0.02),
  control: controlSpec,
};

const stopped: Scenario = {
  name: 'event-fifo-stopped',
  title: 'First come, first served: the controller stops mid-sale',
  summary:
    'The first-come queue with an honest crowd of 5,000 over 15 minutes, target 250 a minute, and the controller stopped at minute 8. The edge keeps moving the cursor at the last speed published (for up to 30 minutes), so admissions go on at about that pace: nothing freezes.',
  settings: controlledRoom(250, { queueing_method: 'fifo' }),
  changes: [],
  durationMs: 35 * MINUTE,
  behaviour: browsing,
  visitors: 5000,
  arrivals: (rng, n) => spread(rng, n, 0, 15 * MINUTE),
  control: { ...controlSpec, stopAtMs: 8 * MINUTE },
};

export const eventScenarios: readonly Scenario[] = [onsale, fifo, stopped];
