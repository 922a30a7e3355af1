// What `npm start` prints once the room listens: where each room of the routing is, its chance and
// window as the room reads them (so the banner shows the defaults, never a value the room would
// refuse), and the commands that tune it while it runs. The chance is the one a draw uses now
// (src/core/decision/chance-now.ts): a controller's schedule, or its fallback, overrides allow_percentage.
import type { StoreData } from '../lib/json-store.js';
import { chanceNow, chanceSourceText, chanceText } from '../src/core/decision/index.js';
import { roomSettings, storeRooms, storeRouting } from '../lib/room-store.js';
import type { Routing } from '../src/core/routing/index.js';
import type { Config } from '../src/core/types.js';
import type { StartPorts } from './start-ports.js';
import { timeOfDay } from './tune-clock.js';

/** One line per room: where a visitor reaches it, and what its draws do at `nowSec`. */
export function roomLines(addr: string, store: StoreData, nowSec: number = Date.now() / 1000): string[] {
  const { routing, single } = storeRouting(store);
  if (!single && routing === null)
    return [
      `    ${`http://${addr}/`.padEnd(28)}the routing in the settings cannot be used: every request goes to the shop untouched (npm run tune shows why)`,
    ];
  return storeRooms(store).map((room) => {
    const config = roomSettings(store, room).config;
    const { allowPercentage: pct, waitPeriodSeconds: wait, control, popAdmissionsPerSecond: ceiling } = config;
    const chance = chanceNow(config, nowSec);
    const path = single || routing === null ? '/' : (firstRoute(routing, room) ?? '/');
    const held =
      ceiling === null ? '' : `; at most ${Math.round(ceiling * 60 * 100) / 100} admissions a minute at this POP`;
    const target =
      control.newUsersPerMinute === null
        ? ''
        : `; with --control, held to ${control.newUsersPerMinute} new visitors a minute`;
    const draws =
      chance.source === 'allow_percentage'
        ? `allow_percentage ${pct}: each draw, every ${wait} s, lets ${pct}% in`
        : `each draw, every ${wait} s, lets ${chanceText(chance.percentage)}% in: ${chanceSourceText(chance)}`;
    const now = overriding(config, nowSec);
    return `    ${`http://${addr}${path}`.padEnd(38)}room ${room} (${now === null ? '' : `${now}, `}${draws}${held}${target})`;
  });
}

/**
 * What decides before any draw at `nowSec`, so the chance that follows is not read as today's: the
 * room switched off, paused, or a scheduled sale's pre-queue (docs/events.md, its phases).
 */
function overriding(config: Config, nowSec: number): string | null {
  if (!config.enabled) return 'switched off (enabled=false): every request goes to the origin untouched; when on again';
  if (config.queueAll) return 'paused (queue_all): nobody new is let in; when it resumes';
  const event = config.event;
  if (event === null || nowSec >= event.start) return null;
  const starts = `a sale starts ${timeOfDay(event.start, nowSec)}`;
  if (event.prequeueStart !== null && nowSec >= event.prequeueStart)
    return `${starts}: until then new visitors get the countdown page, and everyone who came early a random place at the start; after the pre-queue`;
  const opens = event.prequeueStart === null ? '' : `, its pre-queue opens ${timeOfDay(event.prequeueStart, nowSec)}`;
  return `${starts}${opens}; until then`;
}

/** A path that reaches `room`: its first route's, when it is a path. */
function firstRoute(routing: Routing, room: string): string | null {
  const text = routing.rooms.find((x) => x.id === room)?.routes[0]?.text ?? null;
  return text?.startsWith('/') ? text : null;
}

/** `notes`: what npm start did on the way that the operator should know (a stopped controller's schedules cleared). */
export function bannerText(
  addr: string,
  ports: StartPorts,
  control: boolean,
  store: StoreData,
  nowSec: number = Date.now() / 1000,
  notes: readonly string[] = [],
  journal = 'local/journal.jsonl',
): string {
  const rooms = storeRooms(store);
  const other = rooms.find((r) => r !== rooms[0]) ?? rooms[0] ?? 'default';
  const room = rooms.length > 1 ? `--room ${other} ` : '';
  return `
  The waiting room is running.

${roomLines(addr, store, nowSec).join('\n')}
    ${`http://127.0.0.1:${ports.origin}/`.padEnd(38)}the shop itself (the origin), for comparison
${notes.map((n) => `\n  ${n}\n`).join('')}
  Tune it while it runs, from another terminal:

    npm run tune                                      show the routing and each room's settings
    npm run tune -- allow_percentage=100              let everyone in (every room without its own value)
    npm run tune -- ${`${room}allow_percentage=0`.padEnd(33)} close ${rooms.length > 1 ? `room ${other}'s` : 'the'} doors (deny page)
    npm run tune -- enabled=false                     switch the rooms off
${
  control
    ? `
  The controller holds each room to its new_users_per_minute; its dashboard:

    ${`http://127.0.0.1:${ports.dashboard}/`.padEnd(38)}admissions a minute, the chance it publishes, who waits
    ${journal.padEnd(38)}its journal: every write, with each room's target (npm run report -- ROOM.LOG --journal ${journal})

    npm run tune -- ${`${room}new_users_per_minute=120`.padEnd(33)} the target (unset: it only watches)
    npm run tune -- identity=header:x-load-visitor    then: npm run load -- --minutes 3${addr === '127.0.0.1:7676' ? '' : ` --url http://${addr}`}
`
    : ''
}
  Ctrl-C stops everything.
`;
}
