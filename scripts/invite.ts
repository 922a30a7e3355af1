// `npm run invite`: an invitation for one visitor to one room (docs/invites.md), signed with the local
// invite key `invite.KID` in local/keys.json. It prints the invite, a link and a curl command.
//
//   npm run invite -- --room ID --sub IDENTITY [--lane LANE] [--minutes 60] [--kid k1] [--keys local/keys.json]
//                     [--url URL] [--config local/config.json | --service SERVICE_ID]
//
// IDENTITY is the visitor as the room sees them for the room's `identity` setting (identity.ts):
// `ip:203.0.113.7` (an IPv6 address is written as the room groups it, by its /64), `header:VALUE`,
// `jwt:SUB`, or `none`. With `--lane`, the invite puts its visitor in that priority lane of the room
// (docs/lanes.md) instead of letting them in. An invite the edge could never accept is refused before
// signing: a room the local store's routing does not name, an identity of another kind than the
// room's `identity`, a lane the room does not declare.
import { parseArgs } from 'node:util';
import { groupAddress } from '../src/core/request/index.js';
import {
  INVITE_HEADER,
  INVITE_KID_PREFIX,
  INVITE_PARAM,
  MAX_INVITE_CHARS,
  signInvite,
  decodeBase64,
  MIN_KEY_BYTES,
} from '../src/core/tokens/index.js';
import { LANE_ID, ROOM_ID } from '../src/core/settings/index.js';
import { readStoreIfExists, type StoreData } from '../lib/json-store.js';
import { isMain, isoSeconds, runTool, UsageError } from '../lib/cli.js';
import { localConfigFile } from '../lib/local-store.js';
import { configFile, keysFile } from '../lib/paths.js';
import { roomSettings, storeRooms, storeRouting } from '../lib/room-store.js';
import type { IdentitySource } from '../src/core/types.js';
import { DEFAULT_ROOM_PORT, recordedRoomUrl } from './start-ports.js';

export class InviteError extends Error {
  override name = 'InviteError';
}

const USAGE = `usage: npm run invite -- --room ID --sub IDENTITY [--lane LANE] [--minutes 60] [--kid k1] [--keys local/keys.json]
                         [--url URL] [--config local/config.json | --service SERVICE_ID]
  --room     the room id the invite opens (e.g. shop; "default" when the service has no routing)
  --sub      the visitor, as the room's identity setting sees them:
               ip:203.0.113.7   header:VALUE   jwt:SUB   none
  --lane     a priority lane of the room (its lanes setting): the visitor waits in it instead of
             coming in at once (docs/lanes.md)
  --minutes  how long it stays valid (default 60; keep it short: anyone holding it may use it until then)
  --kid      the invite key: invite.KID in the key file (default k1; make one: npm run keys -- add-invite KID)
  --url      the page the printed link opens (default the local room where npm start last served it,
             else http://127.0.0.1:${DEFAULT_ROOM_PORT}/)
  --keys     the key file holding invite.KID (default local/keys.json)
  --config   the settings store the room and identity are checked against (default local/config.json)
  --service  the invite is for that Fastly service: the local store is not checked`;

/** The identity text as the room writes it, or a UsageError saying what the forms are. */
export function identityArg(sub: string): string {
  const forms = 'ip:ADDRESS, header:VALUE, jwt:SUB or none';
  if (sub === 'none') return sub;
  const m = /^(ip|header|jwt):(.*)$/.exec(sub);
  const value = m?.[2]?.trim() ?? '';
  if (!m || value === '') throw new UsageError(`--sub "${sub}" is not an identity the room could have; use ${forms}`);
  // The room trims a header's value and groups an address; an invite for anything else never matches.
  return m[1] === 'ip' ? `ip:${groupAddress(value)}` : `${m[1]}:${value}`;
}

/**
 * The room a signed link is for, from `--room`, with `--config` and `--service` not both given: the
 * checks `npm run invite` and `npm run preview` share.
 */
export function signedRoomArg(values: { room?: string; config?: string; service?: string }): string {
  if (values.config !== undefined && values.service !== undefined)
    throw new UsageError('--config and --service name two stores: give one');
  const { room } = values;
  if (room === undefined) throw new UsageError('name the room: --room ID');
  if (!ROOM_ID.test(room))
    throw new UsageError(`--room "${room}" is not a room id (lower case letters, digits, "-" and "_", at most 32)`);
  return room;
}

