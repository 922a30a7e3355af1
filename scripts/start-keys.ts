// Before `npm start` says the room is running: can it sign a visitor's token? A room whose active_key
// names no usable key answers every new visitor with a 503, and says so only in its log.
//
// An absent or empty key store is made by `npm run keys -- generate` (the first step of npm start),
// as a fresh clone needs. A key store that holds keys, but not the one active_key names, is not
// repaired: which key should sign is the operator's choice (a typo in active_key, a key removed by
// mistake, a store copied from elsewhere), and a new key would silently end every session the old
// one signed. npm start stops and says how to fix it.
import { decodeBase64, isTokenKid, MIN_KEY_BYTES } from '../src/core/tokens/index.js';
import { readStoreIfExists } from '../lib/json-store.js';
import { settingSources, signingKeys, storeRooms } from '../lib/room-store.js';
import { SETTINGS_KEY } from '../src/core/settings/index.js';

/**
 * null when every room's active_key names a usable key; otherwise what is wrong and the commands that
 * fix it. Each room may sign with a key of its own (`npm run tune -- --room ID active_key=KID`).
 */
export async function signingKeyProblem(files: { keys: string; config: string }): Promise<string | null> {
  const config = (await readStoreIfExists(files.config)) ?? {};
  const byKey = signingKeys(config);
  const keys = await readStoreIfExists(files.keys);
  if (keys === null)
    return `${files.keys} does not exist, so the room cannot sign tokens; make it: npm run keys -- generate`;
  const usable = Object.entries(keys)
    .filter(([kid, value]) => isTokenKid(kid) && (decodeBase64(value)?.length ?? 0) >= MIN_KEY_BYTES)
    .map(([kid]) => kid);
  const [active, rooms] = [...byKey].find(([kid]) => !usable.includes(kid)) ?? [];
  if (active === undefined || rooms === undefined) return null;
  const why = !isTokenKid(active)
    ? `"${active}" names an invite key or the event seed, which never signs tokens`
    : Object.hasOwn(keys, active)
      ? `the key "${active}" in ${files.keys} is unusable (not base64, or under ${MIN_KEY_BYTES} bytes)`
      : `there is no key "${active}" in ${files.keys}`;
  const which = storeRooms(config).length > 1 ? ` in room${rooms.length === 1 ? '' : 's'} ${rooms.join(', ')}` : '';
  // A room's own active_key is changed with --room; the service-wide one without.
  const own = rooms.find((room) => (settingSources(config, room).active_key ?? SETTINGS_KEY) !== SETTINGS_KEY);
  const tune = own === undefined ? 'npm run tune --' : `npm run tune -- --room ${own}`;
  const fixes = [
    ...usable.map((kid) => `${tune} active_key=${kid}       sign with the existing key "${kid}"`),
    `npm run keys -- rotate NEWKEY        a new key, made the signing key`,
    `npm run keys -- list                 the keys there are, and which one signs`,
  ];
  return [
    `active_key is "${active}"${which} but ${why}: the room could not sign a token, and every new visitor would get a 503.`,
    'Fix it with one of:',
    ...fixes.map((f) => `  ${f}`),
  ].join('\n');
}
