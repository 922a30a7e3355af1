// Whether the key a room's active_key names can sign, before `npm run tune` writes active_key: a room
// that names no usable key answers every new visitor with a 503 (src/core/tokens/keys.ts says so only in its
// log). Locally the keys are local/keys.json, read as the room reads them; on a service, the names in
// its Secret Store, asked through the Fastly CLI (a Secret Store never gives a value back, so there
// only the name can be checked).
import { decodeBase64, EVENT_SEED_ID, isTokenKid, MIN_KEY_BYTES } from '../src/core/tokens/index.js';
import { SETTINGS_KEY, storeKeyOf } from '../src/core/settings/index.js';
import { KEY_STORE } from '../src/fastly/names.js';
import { readStoreIfExists, type StoreData } from '../lib/json-store.js';
import { resolveStoreId, type FastlyRunner } from '../lib/fastly-cli.js';
import { roomSettings, settingSources, storeRooms } from '../lib/room-store.js';
import type { TuneRequest } from './tune-plan.js';
import { roomsText, scopeLabel, tuneCommand } from './tune-scope.js';

export interface SigningKeys {
  /** Where the keys are, for a message: a file, or a service's Secret Store. */
  where: string;
  /** Each token key held (never the event seed or an invite key) -> why it cannot sign, or null when it can. */
  keys: ReadonlyMap<string, string | null>;
  /** The command that adds key `kid` there. */
  addCommand(kid: string): string;
  /** The key the next `npm start` makes, when the local file holds none yet (it takes the service-wide active_key's id). */
  madeOnStart?: string;
}

/** Why a stored key cannot sign, as the room judges it (src/core/tokens/keys.ts), or null when it can. */
export function unusableWhy(kid: string, value: string): string | null {
  const bytes = decodeBase64(value);
  if (bytes === null) return `the key "${kid}" is not base64`;
  return bytes.length < MIN_KEY_BYTES ? `the key "${kid}" is under ${MIN_KEY_BYTES} bytes (${bytes.length})` : null;
}

/** local/keys.json (or WR_KEYS_FILE) for the store as it would be after the write. */
export async function localSigningKeys(file: string, next: StoreData): Promise<SigningKeys> {
  const stored = (await readStoreIfExists(file)) ?? {};
  const keys = new Map(
    Object.entries(stored)
      .filter(([kid]) => isTokenKid(kid))
      .map(([kid, value]) => [kid, unusableWhy(kid, value)] as const),
  );
  const addCommand = (kid: string): string => `npm run keys -- add ${kid}`;
  // `npm run keys -- generate` (npm start's first step) names the first key after the service-wide active_key.
  if (keys.size === 0) return { where: file, keys, addCommand, madeOnStart: roomSettings(next, null).config.activeKey };
  return { where: file, keys, addCommand };
}

/** The names in a service's `waiting_room_keys`, page by page (`fastly secret-store-entry list`). */
export function serviceSigningKeys(fastly: FastlyRunner, serviceId: string): SigningKeys {
  const store = resolveStoreId(fastly, serviceId, KEY_STORE);
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const out =
      fastly.run([
        'secret-store-entry',
        'list',
        '--store-id',
        store,
        '--limit',
        '200',
        '--json',
        ...(cursor === undefined ? [] : ['--cursor', cursor]),
      ]) ?? '{"data": []}';
    const page = readSecretPage(out, serviceId);
    names.push(...page.names);
    cursor = page.next;
  } while (cursor !== undefined && names.length < 10_000);
  return {
    where: `the Secret Store ${KEY_STORE} (${store}) of service ${serviceId}`,
    keys: new Map(names.filter(isTokenKid).map((n) => [n, null] as const)),
    addCommand: (kid) => `npm run keys -- add ${kid} --fastly-service ${serviceId}`,
  };
}

