// `npm run keys`: the token signing keys in `waiting_room_keys` (key id -> base64 of the key bytes).
//
//   npm run keys -- generate          local/keys.json with a fresh key, if the file does not exist yet
//   npm run keys -- list              key ids (never the keys) and which one signs
//   npm run keys -- add KID           a new key that verifies but does not sign yet
//   npm run keys -- rotate KID        a new key, made the signing key (active_key in local/config.json)
//   npm run keys -- remove KID        drop an old key (never the active one)
//   npm run keys -- new               print a fresh key, for pasting into the Fastly UI
//   npm run keys -- add-invite [KID]  an invite key `invite.KID` (default k1), for npm run invite
//   npm run keys -- remove-invite KID drop an invite key: every invite it signed stops working
//   ... --fastly-service ID [--secret-store-id ID] [--config-store-id ID] [--dry-run]
//                                     the same on a Fastly service's stores, through the Fastly CLI
//
// Invite keys (`invite.KID`, docs/invites.md) share the store but are a key id space of their own:
// they never sign or verify room tokens, so the token verbs refuse that prefix. An invite key sent to a
// service stays in the local key file as well: whoever makes invites needs its value.
//
// Keys are 64 random bytes: HS512 wants a key at least as long as its 64-byte hash, and the room
// refuses anything under 32 bytes.
import { parseArgs } from 'node:util';
import { storeWrites } from '../src/core/settings/index.js';
import { roomSettings, signingKeys, storeRooms } from '../lib/room-store.js';
import { applyWrites, readStore, readStoreIfExists, writeStoreAtomic, type StoreData } from '../lib/json-store.js';
import { decodeBase64, EVENT_SEED_ID, INVITE_KID_PREFIX, isTokenKid, MIN_KEY_BYTES } from '../src/core/tokens/index.js';
import type { Config } from '../src/core/types.js';
import { fastlyRunner } from '../lib/fastly-cli.js';
import { isMain, runTool, UsageError } from '../lib/cli.js';
import { checkKid, inviteKeyName, KEY_BYTES, KEY_FILE_MODE, KeyError, type LocalFiles, newKey } from './keys-names.js';
import { addInviteService, runService } from './keys-service.js';
import { keysFile } from '../lib/paths.js';
import { localConfigFile } from '../lib/local-store.js';
import { forgetKey, readRotations, recordRotation } from '../lib/key-rotations.js';

/** The service-wide settings as the edge reads them: trimmed, with its defaults for missing or unusable values. */
function serviceSettings(data: StoreData): Config {
  return roomSettings(data, null).config;
}

async function activeKey(configPath: string): Promise<string> {
  return serviceSettings((await readStoreIfExists(configPath)) ?? {}).activeKey;
}

async function generate(files: LocalFiles): Promise<string> {
  const existing = await readStoreIfExists(files.keys);
  // A file that holds nothing but an event's seed (`npm run event -- seed` came first) still needs a key.
  const signing = existing === null ? [] : Object.keys(existing).filter(isTokenKid);
  if (existing !== null && signing.length > 0) return `${files.keys} exists (${signing.length} key(s)); left as it is`;
  // The first key takes the id the settings already name, so a fresh clone works without a rotation.
  const kid = checkKid(await activeKey(files.config));
  await writeStoreAtomic(files.keys, { ...existing, [kid]: newKey() }, KEY_FILE_MODE);
  return `wrote ${files.keys} with a new ${KEY_BYTES}-byte key "${kid}"`;
}

async function loadKeys(files: LocalFiles): Promise<StoreData> {
  const keys = await readStoreIfExists(files.keys);
  if (keys === null) throw new KeyError(`${files.keys} does not exist; run: npm run keys -- generate`);
  return keys;
}

async function addLocal(files: LocalFiles, kid: string): Promise<StoreData> {
  const keys = await loadKeys(files);
  // Replacing a key in place would silently invalidate every cookie it signed; a new id is cheap.
  if (Object.hasOwn(keys, kid)) throw new KeyError(`key "${kid}" already exists; choose a new key id`);
  const next = { ...keys, [kid]: newKey() };
  await writeStoreAtomic(files.keys, next, KEY_FILE_MODE);
  return next;
}