/** `--minutes`: a whole number, at least 1 and, when `max` is given, at most it. */
export function minutesArg(text: string, max?: number): number {
  const minutes = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(minutes) || minutes < 1 || (max !== undefined && minutes > max))
    throw new UsageError(
      `--minutes "${text}" must be a whole number of minutes, ${max === undefined ? 'at least 1' : `1 to ${max}`}`,
    );
  return minutes;
}

/** The options of a signed link's key, address and store, which `npm run invite` and `npm run preview` share. */
export const LINK_OPTIONS = {
  kid: { type: 'string', default: 'k1' },
  keys: { type: 'string' },
  url: { type: 'string' },
  config: { type: 'string' },
  service: { type: 'string' },
} as const;

/** `--kid`: the name of an invite key, as `invite.KID` in the key file may have it. */
export function kidArg(kid: string): string {
  if (!/^[A-Za-z0-9_.-]+$/.test(kid))
    throw new UsageError(`--kid "${kid}" may only hold letters, digits, "-", "_" and "."`);
  return kid;
}

/**
 * Where a printed link points: `--url`, else the room npm start serves, wherever --addr put it (it
 * records the address beside the settings; not with `--service`), else the default local room.
 * `example` is the URL the usage error offers.
 */
export function linkBaseArg(values: { url?: string; config?: string; service?: string }, example: string): URL {
  try {
    const started = values.service === undefined ? recordedRoomUrl(configFile(values.config)) : null;
    return new URL(values.url ?? started ?? `http://127.0.0.1:${DEFAULT_ROOM_PORT}/`);
  } catch {
    throw new UsageError(`--url "${values.url}" is not a URL, e.g. ${example}`);
  }
}

/** The bytes of invite key `invite.KID` in the key file, or an InviteError saying how to make one the room uses. */
export async function inviteKeyBytes(file: string, kid: string): Promise<Uint8Array> {
  const name = INVITE_KID_PREFIX + kid;
  const stored = (await readStoreIfExists(file))?.[name];
  if (stored === undefined)
    throw new InviteError(`no invite key "${name}" in ${file}; make one: npm run keys -- add-invite ${kid}`);
  const bytes = decodeBase64(stored);
  if (bytes === null || bytes.length < MIN_KEY_BYTES) {
    const what = bytes === null ? 'is not base64' : `is ${bytes.length} bytes, under ${MIN_KEY_BYTES}`;
    throw new InviteError(
      `the invite key "${name}" in ${file} ${what}: the room ignores it. Make another: npm run keys -- add-invite NEWKID`,
    );
  }
  return bytes;
}

/** Refuses a room the routing of `store` does not name; `example` writes the command for another room. */
export function checkRoomInStore(
  store: StoreData,
  file: string,
  room: string,
  example: (room: string) => string,
): void {
  const rooms = storeRooms(store);
  if (rooms.includes(room)) return;
  const { routing, single } = storeRouting(store);
  const known = single
    ? `it has no routing, so its one room is "default"`
    : routing === null
      ? 'its routing is unusable (npm run tune -- --show says why)'
      : `its rooms are ${rooms.join(', ') || '(none)'}`;
  throw new InviteError(
    `no room "${room}" in ${file}: ${known}. Name one of them (${example(rooms[0] ?? 'ID')}), or add the room to the routing: npm run tune -- --routing FILE`,
  );
}

/** The --sub form a room with this identity setting derives, and how to write it. */
function subForm(identity: IdentitySource): { kind: string; usage: string; setting: string } {
  if (identity.kind === 'ip') return { kind: 'ip', usage: '--sub ip:ADDRESS', setting: 'ip' };
  if (identity.kind === 'none') return { kind: 'none', usage: '--sub none', setting: 'none' };
  const usage =
    identity.kind === 'header'
      ? `--sub header:VALUE (the value of its ${identity.name} header)`
      : `--sub jwt:SUB (the sub claim of the JWT in ${identity.name})`;
  return { kind: identity.kind, usage, setting: `${identity.kind}:${identity.name}` };
}

/**
 * Refuses an invite the edge, run from `store`, could never accept: a room its routing does not name,
 * an identity of another kind than the room's (merged) `identity` setting.
 */