/** One page of `fastly secret-store-entry list --json`: `{data: [{name}], meta: {next_cursor}}`. */
function readSecretPage(out: string, serviceId: string): { names: string[]; next: string | undefined } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(out);
  } catch {
    throw new Error(`could not read the secrets of service ${serviceId}'s ${KEY_STORE}: the answer is not JSON`);
  }
  const page = (parsed ?? {}) as { data?: unknown; meta?: { next_cursor?: unknown } };
  const list = Array.isArray(parsed) ? parsed : Array.isArray(page.data) ? page.data : null;
  if (list === null)
    throw new Error(
      `could not read the secrets of service ${serviceId}'s ${KEY_STORE}: expected {"data": [{"name": ...}]}`,
    );
  const names = list
    .map((s) => (s ?? {}) as { name?: unknown; Name?: unknown })
    .map((s) => s.name ?? s.Name)
    .filter((n): n is string => typeof n === 'string');
  const next = page.meta?.next_cursor;
  return { names, next: typeof next === 'string' && next !== '' ? next : undefined };
}

/** Why `kid` cannot sign with these keys, or null when it can. */
function whyNot(kid: string, keys: SigningKeys): string | null {
  if (!isTokenKid(kid))
    return `"${kid}" names ${kid === EVENT_SEED_ID ? 'the event seed' : 'an invite key'}, which never signs tokens`;
  if (keys.madeOnStart === kid) return null;
  if (!keys.keys.has(kid)) return `there is no key "${kid}" in ${keys.where}`;
  return keys.keys.get(kid) ?? null;
}

/**
 * The refusals for a request that changes active_key: each key a room would sign with after the write
 * (and the value written, even where every room keeps its own) must be one that can sign. Each names
 * the scope, the rooms it would stop, the keys there are and the commands that fix it.
 */
export function activeKeyErrors(next: StoreData, request: TuneRequest, keys: SigningKeys, prefix: string): string[] {
  const written = request.updates.get('active_key');
  if (written === undefined) return [];
  const storeKey = storeKeyOf('active_key', request.room);
  const byKid = new Map<string, { rooms: string[]; byDefault: boolean }>();
  if (written.trim() !== '') byKid.set(written.trim(), { rooms: [], byDefault: false });
  for (const room of request.room === null ? storeRooms(next) : [request.room]) {
    const from = settingSources(next, room).active_key;
    // A room that keeps its own active_key is not changed by a service-wide write.
    if (request.room === null && (from ?? SETTINGS_KEY) !== SETTINGS_KEY) continue;
    const kid = roomSettings(next, room).config.activeKey;
    const seen = byKid.get(kid) ?? { rooms: [], byDefault: false };
    byKid.set(kid, { rooms: [...seen.rooms, room], byDefault: seen.byDefault || from === undefined });
  }
  const usable = [...keys.keys].filter(([, why]) => why === null).map(([kid]) => kid);
  const errors: string[] = [];
  for (const [kid, { rooms, byDefault }] of byKid) {
    const why = whyNot(kid, keys);
    if (why === null) continue;
    const what =
      written.trim() === ''
        ? `removing setting "active_key" (${scopeLabel(storeKey)}, in ${storeKey})`
        : `setting "active_key" = "${written.trim()}" (${scopeLabel(storeKey)}, in ${storeKey})`;
    const signs =
      kid === written.trim()
        ? ''
        : `${roomsText(rooms)} would sign with "${kid}"${byDefault ? ' (the default)' : ''}, but `;
    const harm =
      rooms.length === 0
        ? 'no room could sign with it'
        : `${roomsText(rooms)} could not sign a token, and every new visitor would get a 503`;
    const held =
      keys.keys.size === 0 ? `${keys.where} holds no key` : `the keys there are ${[...keys.keys.keys()].join(', ')}`;
    errors.push(`refused: ${what}: ${signs}${why}: ${harm}; ${held}`);
    const fixes = usable
      .filter((k) => k !== kid)
      .slice(0, 3)
      .map((k) => `${tuneCommand(prefix, request.room, [['active_key', k]])}   (sign with the existing key "${k}")`);
    if (isTokenKid(kid)) fixes.push(`${keys.addCommand(kid)}   (add the key, then run this command again)`);
    errors.push('  fix it with one of:', ...fixes.map((f) => `    ${f}`));
  }
  return errors;
}

/** What an accepted active_key change should know: the local key file is made by the next npm start. */
export function activeKeyNote(request: TuneRequest, keys: SigningKeys): string | null {
  if (!request.updates.has('active_key') || keys.madeOnStart === undefined) return null;
  return `${keys.where} ${keys.keys.size === 0 ? 'does not exist yet' : 'holds no signing key yet'}: npm start makes it with the key "${keys.madeOnStart}"`;
}