async function list(files: LocalFiles): Promise<string> {
  const keys = await loadKeys(files);
  const active = await activeKey(files.config);
  const lines = Object.entries(keys).map(([kid, value]) => {
    // The room's own decoder: Buffer.from(…, 'base64') skips characters the room refuses.
    const bytes = decodeBase64(value);
    const unusable =
      bytes === null
        ? '  NOT BASE64 (the room ignores it)'
        : bytes.length < MIN_KEY_BYTES
          ? `  WEAK (${bytes.length} bytes; the room ignores it)`
          : '';
    // The event's seed shares the store but is never a token key (npm run event).
    const role =
      kid === EVENT_SEED_ID
        ? '  (the event seed, not a signing key)'
        : kid.startsWith(INVITE_KID_PREFIX)
          ? '  (an invite key, not a signing key)'
          : '';
    return `${kid === active ? '*' : ' '} ${kid}${unusable}${role}`;
  });
  if (!Object.hasOwn(keys, active))
    lines.push(`active_key "${active}" is not in ${files.keys}: the room cannot sign new tokens`);
  return lines.join('\n');
}

async function addInviteLocal(files: LocalFiles, name: string): Promise<string> {
  // No signing key needed first: a backend may make invites before the room has ever run.
  const keys = (await readStoreIfExists(files.keys)) ?? {};
  if (Object.hasOwn(keys, name))
    throw new KeyError(
      `invite key "${name}" already exists; choose a new key id (replacing it would void every invite it signed)`,
    );
  await writeStoreAtomic(files.keys, { ...keys, [name]: newKey() }, KEY_FILE_MODE);
  const id = name.slice(INVITE_KID_PREFIX.length);
  return `added invite key "${name}" to ${files.keys}; make an invite with: npm run invite -- --room ROOM --sub IDENTITY${id === 'k1' ? '' : ` --kid ${id}`}`;
}

async function removeInviteLocal(files: LocalFiles, name: string): Promise<string> {
  const keys = await loadKeys(files);
  if (!Object.hasOwn(keys, name)) throw new KeyError(`no invite key "${name}" in ${files.keys}`);
  const next = { ...keys };
  delete next[name];
  await writeStoreAtomic(files.keys, next, KEY_FILE_MODE);
  return `removed invite key "${name}"; invites it signed are now refused (invite_forged)`;
}

const clock = (ms: number): string => new Date(ms).toISOString().slice(11, 19);

/**
 * A key that stopped signing less than the longest cookie lifetime ago (any room's cookie_lifetime)
 * still verifies live cookies: removing it sends their holders back to the queue. Known only for keys
 * a rotation retired (it records when).
 */
async function refuseLiveCookies(files: LocalFiles, id: string, nowMs: number): Promise<void> {
  const at = readRotations(files.keys).retired[id];
  if (at === undefined) return;
  const config = (await readStoreIfExists(files.config)) ?? {};
  const lifetime = Math.max(
    roomSettings(config, null).config.cookieLifetimeSeconds,
    ...storeRooms(config).map((room) => roomSettings(config, room).config.cookieLifetimeSeconds),
  );
  const safeMs = Date.parse(at) + lifetime * 1000;
  if (nowMs >= safeMs) return;
  const day =
    new Date(safeMs).toISOString().slice(0, 10) === new Date(nowMs).toISOString().slice(0, 10)
      ? ''
      : ` on ${new Date(safeMs).toISOString().slice(0, 10)}`;
  throw new KeyError(
    `key "${id}" stopped signing at ${clock(Date.parse(at))} UTC, and the cookies it signed live for cookie_lifetime ${lifetime} s more, until ${clock(safeMs)} UTC${day}: ` +
      `removing it now sends their holders back to the queue. Remove it after then, or now anyway: npm run keys -- remove ${id} --force`,
  );
}