export function checkAgainstStore(
  store: StoreData,
  file: string,
  room: string,
  sub: string,
  lane: string | null = null,
): void {
  checkRoomInStore(store, file, room, (id) => `npm run invite -- --room ${id} --sub ...`);
  const form = subForm(roomSettings(store, room).config.identity);
  const kind = sub === 'none' ? 'none' : sub.slice(0, sub.indexOf(':'));
  if (kind !== form.kind) {
    throw new InviteError(
      `room ${room} identifies visitors by ${form.setting} (its identity setting in ${file}), so an invite for ${sub} never matches: use ${form.usage}, or change the room's identity: npm run tune -- --room ${room} identity=${kind === 'ip' || kind === 'none' ? kind : `${kind}:NAME`}`,
    );
  }
  if (lane === null) return;
  const lanes = roomSettings(store, room).config.lanes.map((l) => l.id);
  if (!lanes.includes(lane))
    throw new InviteError(
      `room ${room} has no lane "${lane}" in ${file} (${lanes.length === 0 ? 'it declares no lanes' : `its lanes are ${lanes.join(', ')}`}), so the invite would be no lane (invite_unknown_lane): declare it, npm run tune -- --room ${room} lanes=${lane}:30`,
    );
}

/** The local store's check, or a note on stderr saying why there is none. */
async function checkLocalStore(
  config: string | undefined,
  service: string | undefined,
  room: string,
  sub: string,
  lane: string | null,
): Promise<void> {
  if (service !== undefined) {
    console.error(
      `[invite] for service ${service}: room ${room} and identity ${sub} are not checked against its store; npm run tune -- --service ${service} --show shows its rooms`,
    );
    return;
  }
  const file = localConfigFile(config, (line) => console.error(`[local] ${line}`));
  const store = await readStoreIfExists(file);
  if (store === null) {
    console.error(`[invite] ${file} does not exist: room ${room} and identity ${sub} are not checked`);
    return;
  }
  checkAgainstStore(store, file, room, sub, lane);
}

export async function main(argv: readonly string[], nowMs: number = Date.now()): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      room: { type: 'string' },
      sub: { type: 'string' },
      lane: { type: 'string' },
      minutes: { type: 'string', default: '60' },
      ...LINK_OPTIONS,
    },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected arguments: ${positionals.join(' ')}`);
  const room = signedRoomArg(values);
  if (values.sub === undefined) throw new UsageError('name the visitor: --sub IDENTITY');
  const sub = identityArg(values.sub);
  const minutes = minutesArg(values.minutes);
  const lane = values.lane ?? null;
  if (lane !== null && (!LANE_ID.test(lane) || lane === 'general'))
    throw new UsageError(
      `--lane "${lane}" is not a lane id (lower case letters, digits, "-" and "_", at most 32; "general" is everyone's)`,
    );
  const kid = kidArg(values.kid);
  const page = linkBaseArg(values, 'https://shop.example.com/drop');

  await checkLocalStore(values.config, values.service, room, sub, lane);
  const bytes = await inviteKeyBytes(keysFile(values.keys), kid);
  const exp = Math.floor(nowMs / 1000) + minutes * 60;
  const invite = await signInvite({ room, sub, exp, ...(lane === null ? {} : { lane }) }, kid, bytes);
  if (invite.length > MAX_INVITE_CHARS)
    throw new InviteError(
      `the invite is ${invite.length} characters; the room refuses over ${MAX_INVITE_CHARS}: use a shorter --sub`,
    );
  page.searchParams.set(INVITE_PARAM, invite);
  const base = `${page.origin}${page.pathname}`;
  console.log(invite);
  console.log('');
  console.log(
    `room ${room}${lane === null ? '' : `, lane ${lane}`}, for ${sub}, until ${isoSeconds(exp)} (${minutes} min), key ${INVITE_KID_PREFIX}${kid}`,
  );
  console.log(`link:  ${page.href}`);
  console.log(`curl:  curl -H '${INVITE_HEADER}: ${invite}' ${base}`);
  return 0;
}

// An InviteError (a key the file lacks or the room would ignore) exits 1; a wrong command line 2.
if (isMain(import.meta.url)) runTool('npm run invite', USAGE, main);
