// What `npm run tune` (no setting, or --show) prints: the routing in words, then each room's settings
// as a request in it reads them, each marked with where it came from.
import { settingsTable, CONTROLLER_KEY, LIVE_SETTINGS, SETTINGS_KEY } from '../src/core/settings/index.js';
import { describeBeat, parseBeat } from '../control/failover/index.js';
import { describeRouting } from '../lib/routing-describe.js';
import type { StoreData } from '../lib/json-store.js';
import { roomSettings, settingSources, storeRooms, storeRouting } from '../lib/room-store.js';
import type { Config } from '../src/core/types.js';
import { planTune, routingProblemText } from './tune-plan.js';
import { duration, timeOfDay } from './tune-clock.js';
import { chanceNowLine } from './tune-chance.js';

/** Where a setting came from, in words: service-wide (`settings`), the room's own, or the controller's. */
function sourceWord(key: string | undefined, fallback: string): string {
  if (key === undefined) return `default ${fallback === '' ? 'none' : fallback}`;
  if (key === SETTINGS_KEY) return 'service-wide';
  if (key.endsWith('.live')) return 'live';
  return 'room';
}

/** The controller's heartbeat (docs/control/failover.md): who wrote it, how long ago, and whether it is alive. */
function heartbeatLine(store: StoreData, nowMs: number): string | null {
  if (!Object.hasOwn(store, CONTROLLER_KEY)) return null;
  const beat = parseBeat(store[CONTROLLER_KEY]);
  if (beat === null)
    return `controller: ${JSON.stringify(store[CONTROLLER_KEY]!.slice(0, 60))} is not a controller's heartbeat; a controller started on this store will replace it`;
  const nowSec = nowMs / 1000;
  const age = nowSec - beat.beat;
  const state = age <= beat.lease ? 'alive' : 'past its lease, so no controller writes to this store now';
  return `controller: heartbeat ${describeBeat(beat).replace(/, controlling since .*$/, '')}, written ${duration(age)} ago (${timeOfDay(beat.beat, nowSec)}), lease ${beat.lease} s: ${state}`;
}

export function showLines(where: string, store: StoreData, nowMs: number = Date.now()): string[] {
  const lines = [`${where}:`];
  const { routing, problems, single } = storeRouting(store);
  if (single)
    lines.push(
      'routing: none: one room, "default", covers every request (npm run tune -- --routing FILE names rooms and rules)',
    );
  else if (routing === null)
    lines.push(
      'routing: UNUSABLE: every request goes to the origin untouched (fix it: npm run tune -- --routing FILE)',
    );
  else {
    lines.push('routing:');
    for (const line of describeRouting(routing)) lines.push(`  ${line}`);
  }
  for (const p of problems) lines.push(`  problem: ${routingProblemText(p)}`);
  for (const room of storeRooms(store)) {
    const from = settingSources(store, room);
    lines.push(`room ${room}:`);
    const width = Math.max(...settingsTable.map((s) => s.key.length));
    // The settings set somewhere; the others are at their defaults, named on one line.
    const unset: string[] = [];
    // `message.TAG` stands for one row per language that has its own message.
    const own = Object.keys(from)
      .filter((k) => k.startsWith('message.'))
      .sort();
    const rows = settingsTable.flatMap((s) =>
      s.key === 'message.TAG' && own.length > 0 ? own.map((key) => ({ ...s, key })) : [s],
    );
    for (const s of rows) {
      const key = from[s.key];
      if (key === undefined) {
        unset.push(s.key);
        continue;
      }
      const shown = SCHEDULES.has(s.key)
        ? scheduleSummary(roomSettings(store, room).config, s.key, nowMs)
        : JSON.stringify(valueOf(store, key, s.key));
      lines.push(
        `  ${s.key.padEnd(width)} = ${shown}  (${sourceWord(key, s.default)}${key !== SETTINGS_KEY ? `: ${key}` : ''})`,
      );
    }
    if (unset.length > 0) lines.push(`  at their defaults (docs/configuration.md): ${unset.join(', ')}`);
    lines.push(`  ${chanceNowLine(store, room, nowMs)}`);
  }
  const heartbeat = heartbeatLine(store, nowMs);
  if (heartbeat !== null) lines.push(heartbeat);
  for (const w of planTune(store, { room: null, updates: new Map() }).warnings) lines.push(`  problem: ${w}`);
  return lines;
}

/** The controller's schedules, shown as times of day rather than their raw epoch seconds. */
const SCHEDULES = new Set(['allow_schedule', 'proof_schedule']);

/** `73 entries, 07:04:20 UTC to 07:16:20 UTC`: a schedule as the room reads it. */
function scheduleSummary(config: Config, setting: string, nowMs: number): string {
  const entries = setting === 'allow_schedule' ? config.allowSchedule : config.proofSchedule;
  if (entries.length === 0) return 'no usable entry';
  const nowSec = nowMs / 1000;
  return `${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}, ${timeOfDay(entries[0]!.start, nowSec)} to ${timeOfDay(entries.at(-1)!.start, nowSec)}`;
}

/** The raw value of `setting` in the store value under `key`. */
function valueOf(store: StoreData, key: string, setting: string): string {
  const raw = store[key] ?? '';
  if (key.endsWith('.allow_percentage')) return raw.trim();
  try {
    const object = JSON.parse(raw) as Record<string, unknown>;
    return String(object[setting]);
  } catch {
    return raw;
  }
}

/** The live settings, named for the help text. */
export const LIVE_NOTE = `the controller's ${LIVE_SETTINGS.join(', ')} live in room.ID.live`;
