// `npm run invite`: an invitation for one visitor to one room (docs/invites.md), signed with the local
// invite key `invite.KID` in local/keys.json. It prints the invite, a link and a curl command.
//
//   npm run invite -- --room ID --sub IDENTITY [--minutes 60] [--kid k1] [--keys local/keys.json] [--url URL]
//
// IDENTITY is the visitor as the room sees them for the room's `identity` setting (identity.ts):
// `ip:203.0.113.7` (an IPv6 address is written as the room groups it, by its /64), `header:VALUE`,
// `jwt:SUB`, or `none`.
import { parseArgs } from 'node:util';
import { groupAddress } from '../src/core/identity.js';
import { INVITE_HEADER, INVITE_KID_PREFIX, INVITE_PARAM, MAX_INVITE_CHARS, ROOM_ID, signInvite } from '../src/core/invite.js';
import { decodeBase64, MIN_KEY_BYTES } from '../src/core/keys.js';
import { readStoreIfExists } from '../lib/json-store.js';
import { isMain, runTool, UsageError } from '../lib/cli.js';
import { keysFile } from '../lib/paths.js';
import { DEFAULT_ROOM_PORT } from './start-ports.js';

export class InviteError extends Error {
  override name = 'InviteError';
}

const USAGE = `usage: npm run invite -- --room ID --sub IDENTITY [--minutes 60] [--kid k1] [--keys local/keys.json] [--url URL]
  --room     the room id the invite opens (e.g. shop; "default" when the service has no routing)
  --sub      the visitor, as the room's identity setting sees them:
               ip:203.0.113.7   header:VALUE   jwt:SUB   none
  --minutes  how long it stays valid (default 60; keep it short: anyone holding it may use it until then)
  --kid      the invite key: invite.KID in the key file (default k1; make one: npm run keys -- add-invite KID)
  --url      the page the printed link opens (default the local room, http://127.0.0.1:${DEFAULT_ROOM_PORT}/)`;

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

function minutesArg(text: string): number {
  const minutes = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(minutes) || minutes < 1) throw new UsageError(`--minutes "${text}" must be a whole number of minutes, at least 1`);
  return minutes;
}

async function inviteKeyBytes(file: string, kid: string): Promise<Uint8Array> {
  const name = INVITE_KID_PREFIX + kid;
  const stored = (await readStoreIfExists(file))?.[name];
  if (stored === undefined) throw new InviteError(`no invite key "${name}" in ${file}; make one: npm run keys -- add-invite ${kid}`);
  const bytes = decodeBase64(stored);
  if (bytes === null || bytes.length < MIN_KEY_BYTES) {
    const what = bytes === null ? 'is not base64' : `is ${bytes.length} bytes, under ${MIN_KEY_BYTES}`;
    throw new InviteError(`the invite key "${name}" in ${file} ${what}: the room ignores it. Make another: npm run keys -- add-invite NEWKID`);
  }
  return bytes;
}

const isoSeconds = (sec: number): string => new Date(sec * 1000).toISOString().replace('.000Z', 'Z');

export async function main(argv: readonly string[], nowMs: number = Date.now()): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      room: { type: 'string' },
      sub: { type: 'string' },
      minutes: { type: 'string', default: '60' },
      kid: { type: 'string', default: 'k1' },
      keys: { type: 'string' },
      url: { type: 'string' },
    },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected arguments: ${positionals.join(' ')}`);
  const { room } = values;
  if (room === undefined) throw new UsageError('name the room: --room ID');
  if (!ROOM_ID.test(room)) throw new UsageError(`--room "${room}" is not a room id (lower case letters, digits, "-" and "_", at most 32)`);
  if (values.sub === undefined) throw new UsageError('name the visitor: --sub IDENTITY');
  const sub = identityArg(values.sub);
  const minutes = minutesArg(values.minutes);
  const kid = values.kid;
  if (!/^[A-Za-z0-9_.-]+$/.test(kid)) throw new UsageError(`--kid "${kid}" may only hold letters, digits, "-", "_" and "."`);
  let page: URL;
  try {
    page = new URL(values.url ?? `http://127.0.0.1:${DEFAULT_ROOM_PORT}/`);
  } catch {
    throw new UsageError(`--url "${values.url}" is not a URL, e.g. https://shop.example.com/drop`);
  }

  const bytes = await inviteKeyBytes(keysFile(values.keys), kid);
  const exp = Math.floor(nowMs / 1000) + minutes * 60;
  const invite = await signInvite({ room, sub, exp }, kid, bytes);
  if (invite.length > MAX_INVITE_CHARS) throw new InviteError(`the invite is ${invite.length} characters; the room refuses over ${MAX_INVITE_CHARS}: use a shorter --sub`);
  page.searchParams.set(INVITE_PARAM, invite);
  const base = `${page.origin}${page.pathname}`;
  console.log(invite);
  console.log('');
  console.log(`room ${room}, for ${sub}, until ${isoSeconds(exp)} (${minutes} min), key ${INVITE_KID_PREFIX}${kid}`);
  console.log(`link:  ${page.href}`);
  console.log(`curl:  curl -H '${INVITE_HEADER}: ${invite}' ${base}`);
  return 0;
}

// An InviteError (a key the file lacks or the room would ignore) exits 1; a wrong command line 2.
if (isMain(import.meta.url)) runTool('npm run invite', USAGE, main);
