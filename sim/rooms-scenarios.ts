// Several rooms on one service (issue 21): a shop and its checkout, one crowd between them.
import { browsing, MINUTE, spread } from './arrivals.js';
import { DEFAULT_API_BUDGET, DEFAULT_READ_EVERY_MS } from '../control/store/index.js';
import type { ControlSpec } from './control.js';
import { controlledRoom, controlSpec } from './control-scenarios.js';
import { EPOCH_MS } from './room.js';
import { roomSettings } from './rooms.js';
import type { RoomsSpec, Scenario } from './scenario-types.js';

const iso = (ms: number): string => new Date(EPOCH_MS + ms).toISOString().replace('.000Z', 'Z');

/**
 * The controller as `npm run control -- --service ID` runs by default: writes spaced by the API
 * budget alone (300 calls an hour less a read a minute: a write every 15 s, every room's writes in
 * one call), the store read once a minute.
 */
export const serviceControl: ControlSpec = {
  ...controlSpec,
  minWriteIntervalMs: 0,
  apiBudgetPerHour: DEFAULT_API_BUDGET,
  readEveryMs: DEFAULT_READ_EVERY_MS,
};

export interface TwoRoomsOptions {
  /** new_users_per_minute of each room. */
  shopTarget: number;
  checkoutTarget: number;
  /** The shop's sale starts here (its pre-queue opens at 0), ms. */
  startMs: number;
  /** Share of the shop's crowd that gathers in the pre-queue; the rest comes over `laterMs` after the start. */
  prequeueShare: number;
  laterMs: number;
  /** Share of the visitors admitted to the shop who go on to the checkout, and of those, who copy their shop token into the checkout's cookie. */
  checkoutShare: number;
  hopperShare: number;
  /** Visitors a minute who come straight to the checkout (a link to it), from minute 0 to the end of the arrivals. */
  directPerMinute: number;
  durationMs: number;
  visitors: number;
}

export const twoRoomsDefaults: TwoRoomsOptions = {
  shopTarget: 600,
  checkoutTarget: 120,
  startMs: 5 * MINUTE,
  prequeueShare: 0.3,
  laterMs: 10 * MINUTE,
  checkoutShare: 0.35,
  hopperShare: 0.1,
  directPerMinute: 15,
  durationMs: 28 * MINUTE,
  visitors: 10_000,
};

export function twoRooms(patch: Partial<TwoRoomsOptions> = {}): Scenario {
  const o = { ...twoRoomsDefaults, ...patch };
  const arrivalsEnd = o.startMs + o.laterMs;
  const rooms: RoomsSpec = {
    routing: {
      rooms: [
        { id: 'shop', routes: ['/'] },
        { id: 'checkout', routes: ['/checkout'] },
      ],
      default_room: 'shop',
    },
    service: {
      active_key: 'sim',
      allow_percentage: '100',
      wait_period_duration: '30',
      allow_period_duration: '600',
      log_endpoint: 'controller',
    },
    rooms: [
      {
        id: 'shop',
        settings: {
          new_users_per_minute: String(o.shopTarget),
          event_prequeue_start: iso(0),
          event_start: iso(o.startMs),
        },
        paths: ['/', '/products/42', '/search'],
        summary: `The shop (route \`/\`, ${o.shopTarget} a minute, 30-second windows) with its sale: the pre-queue opens at minute 0, the sale starts at minute ${o.startMs / MINUTE}. ${Math.round(o.prequeueShare * 100)}% of its crowd gathers on the countdown page, the rest arrives over the ${o.laterMs / MINUTE} minutes after the start.`,
      },
      {
        id: 'checkout',
        settings: {
          new_users_per_minute: String(o.checkoutTarget),
          wait_period_duration: '20',
          allow_period_duration: '300',
        },
        paths: ['/checkout', '/checkout/pay'],
        summary: `The checkout (route \`/checkout\`, ${o.checkoutTarget} a minute, 20-second windows, no event). ${Math.round(o.checkoutShare * 100)}% of the visitors admitted to the shop come here 20 s to 2 minutes later and queue like anyone; ${o.directPerMinute} a minute come straight from a link, from minute 0.`,
      },
    ],
    journeys: [
      {
        from: 'shop',
        to: 'checkout',
        share: o.checkoutShare,
        afterMs: [20_000, 2 * MINUTE],
        hopperShare: o.hopperShare,
      },
    ],
    direct: [
      {
        room: 'checkout',
        arrivals: (rng) => spread(rng, Math.round((o.directPerMinute * arrivalsEnd) / MINUTE), 0, arrivalsEnd),
      },
    ],
  };
  return {
    name: 'two-rooms',
    title: 'Two rooms on one service: a shop with a sale, and its checkout',
    summary: `One crowd on one service with two rooms, each request put in its room by the routing (\`/checkout\` to the checkout, everything else to the shop), each room with its own target and wait window, one controller steering both from one stream of decision lines, as \`npm run control\` does (one model per room, both rooms' writes in one call within the write budget). The shop runs a scheduled sale; the checkout has no event. Visitors admitted to the shop go on to the checkout, where their shop token is no checkout token: they queue there like anyone. ${Math.round(o.hopperShare * 100)}% of them copy their shop token into the checkout's cookie, to show that check bites. Each room should hold its own target, the sale should change the shop alone, and no request should reach a room's pages without that room's own admission.`,
    settings: roomSettings(rooms, 'shop'),
    changes: [],
    durationMs: o.durationMs,
    behaviour: { ...browsing, eventStartMs: o.startMs },
    visitors: o.visitors,
    arrivals: (rng, n) => [
      ...spread(rng, Math.round(n * o.prequeueShare), 0, o.startMs, 'honest', (u) => Math.sqrt(u)),
      ...spread(rng, n - Math.round(n * o.prequeueShare), o.startMs, arrivalsEnd),
    ],
    control: serviceControl,
    rooms,
  };
}

export const roomsScenarios: readonly Scenario[] = [twoRooms()];

/**
 * Two hours of a sale on one room, as `npm run control -- --service ID` runs it (opt-in: `--scenario
 * two-hour-sale`, a few minutes of computing): the API calls an hour the controller spends (reads,
 * writes, heartbeats) over a whole on-sale, and the judged minutes under that budget.
 */
export const twoHourSale: Scenario = {
  name: 'two-hour-sale',
  title: 'A two-hour on-sale within the API budget',
  summary:
    "A sale on one room for two hours, as `npm run control -- --service ID` runs it: the room queues from the start (allow_percentage 1), a third of the crowd comes in the first five minutes and the rest at 330 a minute for 110 minutes, against a target of 300 a minute. The controller's API calls (reads, writes, heartbeats) are counted as Fastly's API would count them: it should keep within its budget of calls an hour and still hold the target.",
  settings: controlledRoom(300, { allow_percentage: '1' }),
  changes: [],
  durationMs: 120 * MINUTE,
  behaviour: browsing,
  visitors: 52_000,
  arrivals: (rng, n) =>
    [
      ...spread(rng, Math.round(n / 3), 0, 5 * MINUTE),
      ...spread(rng, n - Math.round(n / 3), 5 * MINUTE, 115 * MINUTE),
    ].sort((a, b) => a.atMs - b.atMs),
  control: serviceControl,
};

/** Scenarios run only when named (`--scenario NAME`): too long for the default run. */
export const optInScenarios: readonly Scenario[] = [twoHourSale];
