// Scenarios with a sampled decision log (log_sample_rate, docs/control/log.md#sampling-the-log): the
// controller sees a share of the waiting tickets, each weighing 1/rate. Opt-in (not in the default
// run): `npm run simulate -- --scenario held-sampled`, `held-sampled-100k`, `million` or
// `event-fifo-sampled`.
import { browsing, MINUTE, spread } from './arrivals.js';
import { controlledRoom, controlSpec } from './control-scenarios.js';
import { eventScenarios } from './event-scenarios.js';
import type { Scenario } from './scenario-types.js';

const fifo = eventScenarios.find((s) => s.name === 'event-fifo')!;

export const sampleScenarios: readonly Scenario[] = [
  {
    name: 'held-sampled',
    title: 'Flash crowd held to the target through a tenth of the log',
    summary:
      "held-flash's crowd (10,000 in the first minute on five POPs, 600 a minute) with log_sample_rate 0.1: the edge logs the waiting decisions of a tenth of the tickets, weighted 10, and every admission. The controller sees about 1,000 sampled tickets a window at the start, as it would see a million visitors at 0.001, and fewer as the queue drains: admissions should still follow the target.",
    settings: controlledRoom(600, { allow_percentage: '1', log_sample_rate: '0.1' }),
    changes: [],
    durationMs: 25 * MINUTE,
    behaviour: browsing,
    visitors: 10_000,
    arrivals: (rng, n) => spread(rng, n, 0, MINUTE),
    control: controlSpec,
  },
  {
    name: 'held-sampled-100k',
    title: 'A hundred thousand visitors through a tenth of the log',
    summary:
      'held-flash ten times over: 100,000 visitors in the first minute on five POPs, 6,000 a minute, log_sample_rate 0.1. The controller sees about 10,000 sampled tickets a window at the start, as many as a million visitors give it at the recommended 0.01, each weighing 10: admissions should follow the target as they do unsampled.',
    settings: controlledRoom(6_000, { allow_percentage: '1', log_sample_rate: '0.1' }),
    changes: [],
    durationMs: 25 * MINUTE,
    behaviour: browsing,
    visitors: 100_000,
    arrivals: (rng, n) => spread(rng, n, 0, MINUTE),
    control: controlSpec,
  },
  {
    name: 'million',
    title: 'A million visitors, a hundredth of the log',
    summary:
      'A million visitors arrive within two minutes on five POPs; the origin takes 20,000 a minute. The edge logs the waiting decisions of 1% of the tickets (log_sample_rate 0.01, what docs/control/log.md recommends for a million), about 10,000 a window, and every admission. Admissions should follow the target while the queue lasts.',
    settings: controlledRoom(20_000, { allow_percentage: '1', log_sample_rate: '0.01' }),
    changes: [],
    durationMs: 10 * MINUTE,
    behaviour: browsing,
    visitors: 1_000_000,
    arrivals: (rng, n) => spread(rng, n, 0, 2 * MINUTE),
    control: controlSpec,
  },
  {
    ...fifo,
    name: 'event-fifo-sampled',
    title: 'First come, first served through a tenth of the log',
    summary: `${fifo.summary} The edge logs the waiting decisions of a tenth of the tokens (log_sample_rate 0.1), each weighing 10, and every admission: the controller counts each sampled place as ten, and the cursor should keep the target as it does unsampled.`,
    settings: { ...fifo.settings, log_sample_rate: '0.1' },
  },
];
