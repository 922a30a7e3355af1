// `npm run tune`: changes waiting room settings while the room runs (docs/configuration.md, the store layout).
//
//   npm run tune                                   show the routing and each room's settings, and any problems
//   npm run tune -- allow_percentage=25            service-wide settings (the `settings` value)
//   npm run tune -- --room checkout allow_percentage=30   a room's own (room.checkout.allow_percentage)
//   npm run tune -- --routing routing.json         the rooms, routes and rules (`--routing -`: from stdin)
//   npm run tune -- message=                       an empty value removes the setting (the next one applies)
//   npm run tune -- --service ID key=value         the same on a Fastly service's waiting_room_config
//   npm run tune -- --service ID --store-id SID    ... when you know the Config Store's id
//   npm run tune -- --service ID --dry-run ...     read the store, print the Fastly CLI writes instead of running them
//   npm run tune -- --file other.json key=value    another local file (or WR_CONFIG_FILE)
//
// Values are checked as the edge reads them, over the store as it would be after the write: a value
// the room would replace by a default is refused here, with its key, instead of surfacing in a log.
import { parseArgs } from 'node:util';
import { readFile } from 'node:fs/promises';
import {
  CONFIG_STORE_VALUE_LIMIT,
  settingsTable,
  configValueChars,
  LIVE_SETTINGS,
  ROUTING_KEY,
  SETTINGS_KEY,
  settingName,
} from '../src/core/settings/index.js';
import { LOCALE_TAGS } from '../src/core/i18n/index.js';
import { CONFIG_STORE } from '../src/fastly/names.js';
import { fastlyRunner, parseStoreList, resolveStoreId, writeServiceValues } from '../lib/fastly-cli.js';
import { readStore, writeStoreAtomic, type StoreData } from '../lib/json-store.js';
import { isMain, runTool, UsageError } from '../lib/cli.js';
import { routingChanges } from './routing-diff.js';
import { localConfigFile } from '../lib/local-store.js';
import { closest } from '../lib/suggest.js';
import { planTune, type TunePlan, type TuneRequest } from './tune-plan.js';
import { showLines } from './tune-show.js';
import { activeKeyErrors, activeKeyNote, localSigningKeys, serviceSigningKeys } from './tune-keys.js';
import { LOCAL_TUNE } from './tune-scope.js';
import { keysFile } from '../lib/paths.js';
import { onlyBasisChanged } from '../lib/status-basis.js';

const knownKeys = new Set(settingsTable.map((s) => s.key).filter((key) => settingName(key) !== null));

/** `key=value` arguments -> updates; '' as value means "remove". Refuses unknown keys by name. */
export function parseAssignments(args: readonly string[]): Map<string, string> {
  const updates = new Map<string, string>();
  for (const [i, arg] of args.entries()) {
    const eq = arg.indexOf('=');
    if (eq <= 0) throw new UsageError(notAssignment(args, i));
    const written = arg.slice(0, eq).trim();
    // `message.ja-jp` is the setting `message.ja-JP`: one name in the store, whatever the case typed.
    const key = settingName(written) ?? written;
    const value = arg.slice(eq + 1).trim();
    if (key === 'bypass_paths') {
      throw new UsageError(
        'bypass_paths is gone: a rule sends requests past the rooms now, e.g. {"id": "health", "if": {"path": {"prefix": "/health"}}, "then": "bypass"} in the routing (docs/configuration.md); set it with npm run tune -- --routing FILE',
      );
    }
    if (key.startsWith('message.') && settingName(key) === null) {
      throw new UsageError(
        `unknown setting "${key}": TAG in message.TAG must be a built-in language (${LOCALE_TAGS.join(', ')})`,
      );
    }
    if (settingName(key) === null) {
      const near = closest(key, [...knownKeys]);
      throw new UsageError(
        near.length > 0
          ? `unknown setting "${key}": did you mean ${near.join(' or ')}? (npm run tune -- --help lists every setting)`
          : `unknown setting "${key}"; the settings are: ${[...knownKeys].join(', ')}`,
      );
    }
    if (configValueChars(value) > CONFIG_STORE_VALUE_LIMIT)
      throw new UsageError(`setting "${key}": a value is at most ${CONFIG_STORE_VALUE_LIMIT} characters`);
    updates.set(key, value);
  }
  return updates;
}

/**
 * Why args[i] is not key=value. Most often the shell split a value at its spaces (`message=hello
 * world`): then the words after a key=value belong to it, and the fix is to quote the whole value.
 */
function notAssignment(args: readonly string[], i: number): string {
  let start = i;
  while (start > 0 && args[start]!.indexOf('=') <= 0) start--;
  const owner = args[start]!;
  if (start === i || owner.indexOf('=') <= 0) return `"${args[i]}" is not key=value`;
  let end = i;
  while (end + 1 < args.length && args[end + 1]!.indexOf('=') <= 0) end++;
  const eq = owner.indexOf('=');
  const value = [owner.slice(eq + 1), ...args.slice(start + 1, end + 1)].join(' ');
  return `"${args[i]}" is not key=value: a value with spaces must be quoted, as in ${owner.slice(0, eq)}="${value}"`;
}

