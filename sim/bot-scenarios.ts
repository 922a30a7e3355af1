// The proof of work against a bot farm (docs/bots.md, "What it costs"): one crowd, the same at every
// setting, under the controller. Run only when named (one to five minutes of computing each):
//   npm run simulate -- --scenario bots-off,bots-fixed,bots-fixed-share,bots-auto,bots-queue
import type { Random } from '../lib/random.js';
import { MINUTE, patience } from './arrivals.js';
import { defaultBotSpec, type BotSpec } from './bot-farm.js';
import { controlledRoom, controlSpec } from './control-scenarios.js';
import type { Scenario } from './scenario-types.js';
import type { Arrival, Group } from './visitors.js';

/** Identities of the farm for each honest visitor: 20:1, the ratio Queue-it reports for bot traffic at on-sales. */
export const FARM_RATIO = 20;

/** Honest visitors' devices: phones, laptops, and a few without JavaScript. */
export const deviceShares: readonly { group: Group; share: number }[] = [
  { group: 'phone', share: 0.6 },
  { group: 'laptop', share: 0.38 },
  { group: 'nojs', share: 0.02 },
];

function device(rng: Random): Group {
  let u = rng.next();
  for (const d of deviceShares) {
    u -= d.share;
    if (u < 0) return d.group;
  }
  return deviceShares[deviceShares.length - 1]!.group;
}

/**
 * `visitors` in all: one in 21 honest, arriving over the first `honestMs`, each on a device; the rest
 * the farm's identities, all within the first minute (the farm starts with the sale), never giving up.
 */
export function botCrowd(
  farm: 'farm' | 'farm-naive',
  honestMs = 10 * MINUTE,
): (rng: Random, visitors: number) => Arrival[] {
  return (rng, visitors) => {
    const honest = Math.max(1, Math.round(visitors / (FARM_RATIO + 1)));
    const out: Arrival[] = [];
    for (let i = 0; i < honest; i++)
      out.push({ atMs: rng.uniform(0, honestMs), group: device(rng), patienceMs: patience(rng) });
    for (let i = honest; i < visitors; i++)
      out.push({ atMs: rng.uniform(0, MINUTE), group: farm, patienceMs: Infinity });
    return out.sort((a, b) => a.atMs - b.atMs);
  };
}

export interface BotSetting {
  name: string;
  title: string;
  summary: string;
  /** The room's bot settings (proof_of_work, proof_seconds, bot_queue). */
  settings: Record<string, string>;
  farm: 'farm' | 'farm-naive';
}

/** A scenario of the crowd at one setting: `target` a minute, `bots` the devices and the farm. */
export function botScenario(
  s: BotSetting,
  target = 100,
  bots: BotSpec = { ...defaultBotSpec, cores: 4 },
  visitors = 10_500,
  durationMs = 12 * MINUTE,
): Scenario {
  return {
    name: s.name,
    title: s.title,
    summary: s.summary,
    // The room queues from the start (the opening's placeholder, allow_percentage 1) until the controller's schedule.
    settings: controlledRoom(target, { allow_percentage: '1', ...s.settings }),
    changes: [],
    durationMs,
    behaviour: { thinkSeconds: 60, sessionSecondsMedian: 150, jitter: true, horizonWindows: null },
    visitors,
    arrivals: botCrowd(s.farm),
    control: controlSpec,
    bots,
  };
}

const crowd =
  '500 honest visitors over ten minutes (60% on phones, 38% on laptops, 2% without JavaScript) and one bot farm of 10,000 identities, each its own IP, all in the first minute (20:1), against a target of 100 a minute on five POPs, for 12 minutes. The farm is one operator with 4 native cores (6 million SHA-256 a second each) shared by all its identities; each identity is an app that comes back exactly on Retry-After.';

export const botSettings: readonly BotSetting[] = [
  {
    name: 'bots-off',
    title: 'A bot farm, no proof of work',
    summary: `${crowd} No proof is asked: every identity draws like a person, so the farm takes its 20 shares in 21.`,
    settings: {},
    farm: 'farm',
  },
  {
    name: 'bots-fixed',
    title: 'A bot farm against a fixed proof of work (5 s)',
    summary: `${crowd} \`proof_of_work=fixed\`, 5 s on a low-end phone: the farm solves what its cores allow, in order of its tokens' due times, and sends \`none\` for the rest, drawing at \`proof_free_share\` (0.2) of the chance.`,
    settings: { proof_of_work: 'fixed', proof_seconds: '5' },
    farm: 'farm',
  },
  {
    name: 'bots-fixed-share',
    title: 'A bot farm against a fixed proof of work (5 s) and a small free share',
    summary: `${crowd} As \`bots-fixed\`, with \`proof_free_share=0.02\`: a draw without a valid proof gets a fiftieth of the chance, not a fifth, so a farm's unsolved identities are worth far less (and so is a visitor without JavaScript: about 50 times the wait).`,
    settings: { proof_of_work: 'fixed', proof_seconds: '5', proof_free_share: '0.02' },
    farm: 'farm',
  },
  {
    name: 'bots-auto',
    title: "A bot farm against the controller's proof of work (auto, up to 20 s)",
    summary: `${crowd} \`proof_of_work=auto\` with \`proof_seconds=20\`: the controller sets each window's difficulty from the pressure (\`proof_schedule\`).`,
    settings: { proof_of_work: 'auto', proof_seconds: '20' },
    farm: 'farm',
  },
  {
    name: 'bots-queue',
    title: 'A naive bot farm against the infinite queue',
    summary: `${crowd} \`proof_of_work=fixed\` (5 s) and \`bot_queue=on\`; the farm is the naive one: an identity whose solution is not ready sends no proof header at all (\`skipped\`), and goes to the infinite queue, which never lets it win.`,
    settings: { proof_of_work: 'fixed', proof_seconds: '5', bot_queue: 'on' },
    farm: 'farm-naive',
  },
];

export const botScenarios: readonly Scenario[] = botSettings.map((s) => botScenario(s));
