// One room's settings as a request reads them (layout.ts): the values of its places merged, then
// parsed (config.ts). A value the room cannot use counts as unset where it is written, so the same
// setting in a less specific place applies, else the declared default.
import { parseConfig } from './config.js';
import { mergeRoomSettings, type MergedSettings, type RoomRaws, SETTINGS_KEY, valueAt } from './layout.js';
import type { SettingProblem } from './problem.js';
import type { ParsedSettings } from '../types.js';

/**
 * Settings whose value the room takes in part or bends to another setting (a schedule's good entries,
 * the known tags of `languages`, a message cut to length, a proof clamped to the wait period, the
 * default language among those offered): a problem with one of them is not a refusal of its value.
 */
export const TAKEN_IN_PART: ReadonlySet<string> = new Set([
  'allow_schedule',
  'proof_schedule',
  'queue_counts',
  'languages',
  'default_language',
  'message',
  'jwt_jwks',
  'proof_seconds',
  'lane_names',
  'lane_schedule',
]);

/**
 * One room's settings as a request reads them: each problem names the store key its setting was
 * read from (`scope`), so an operator knows which value to fix. A value the room cannot use counts
 * as unset where it is written: when a less specific place holds the setting, that value applies
 * (a room's `allow_percentage` of "5%" never opens a room the service-wide 1 holds back); else the
 * setting's default, as documented.
 */
export function parseRoomConfig(room: string | null, raws: RoomRaws): ParsedSettings {
  const { config, problems } = settle(room, raws);
  return { config, problems };
}

/**
 * One room's settings as written, with the values parseRoomConfig passes over left out: what the
 * tools and the controller read, so they see the value the edge uses. `problems` gets those of the
 * store's values themselves and of each value passed over, not those of the settings' parse.
 */
export function usableRoomSettings(
  room: string | null,
  raws: RoomRaws,
  problems: SettingProblem[] = [],
): MergedSettings {
  const settled = settle(room, raws);
  problems.push(...settled.written);
  return settled.merged;
}

/** A value passed over: the problem the room found with it, and the store key it is written in. */
interface Skipped {
  scope: string;
  problem: SettingProblem;
}

function settle(
  room: string | null,
  raws: RoomRaws,
): ParsedSettings & { merged: MergedSettings; written: SettingProblem[] } {
  const skipped = new Map<string, Skipped>();
  for (;;) {
    const problems: SettingProblem[] = [];
    const merged = mergeRoomSettings(room, raws, problems, new Set(skipped.keys()));
    const parsed = parseConfig((key) => merged.values[key] ?? null, room);
    const refused = parsed.problems.filter((p) => canFallThrough(p, merged));
    if (refused.length === 0) {
      const written = [...problems, ...fellThrough(skipped, merged, parsed.problems)];
      return { config: parsed.config, problems: [...written, ...placed(parsed.problems, merged)], merged, written };
    }
    for (const p of refused) {
      const scope = merged.from[p.key!]!;
      skipped.set(valueAt(scope, p.key!), { scope, problem: p });
    }
  }
}

/** A refusal of a whole value that a less specific place also holds: that place's value is tried. */
function canFallThrough(p: SettingProblem, merged: MergedSettings): boolean {
  const setting = p.key;
  if (setting === null || TAKEN_IN_PART.has(setting) || setting.startsWith('message.') || p.value === '') return false;
  return (merged.held[setting]?.length ?? 0) > 1;
}

/** The values passed over, each named where it is written, with the value the room uses instead. */
function fellThrough(
  skipped: ReadonlyMap<string, Skipped>,
  merged: MergedSettings,
  last: readonly SettingProblem[],
): SettingProblem[] {
  return [...skipped.values()].map(({ scope, problem: p }) => {
    const from = merged.from[p.key!]!;
    const usable = !last.some((q) => q.key === p.key);
    const instead = usable
      ? `using the value in ${from} (${merged.values[p.key!]})`
      : `using the one in ${from}, which is no better`;
    return { key: p.key, scope, value: p.value, reason: p.reason, instead };
  });
}

/** The parse's problems, each placed at the store key its setting was read from. */
function placed(problems: readonly SettingProblem[], merged: MergedSettings): SettingProblem[] {
  return problems.map((p) => ({ ...p, scope: (p.key === null ? undefined : merged.from[p.key]) ?? SETTINGS_KEY }));
}
