// What a scenario is: its settings and their changes, its crowd, and what the report compares. Below
// the scenario lists (scenarios.ts, control-scenarios.ts, event-scenarios.ts), which all build on it.
import type { BotSpec } from './bot-farm.js';
import type { ControlSpec } from './control.js';
import type { Random } from '../lib/random.js';
import type { OriginSpec } from './origin.js';
import type { Arrival, Behaviour } from './visitors.js';

/** One room of a service with several (issue 21): its own settings and the pages its visitors ask for. */
export interface RoomSpec {
  id: string;
  /** The room's own settings (`room.ID`), over the service-wide ones. */
  settings: Record<string, string>;
  /** Paths its visitors request, in turn: the routing must put each in this room. */
  paths: readonly string[];
  /** One paragraph for the room's section of the report. */
  summary: string;
}

/** Several rooms on one service: the first room's crowd is the scenario's `arrivals`. */
export interface RoomsSpec {
  /** The `routing` value (rooms, routes, default room, rules), as an operator writes it. */
  routing: unknown;
  /** Service-wide settings (`settings`). */
  service: Record<string, string>;
  rooms: readonly RoomSpec[];
  /**
   * Visitors admitted in room `from` who go on to room `to` (`share` of them) a while after their
   * admission; `hopperShare` of those first copy their `from` token into `to`'s cookie.
   */
  journeys: readonly {
    from: string;
    to: string;
    share: number;
    afterMs: readonly [number, number];
    hopperShare: number;
  }[];
  /** Visitors who come straight to another room (a link to it), by room. */
  direct: readonly { room: string; arrivals(rng: Random, visitors: number): Arrival[] }[];
}

export interface Scenario {
  name: string;
  title: string;
  /** One paragraph for the report: what happens and what to look for. */
  summary: string;
  settings: Record<string, string>;
  /** Setting changes during the run, e.g. the on-sale opening. */
  changes: { atMs: number; key: string; value: string }[];
  durationMs: number;
  behaviour: Behaviour;
  /** Default population size (`--visitors` overrides it). */
  visitors: number;
  arrivals(rng: Random, visitors: number): Arrival[];
  /**
   * Compare groups on the chance of admission within `windows` windows after a start: each actor's
   * arrival window, or the window of the first setting change (among those still waiting then).
   */
  compare?: { from: 'arrival' | 'firstChange'; windows: number };
  /** Several POPs and the operator's controller (`npm run control`) holding new_users_per_minute. */
  control?: ControlSpec;
  /** Several rooms on one service (rooms.ts); `settings` is then the first room's, for the report. */
  rooms?: RoomsSpec;
  /** The proof of work's players (bot-farm.ts): the devices' solving rates and the bot farm's CPU. */
  bots?: BotSpec;
  /** An origin behind the room (origin.ts): every request the room forwards goes to it, and its lines say how it answered. */
  origin?: OriginSpec;
}