/** A value for the old -> new lines: a long one (a controller's schedule) cut, with its length. */
const show = (v: string | undefined): string =>
  v === undefined
    ? '(unset)'
    : v.length > 80
      ? `${JSON.stringify(v.slice(0, 60))}... (${v.length} characters)`
      : JSON.stringify(v);

/** The settings of one store key, as a map, for the old -> new lines. */
function settingsIn(value: string | undefined): Record<string, string> {
  if (value === undefined) return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, string>)
      : {};
  } catch {
    return {};
  }
}

/** `allow_percentage: "50" -> "25" (room.shop.allow_percentage)`, one line per change. */
function changeLines(current: StoreData, plan: TunePlan, request: TuneRequest): string[] {
  const lines: string[] = [];
  if (request.routing !== undefined) {
    const changes = routingChanges(current[ROUTING_KEY], plan.writes[ROUTING_KEY]!);
    lines.push(
      `routing: ${current[ROUTING_KEY] === undefined ? 'set' : 'replaced'} (${configValueChars(plan.writes[ROUTING_KEY]!)} of ${CONFIG_STORE_VALUE_LIMIT} characters)${current[ROUTING_KEY] === undefined ? '' : `: ${changes || 'no room or rule changed'}`}`,
    );
  }
  for (const { setting, key } of plan.changes) {
    const before = key.endsWith('.allow_percentage') ? current[key] : settingsIn(current[key])[setting];
    const after = key.endsWith('.allow_percentage') ? plan.next[key] : settingsIn(plan.next[key])[setting];
    if (before !== after) lines.push(`${setting}: ${show(before)} -> ${show(after)} (${key})`);
    else if (before !== undefined) lines.push(`${setting}: unchanged, ${show(before)} (${key})`);
    else if (key === SETTINGS_KEY && LIVE_SETTINGS.includes(setting))
      lines.push(`${setting}: set in no room and not service-wide, nothing to clear`);
    else lines.push(`${setting}: not set (${key}), nothing to remove`);
  }
  return lines;
}

/** Null when the writes change the store; else what the operator asked that is already so. */
function nothingToChange(current: StoreData, plan: TunePlan): string | null {
  if (
    Object.entries(plan.writes).some(([key, value]) =>
      value === '' ? Object.hasOwn(current, key) : current[key] !== value && !onlyBasisChanged(current, key, value),
    )
  )
    return null;
  const absent = [
    ...new Set(
      plan.changes.filter((c) => c.key === SETTINGS_KEY && LIVE_SETTINGS.includes(c.setting)).map((c) => c.setting),
    ),
  ];
  const why =
    absent.length > 0
      ? `${absent.join(', ')} ${absent.length === 1 ? 'is' : 'are'} set in no room and not service-wide`
      : 'the store already holds these values';
  return `nothing to change: ${why}`;
}

function refuse(plan: TunePlan, target: string): number {
  for (const e of plan.errors) console.error(e);
  console.error(`nothing was written to ${target}`);
  return 1;
}

async function tuneLocal(file: string, request: TuneRequest | null, now: () => number): Promise<number> {
  const current = await readStore(file);
  if (request === null) {
    for (const line of showLines(file, current, now())) console.log(line);
    return 0;
  }
  const plan = planTune(current, request, { command: LOCAL_TUNE, nowMs: now() });
  const keys = request.updates.has('active_key') ? await localSigningKeys(keysFile(), plan.next) : null;
  if (keys !== null) plan.errors.push(...activeKeyErrors(plan.next, request, keys, LOCAL_TUNE));
  if (plan.errors.length > 0) return refuse(plan, file);
  for (const w of plan.warnings) console.error(`warning: ${w}`);
  const nothing = nothingToChange(current, plan);
  if (nothing !== null) {
    console.log(`${nothing}; nothing was written to ${file}`);
    return 0;
  }
  await writeStoreAtomic(file, plan.next);
  for (const line of changeLines(current, plan, request)) console.log(line);
  const note = keys === null ? null : activeKeyNote(request, keys);
  if (note !== null) console.log(note);
  console.log(`written to ${file}; the local host picks it up within a second (it polls the file)`);
  return 0;
}

/**
 * A service's `waiting_room_config`: its id and its items. The reads run even on a dry run: the
 * writes depend on what the store holds (JSON values are rewritten whole), and reading changes nothing.
 */
export function readServiceStore(serviceId: string, storeId: string | undefined): { id: string; current: StoreData } {
  const reader = fastlyRunner(false, (line) => console.error(line));
  const id = storeId ?? resolveStoreId(reader, serviceId, CONFIG_STORE);
  return {
    id,
    current: parseStoreList(reader.run(['config-store-entry', 'list', '--store-id', id, '--json']) ?? '[]'),
  };
}

