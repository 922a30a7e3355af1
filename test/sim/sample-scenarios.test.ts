// The sampled scenarios: run only when named, each a controlled room with a sample rate the room reads.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/core/config.js';
import { findScenario, scenarios } from '../../sim/scenarios.js';

describe('the sampled scenarios', () => {
  it('are left out of the default run and found by name, each with a usable log_sample_rate', () => {
    for (const name of ['held-sampled', 'held-sampled-100k', 'million']) {
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
