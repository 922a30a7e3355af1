// A bot farm against the proof of work, at a tenth of the scenarios' size (100 honest visitors and a
// farm of 2,000 identities, 20 a minute, 8 minutes, the farm's CPU a fortieth: a tenth of 4 cores would
// solve half its draws at this size, and the comparison would rest on a handful of admissions): the farm's share
// falls once a proof is asked, and a naive farm meets the infinite queue. The full figures come from
// `npm run simulate -- --scenario bots-off,bots-fixed,bots-auto,bots-queue` (sim/README.md).
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/core/settings/index.js';
import { defaultBotSpec } from '../../sim/bot-farm.js';
import type { BotFigures } from '../../sim/bot-figures.js';
import { botScenario, botSettings } from '../../sim/bot-scenarios.js';
import { findScenario, scenarios } from '../../sim/scenarios.js';
import { run } from './support.js';

const MINUTE = 60_000;
const small = (name: string) =>
  botScenario(
    botSettings.find((s) => s.name === name)!,
    20,
    { ...defaultBotSpec, cores: defaultBotSpec.cores / 40 },
    2_100,
    8 * MINUTE,
  );
const farmShare = (b: BotFigures): number =>
  b.groups.filter((g) => g.group.startsWith('farm')).reduce((x, g) => x + g.share!, 0);
const honestAdmitted = (b: BotFigures): number =>
  b.groups.filter((g) => !g.group.startsWith('farm')).reduce((x, g) => x + g.admitted, 0);

describe('the bot scenarios', () => {
  it('are left out of the default run, found by name, with settings the edge accepts', () => {
    for (const s of botSettings) {
      expect(scenarios.some((x) => x.name === s.name)).toBe(false);
      const found = findScenario(s.name)!;
      expect(found.bots).toBeDefined();
      expect(parseConfig((k) => found.settings[k] ?? null).problems).toEqual([]);
    }
  });

  it('a fixed proof of work takes admissions from the farm and gives them to honest visitors, at the same seed', async () => {
    const off = (await run(small('bots-off'), 2_100)).figures.bots!;
    const fixed = (await run(small('bots-fixed'), 2_100)).figures.bots!;
    expect(farmShare(off)).toBeGreaterThan(0.9);
    expect(farmShare(fixed)).toBeLessThan(farmShare(off));
    // In shares: at this size a run admits about 140, a handful of them honest.
    expect(honestAdmitted(fixed) / fixed.groups.reduce((x, g) => x + g.admitted, 0)).toBeGreaterThan(
      honestAdmitted(off) / off.groups.reduce((x, g) => x + g.admitted, 0),
    );
    // The farm solved some of its tokens with its CPU, not all: the rest went as `none` (missing).
    expect(fixed.farm.drawsSolved).toBeGreaterThan(0);
    expect(fixed.farm.drawsSolved).toBeLessThan(0.5);
    expect(fixed.groups.find((g) => g.group === 'farm')!.proof.missing).toBeGreaterThan(0);
    // Honest pages solved every draw's proof; their devices paid for it in CPU time.
    const phone = fixed.groups.find((g) => g.group === 'phone')!;
    expect(Object.keys(phone.proof)).toEqual(['valid']);
    expect(fixed.cpu.find((c) => c.group === 'phone')!.p50).toBeGreaterThan(
      fixed.cpu.find((c) => c.group === 'laptop')!.p50!,
    );
    // Two runs of the farm: 62 to 69 s on this project's 2-core machine while the other suites run.
  }, 180_000);

  it('a naive farm with bot_queue on never wins without a valid proof, and honest visitors still get in', async () => {
    const { result, figures } = await run(small('bots-queue'), 2_100);
    const b = figures.bots!;
    const naive = b.groups.find((g) => g.group === 'farm-naive')!;
    expect(naive.proof.skipped).toBeGreaterThan(0);
    // Its only wins are draws it brought a solution to, before it first skipped one; once queued, none.
    expect(Object.keys(naive.won).filter((k) => k !== 'valid')).toEqual([]);
    expect(naive.admitted).toBe(naive.won.valid ?? 0);
    expect(result.trace.reasons.get('bot_waiting')).toBeGreaterThan(0);
    expect(b.honest.admitted).toBeGreaterThan(b.honest.visitors / 2);
    expect(farmShare(b)).toBeLessThan(0.5);
  });

  it('a naive farm that does not solve gets no admission at all with bot_queue on', async () => {
    const { figures } = await run(
      botScenario(
        botSettings.find((s) => s.name === 'bots-queue')!,
        20,
        { ...defaultBotSpec, cores: 0 },
        2_100,
        8 * MINUTE,
      ),
      2_100,
    );
    const b = figures.bots!;
    expect(b.groups.find((g) => g.group === 'farm-naive')!.admitted).toBe(0);
    expect(b.honest.admitted).toBeGreaterThan(b.honest.visitors / 2);
  });
});
