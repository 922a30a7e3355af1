// The sampled scenarios: run only when named, each a controlled room with a sample rate the room reads;
// and the first-come queue through a sampled log, run, against its target.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/core/settings/index.js';
import { findScenario, scenarios } from '../../sim/scenarios.js';
import { run, scenario } from './support.js';

describe('the sampled scenarios', () => {
  it('are left out of the default run and found by name, each with a usable log_sample_rate', () => {
    for (const name of ['held-sampled', 'held-sampled-100k', 'million', 'event-fifo-sampled']) {
      expect(scenarios.some((s) => s.name === name)).toBe(false);
      const s = findScenario(name)!;
      expect(s.control).toBeDefined();
      const { config, problems } = parseConfig((k) => s.settings[k] ?? null);
      expect(problems).toEqual([]);
      expect(config.logSampleRate).toBeLessThan(1);
    }
    expect(findScenario('million')!.visitors).toBe(1_000_000);
  });
});

describe('the first-come queue through a tenth of the log (event-fifo-sampled)', () => {
  it('holds the target in its judged minutes as the unsampled event-fifo does', async () => {
    // event-fifo's crowd (5,000 over 15 minutes, 250 a minute) with log_sample_rate 0.1: about 25
    // sampled places a minute. At this test's seed ('test-1'; docs/control/log.md gives the CLI's seeds 1
    // and 2) the sampled run keeps 12 of its 15 judged minutes within ±10%, the worst +17.6% in minute
    // 17, and the unsampled event-fifo 10 of 15, the worst +17.2%; before places were weighted, the
    // sampled run kept none. Minutes are judged from two minutes after the queue forms, and the speed
    // reads the stretch the cursor passed only once it has led for four: the first two judged minutes
    // rest on the ~25 sampled places ahead alone (about ±20%, one sigma), so they are bounded at ±50%
    // (seed 1's minute 3 ran +40%), the rest at ±20%.
    const { figures } = await run(scenario('event-fifo-sampled'), 5000);
    const judged = figures.control!.minutes.filter((m) => m.judged);
    const shown = judged.map((m) => `${m.minute}: ${m.admissions}`).join(', ');
    expect(judged.length, shown).toBeGreaterThanOrEqual(12);
    const mean = judged.reduce((s, m) => s + m.admissions, 0) / judged.length;
    expect(Math.abs(mean / 250 - 1), shown).toBeLessThanOrEqual(0.05);
    expect(judged.filter((m) => Math.abs(m.error!) <= 0.1).length, shown).toBeGreaterThanOrEqual(
      Math.ceil((2 * judged.length) / 3),
    );
    judged.forEach((m, i) =>
      expect(Math.abs(m.error!), `minute ${m.minute}: ${shown}`).toBeLessThanOrEqual(i < 2 ? 0.5 : 0.2),
    );
  }, 120_000);
});
