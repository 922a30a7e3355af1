// What a scenario is: its settings and their changes, its crowd, and what the report compares. Below
// the scenario lists (scenarios.ts, control-scenarios.ts, event-scenarios.ts), which all build on it.
import type { ControlSpec } from './control.js';
import type { Random } from '../lib/random.js';
import type { Arrival, Behaviour } from './visitors.js';

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
}