async function runLocal(command: string, kid: string | undefined, files: LocalFiles, force = false): Promise<string> {
  switch (command) {
    case 'add-invite':
      return addInviteLocal(files, inviteKeyName(kid));
    case 'remove-invite':
      if (kid === undefined) throw new UsageError('name the invite key id to remove, e.g. remove-invite k1');
      return removeInviteLocal(files, inviteKeyName(kid));
    case 'generate':
      return generate(files);
    case 'list':
      return list(files);
    case 'add':
      await addLocal(files, checkKid(kid));
      return `added key "${kid}" to ${files.keys}; it verifies tokens now, and signs once active_key names it`;
    case 'rotate': {
      const id = checkKid(kid);
      const configPath = files.config;
      const config = await readStore(configPath);
      await addLocal(files, id);
      const settings = serviceSettings(config);
      const old = settings.activeKey;
      // The service-wide active_key, where the edge reads it (src/core/settings/layout.ts).
      await writeStoreAtomic(configPath, applyWrites(config, storeWrites(config, null, { active_key: id })));
      await recordRotation(files.keys, old, id, Date.now());
      return [
        `added key "${id}" and set active_key: "${old}" -> "${id}" in ${configPath}`,
        `new tokens are signed with "${id}"; "${old}" still verifies the cookies it signed.`,
        `Remove it once they have expired (cookie_lifetime, ${settings.cookieLifetimeSeconds} s): npm run keys -- remove ${old}`,
      ].join('\n');
    }
    case 'remove': {
      const id = checkKid(kid);
      const keys = await loadKeys(files);
      if (!Object.hasOwn(keys, id)) throw new KeyError(`no key "${id}" in ${files.keys}`);
      const rooms = signingKeys((await readStoreIfExists(files.config)) ?? {}).get(id);
      if (rooms !== undefined)
        throw new KeyError(
          `key "${id}" is the active_key of room${rooms.length === 1 ? '' : 's'} ${rooms.join(', ')} (it signs new tokens); rotate to another key first`,
        );
      if (!force) await refuseLiveCookies(files, id, Date.now());
      const next = { ...keys };
      delete next[id];
      await writeStoreAtomic(files.keys, next, KEY_FILE_MODE);
      await forgetKey(files.keys, id);
      return `removed key "${id}"; cookies it signed are now invalid and their holders queue again`;
    }
    default:
      throw new UsageError(
        `unknown command "${command}"; use generate, list, add, rotate, remove, new, add-invite or remove-invite`,
      );
  }
}

const USAGE = `usage: npm run keys -- generate | list | add KID | rotate KID | remove KID [--force] | new | add-invite [KID] | remove-invite KID
       [--fastly-service ID [--secret-store-id ID] [--config-store-id ID] [--dry-run]] [--file keys.json] [--config-file config.json]
  the token signing keys in waiting_room_keys (key id -> base64 of 64 random bytes); locally local/keys.json
  generate             make local/keys.json with a fresh key named as active_key says, if it has no key yet
  list                 the key ids (never the keys), which one signs (*), and any the room cannot use
  add KID              a new key that verifies tokens but does not sign until active_key names it
  rotate KID           a new key made the signing key (active_key); the old one still verifies its cookies
  remove KID           drop an old key: the cookies it signed stop working. Refused while it is an
                       active_key, or younger than the longest token lifetime (its cookies still live)
  --force              with remove: remove it even so
  new                  print a fresh key, to paste into the Fastly UI
  add-invite [KID]     an invite key invite.KID (default k1), for npm run invite (docs/invites.md)
  remove-invite KID    drop an invite key: every invite it signed is refused from then on
  --fastly-service ID  do add, rotate, remove, add-invite or remove-invite on that service's stores, through the Fastly CLI
  --secret-store-id ID  with --fastly-service: the Secret Store's id, when the service links several
  --config-store-id ID  with --fastly-service: the Config Store's id (rotate writes active_key there)
  --dry-run            with --fastly-service: print the fastly commands instead of running them
  --file keys.json     the local key file (default local/keys.json)
  --config-file config.json  the local settings store active_key is read from and written to (default local/config.json)`;

export async function main(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      'fastly-service': { type: 'string' },
      'secret-store-id': { type: 'string' },
      'config-store-id': { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      file: { type: 'string' },
      'config-file': { type: 'string' },
      force: { type: 'boolean', default: false },
    },
  });
  const [command = 'help', kid, ...extra] = positionals;
  if (command === 'help') {
    console.log(USAGE);
    return 0;
  }
  if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
  if (command === 'new') {
    console.log(newKey());
    return 0;
  }
  const serviceId = values['fastly-service'];
  const files = (): LocalFiles => ({ keys: keysFile(values.file), config: localConfigFile(values['config-file']) });
  const service =
    serviceId === undefined
      ? null
      : { serviceId, secretStoreId: values['secret-store-id'], configStoreId: values['config-store-id'] };
  const message =
    service === null
      ? await runLocal(command, kid, files(), values.force)
      : command === 'add-invite'
        ? await addInviteService(files(), inviteKeyName(kid), service, fastlyRunner(values['dry-run']))
        : runService(command, kid, service, fastlyRunner(values['dry-run']));
  if (message !== '') console.log(message);
  return 0;
}

// A KeyError (a key the store lacks, a store that cannot be used) exits 1; a wrong command line 2.
if (isMain(import.meta.url)) runTool('npm run keys', USAGE, main);
