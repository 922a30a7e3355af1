// `npm run tune -- allow_percentage=25 [key=value ...]`: changes waiting room settings while the room runs.
//
//   npm run tune                                   show the local settings and any problems in them
//   npm run tune -- allow_percentage=25            change local/config.json (the host re-reads it)
//   npm run tune -- bypass_paths=                  an empty value removes the setting (its default applies)
//   npm run tune -- --service ID key=value         the same on a Fastly service's waiting_room_config
//   npm run tune -- --service ID --store-id SID    ... when you know the Config Store's id
//   npm run tune -- --service ID --dry-run ...     print the Fastly CLI commands instead of running them
//   npm run tune -- --file other.json key=value    another local file (or WR_CONFIG_FILE)
//
// Values are checked with the room's own parser before anything is written: a value the room would
// replace by a default is refused here, with the setting's name, instead of surfacing later in a log.
import { parseArgs } from 'node:util';
import { CONFIG_STORE_VALUE_LIMIT, parseConfig, settingsTable } from '../src/core/config.js';
import { CONFIG_STORE } from '../src/fastly/names.js';
import { fastlyRunner, resolveStoreId } from '../lib/fastly-cli.js';
import { readStore, writeStoreAtomic, type StoreData } from '../lib/json-store.js';
import { isMain, runTool, UsageError } from '../lib/cli.js';
import { localConfigFile } from '../lib/local-store.js';
import { closest } from '../lib/suggest.js';

const knownKeys = new Set(settingsTable.map((s) => s.key));

/** `key=value` arguments -> updates; '' as value means "remove". Refuses unknown keys by name. */
export function parseAssignments(args: readonly string[]): Map<string, string> {
  const updates = new Map<string, string>();
  for (const [i, arg] of args.entries()) {
    const eq = arg.indexOf('=');
    if (eq <= 0) throw new UsageError(notAssignment(args, i));
    const key = arg.slice(0, eq).trim();
    const value = arg.slice(eq + 1).trim();
    if (!knownKeys.has(key)) {
      const near = closest(key, [...knownKeys]);
      throw new UsageError(
        near.length > 0
          ? `unknown setting "${key}": did you mean ${near.join(' or ')}? (npm run tune -- --help lists every setting)`
          : `unknown setting "${key}"; the settings are: ${[...knownKeys].join(', ')}`,
      );
    }
    if (value.length > CONFIG_STORE_VALUE_LIMIT) throw new UsageError(`setting "${key}": a value is at most ${CONFIG_STORE_VALUE_LIMIT} characters`);
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

/** A room's problem message is "what the value must be; what the room does instead". */
function splitProblem(message: string): { need: string; fallback: string } {
  const at = message.lastIndexOf('; ');
  return at < 0 ? { need: message, fallback: '' } : { need: message.slice(0, at), fallback: message.slice(at + 2) };
}

/**
 * What the room's parser says about `settings`: problems on the keys being changed are errors (the
 * caller refuses the change: the message says what the room accepts, not what it would do instead,
 * since nothing is written), problems elsewhere are warnings about settings already in the store.
 */
export function check(settings: StoreData, changed: ReadonlySet<string>): { errors: string[]; warnings: string[] } {
  const { problems } = parseConfig((key) => (Object.hasOwn(settings, key) ? settings[key]! : null));
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const p of problems) {
    const { need, fallback } = splitProblem(p.message);
    if (changed.has(p.key)) errors.push(`refused: setting "${p.key}"${p.value === '' ? '' : ` = "${p.value}"`}: it ${need}`);
    else warnings.push(`setting "${p.key}"${p.value === '' ? '' : ` = "${p.value}"`} is not used as written: it ${need}${fallback === '' ? '' : `; the room falls back: ${fallback}`}`);
  }
  return { errors, warnings };
}

function apply(current: StoreData, updates: ReadonlyMap<string, string>): StoreData {
  const next: StoreData = { ...current };
  for (const [key, value] of updates) {
    if (value === '') delete next[key];
    else next[key] = value;
  }
  return next;
}

const show = (v: string | undefined) => (v === undefined ? '(unset)' : JSON.stringify(v));

async function tuneLocal(file: string, updates: Map<string, string>): Promise<number> {
  const current = await readStore(file);
  if (updates.size === 0) {
    console.log(`${file}:`);
    for (const s of settingsTable) {
      console.log(`  ${s.key} = ${show(current[s.key])}${s.key in current ? '' : `  (default ${s.default === '' ? 'none' : s.default})`}`);
    }
    for (const w of check(current, new Set()).warnings) console.log(`  problem: ${w}`);
    return 0;
  }
  const next = apply(current, updates);
  const { errors, warnings } = check(next, new Set(updates.keys()));
  if (errors.length > 0) {
    for (const e of errors) console.error(e);
    const stays = [...updates.keys()].map((key) => `${key} stays ${show(current[key])}`).join(', ');
    console.error(`nothing was written to ${file}; ${stays}`);
    return 1;
  }
  for (const w of warnings) console.error(`warning: ${w} (unchanged by this command)`);
  await writeStoreAtomic(file, next);
  for (const [key] of updates) console.log(`${key}: ${show(current[key])} -> ${show(next[key])}`);
  console.log(`written to ${file}; the local host picks it up within a second (it polls the file)`);
  return 0;
}

function tuneService(serviceId: string, storeId: string | undefined, dryRun: boolean, updates: Map<string, string>): number {
  if (updates.size === 0) throw new UsageError('name at least one key=value to change on the service');
  // Only the changed keys are known here; they are checked on their own, as the room would read them.
  const { errors } = check(Object.fromEntries([...updates].filter(([, v]) => v !== '')), new Set(updates.keys()));
  const missing = [...updates].filter(([k, v]) => v === '' && k === 'allow_percentage');
  for (const [k] of missing) errors.push(`refused: removing setting "${k}" makes the room admit everyone; set 100 instead if you mean it`);
  if (errors.length > 0) {
    for (const e of errors) console.error(e);
    console.error(`nothing was changed on service ${serviceId}`);
    return 1;
  }
  const fastly = fastlyRunner(dryRun);
  const id = storeId ?? resolveStoreId(fastly, serviceId, CONFIG_STORE);
  for (const [key, value] of updates) {
    if (value === '') fastly.run(['config-store-entry', 'delete', '--store-id', id, '--key', key]);
    else fastly.run(['config-store-entry', 'update', '--upsert', '--store-id', id, '--key', key, '--value', value]);
    if (!dryRun) console.log(`${key} -> ${show(value === '' ? undefined : value)}`);
  }
  if (!dryRun) console.log(`Config Store ${id} updated; Fastly propagates the change within seconds, no new deploy needed`);
  return 0;
}

export const USAGE = `usage: npm run tune -- [--service ID [--store-id ID] [--dry-run]] [--file PATH] key=value ...
  (no key=value)   show the local settings and any problems in them
  key=             an empty value removes the setting (its default applies)
  quote a value with spaces: npm run tune -- message="Back at noon"`;
const HELP = `${USAGE}\nsettings: ${[...knownKeys].join(', ')}`;

export async function main(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      service: { type: 'string' },
      'store-id': { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      file: { type: 'string' },
    },
  });
  const updates = parseAssignments(positionals);
  if (values.service !== undefined) return tuneService(values.service, values['store-id'], values['dry-run'], updates);
  if (values['store-id'] !== undefined || values['dry-run']) throw new UsageError('--store-id and --dry-run go with --service ID');
  return tuneLocal(localConfigFile(values.file), updates);
}

if (isMain(import.meta.url)) runTool('npm run tune', USAGE, main, HELP);