function tuneService(
  serviceId: string,
  storeId: string | undefined,
  dryRun: boolean,
  request: TuneRequest | null,
  now: () => number,
): number {
  const { id, current } = readServiceStore(serviceId, storeId);
  if (request === null) {
    for (const line of showLines(`service ${serviceId}, Config Store ${id}`, current, now())) console.log(line);
    return 0;
  }
  const command = `${LOCAL_TUNE} --service ${serviceId}`;
  const plan = planTune(current, request, { command, nowMs: now() });
  if (request.updates.has('active_key')) {
    const keys = serviceSigningKeys(
      fastlyRunner(false, (line) => console.error(line)),
      serviceId,
    );
    plan.errors.push(...activeKeyErrors(plan.next, request, keys, command));
  }
  if (plan.errors.length > 0) return refuse(plan, `service ${serviceId}`);
  for (const w of plan.warnings) console.error(`warning: ${w}`);
  const nothing = nothingToChange(current, plan);
  if (nothing !== null) {
    console.log(`${nothing}; nothing was written to service ${serviceId}`);
    return 0;
  }
  writeServiceValues(fastlyRunner(dryRun), id, plan.writes);
  if (!dryRun) {
    for (const line of changeLines(current, plan, request)) console.log(line);
    console.log(`Config Store ${id} updated; Fastly propagates the change within seconds, no new deploy needed`);
  }
  return 0;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

export const USAGE = `usage: npm run tune -- [--service ID [--store-id ID] [--dry-run]] [--file PATH] [--room ID] [--routing FILE|-] [--show | --routing-json] key=value ...
  (nothing), --show   show the routing and each room's settings, where each comes from, and any problems
  --routing-json      print the routing as a JSON file to edit and write back with --routing FILE
  key=value           a service-wide setting (the settings value); with --room ID, that room's own
  key=                an empty value removes the setting (the service-wide one, else the default, applies)
  --routing FILE      the rooms, their routes and the rules, from a JSON file (- reads stdin)
  --room ID           change that room's own settings (room.ID) rather than the service-wide ones
  --file PATH         another local store file (default local/config.json, or WR_CONFIG_FILE)
  --service ID        the same on a Fastly service's waiting_room_config, through the fastly CLI
  --store-id ID       with --service: the Config Store's id, when you know it (saves a lookup)
  --dry-run           with --service: read the store, print the fastly CLI writes instead of running them
  quote a value with spaces: npm run tune -- message="Back at noon"`;
const HELP = `${USAGE}\nsettings: ${[...knownKeys].join(', ')}`;

/**
 * The routing as a file to edit and give back with --routing: pretty JSON; without one, the single
 * room it stands for. Text that is not JSON is printed as it is, to be fixed by hand.
 */
export function routingJson(raw: string | undefined): string {
  if (raw === undefined) return JSON.stringify({ rooms: [{ id: 'default', routes: ['/'] }], rules: [] }, null, 2);
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

export interface TuneIo {
  /** What `--routing -` reads. */
  stdin?: () => Promise<string>;
  /** The time now, ms (the show's ages and the chance in effect now). */
  now?: () => number;
}

export async function main(argv: readonly string[], io: TuneIo = {}): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      service: { type: 'string' },
      'store-id': { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      file: { type: 'string' },
      room: { type: 'string' },
      routing: { type: 'string' },
      show: { type: 'boolean', default: false },
      'routing-json': { type: 'boolean', default: false },
    },
  });
  if (values['routing-json']) {
    if (positionals.length > 0 || values.routing !== undefined || values.room !== undefined)
      throw new UsageError('--routing-json only prints the routing; leave out the rest');
    const current =
      values.service !== undefined
        ? readServiceStore(values.service, values['store-id']).current
        : await readStore(localConfigFile(values.file));
    console.log(routingJson(current[ROUTING_KEY]));
    return 0;
  }
  const updates = parseAssignments(positionals);
  let routing: string | undefined;
  if (values.routing === '-') routing = await (io.stdin ?? (() => readAll(process.stdin)))();
  else if (values.routing !== undefined) {
    try {
      routing = await readFile(values.routing, 'utf8');
    } catch (error) {
      throw new UsageError(
        `--routing ${values.routing}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
  }
  const changes = updates.size > 0 || routing !== undefined;
  if (values.show && changes) throw new UsageError('--show changes nothing; leave out the settings, or --show');
  if (!changes && values.room !== undefined)
    throw new UsageError(
      `--room ${values.room}: name the settings to change, e.g. npm run tune -- --room ${values.room} allow_percentage=30 (npm run tune alone shows every room)`,
    );
  const request: TuneRequest | null = changes
    ? { room: values.room ?? null, updates, ...(routing === undefined ? {} : { routing }) }
    : null;
  const now = io.now ?? Date.now;
  if (values.service !== undefined)
    return tuneService(values.service, values['store-id'], values['dry-run'], request, now);
  if (values['store-id'] !== undefined || values['dry-run'])
    throw new UsageError('--store-id and --dry-run go with --service ID');
  return tuneLocal(localConfigFile(values.file), request, now);
}

if (isMain(import.meta.url)) runTool('npm run tune', USAGE, (argv) => main(argv), HELP);
