// The sales whose requests `npm run simulate -- --costs` counts (costs.ts, docs/production.md#what-a-sale-costs):
// scenarios of the report, each with the built-in page's reload after its winning check, and one long
// queue of its own. Not in the report's run: its scenarios were measured without the reload.
import { botScenarios } from './bot-scenarios.js';
import { browsing, MINUTE } from './arrivals.js';
import { controlledRoom, controlSpec } from './control-scenarios.js';
import type { Random } from '../lib/random.js';
import type { Scenario } from './scenario-types.js';
import { findScenario } from './scenarios.js';
import type { Arrival } from './visitors.js';

/** A scenario as the cost run plays it: every built-in page reloads once its check is let in. */
export function priced(s: Scenario, name = s.name, title = s.title): Scenario {
  return { ...s, name, title, behaviour: { ...s.behaviour, reloadAfterWin: true } };
}

const named = (name: string): Scenario => {
  const s = findScenario(name);
  if (s === undefined) throw new Error(`no scenario ${name}`);
  return s;
};

/** Patience of a crowd that came for this sale: median an hour (the report's crowds: 10 minutes). */
const longPatience = (rng: Random): number => rng.logNormal(60 * MINUTE, 0.5);

/** 6,000 visitors within five minutes against 100 a minute: half of those who get in wait half an hour or more. */
const longQueue: Scenario = {
  name: 'costs-long',
  title: 'A long on-sale queue: 6,000 in five minutes, 100 a minute',
  summary:
    "6,000 visitors arrive within the first five minutes on five POPs; the origin takes 100 a minute, so the queue takes about an hour to clear. The room queues from the start (allow_percentage 1, the opening's placeholder) and the controller sets each window's chance. The crowd came for this sale: patience is log-normal with a median of an hour, so most stay through waits of 30 minutes and more.",
  settings: controlledRoom(100, { allow_percentage: '1' }),
  changes: [],
  durationMs: 80 * MINUTE,
  behaviour: browsing,
  visitors: 6000,
  arrivals: (rng: Random, n: number): Arrival[] => {
    const out: Arrival[] = [];
    for (let i = 0; i < n; i++)
      out.push({ atMs: rng.uniform(0, 5 * MINUTE), group: 'honest', patienceMs: longPatience(rng) });
    return out.sort((a, b) => a.atMs - b.atMs);
  },
  control: controlSpec,
};

const bots = botScenarios.find((s) => s.name === 'bots-queue')!;

/** The cost run's sales, in the table's order. */
export const costScenarios: readonly Scenario[] = [
  priced(named('steady'), 'costs-short', 'A short wait: steady arrivals at allow_percentage 20 (steady)'),
  // The report stops it at 12 minutes, with a third of the crowd still waiting: here it runs until the queue clears.
  {
    ...priced(
      named('held-late'),
      'costs-load-test',
      "The README's load test: 2,000 in a minute, 120 a minute (held-late)",
    ),
    durationMs: 25 * MINUTE,
  },
  priced(named('held-onsale'), 'costs-onsale', 'An on-sale opened from the deny page, 300 a minute (held-onsale)'),
  priced(longQueue),
  priced(
    named('event-fifo'),
    'costs-fifo',
    'First come, first served: 5,000 over 15 minutes, 250 a minute (event-fifo)',
  ),
  priced(bots, 'costs-bots', 'The infinite queue: a farm of 10,000 identities, a proof of work (bots-queue)'),
];

/**
 * A cost scenario by name, or any scenario of one room by its own name, priced. Several rooms share
 * one service and no one crowd: their requests are not counted here.
 */
export function findCostScenario(name: string): Scenario | undefined {
  const own = costScenarios.find((s) => s.name === name);
  if (own !== undefined) return own;
  const s = findScenario(name);
  return s === undefined || s.rooms !== undefined ? undefined : priced(s);
}
