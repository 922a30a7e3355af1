// `npm run preview`: a link that shows one page of one room as the room would show it, in a language
// and a state, with made-up figures, for a few minutes (docs/operating.md, "Previewing a page"): to
// read the copy and its translations on a phone before a sale. Signed with the invite key `invite.KID`
// of local/keys.json, as npm run invite signs; the room answers it itself and admits nobody.
//
//   npm run preview -- --room ID --page PAGE [--lang TAG] [--mode random|fifo] [--proof] [--variant NAME] [--minutes 10]
//                      [--kid k1] [--keys local/keys.json] [--url URL] [--config local/config.json | --service SERVICE_ID]
import { parseArgs } from 'node:util';
import { LOCALE_TAGS } from '../src/core/i18n/index.js';
import { DEFAULT_VARIANT, isVariantName } from '../src/core/settings/index.js';
import {
  INVITE_KID_PREFIX,
  isPreviewPage,
  MAX_PREVIEW_CHARS,
  PREVIEW_PAGES,
  PREVIEW_PARAM,
  PREVIEW_PATH,
  type PreviewClaims,
  type PreviewPage,
  signPreview,
} from '../src/core/tokens/index.js';
import { LANGUAGE_PARAM } from '../src/core/answer/index.js';
import { readStoreIfExists } from '../lib/json-store.js';
import { isMain, isoSeconds, runTool, UsageError } from '../lib/cli.js';
import { localConfigFile } from '../lib/local-store.js';
import { keysFile } from '../lib/paths.js';
import { roomSettings } from '../lib/room-store.js';
import {
  checkRoomInStore,
  InviteError,
  inviteKeyBytes,
  kidArg,
  LINK_OPTIONS,
  linkBaseArg,
  minutesArg,
  signedRoomArg,
} from './invite.js';
import { DEFAULT_ROOM_PORT } from './start-ports.js';

/** Each page, what it is, and the other name it answers to on the command line. */
const PAGES: Record<PreviewPage, { what: string; alias?: string }> = {
  startwaiting: { what: "a new visitor's waiting page", alias: 'waiting' },
  keepwaiting: { what: 'the waiting page after a check' },
  prequeue: { what: "the countdown to a sale's start (event_start)", alias: 'countdown' },
  deny: { what: 'the deny page (allow_percentage=0, invite_only)' },
  closed: { what: 'the page after a sale that ended with event_end_action=close' },
  hammer: { what: 'the 429 a page checking too often gets (hammer_limit)' },
  'origin-down': { what: 'the 502 when the origin cannot be reached' },
};

const pageList = PREVIEW_PAGES.map((p) => {
  const alias = PAGES[p].alias;
  return `               ${`${p}${alias ? ` (or ${alias})` : ''}`.padEnd(26)}${PAGES[p].what}`;
}).join('\n');

const USAGE = `usage: npm run preview -- --room ID --page PAGE [--lang TAG] [--mode random|fifo] [--proof] [--variant NAME] [--minutes 10]
                          [--kid k1] [--keys local/keys.json] [--url URL] [--config local/config.json | --service SERVICE_ID]
  --room     the room whose settings, pages and strings the page is made with
  --page     the page:
${pageList}
  --lang     the language (e.g. ja-JP); without it, the phone's own, as a visitor's. The page's
             language links switch it, the link staying valid
  --mode     the waiting pages of a draw (random) or a first-come line (fifo); default the room's queueing_method
  --proof    the waiting pages solving a proof of work (a made-up puzzle, of the room's proof_seconds)
  --variant  the waiting pages' A/B variant NAME, as npm run pages stored it from waiting.NAME.html
             (default a, the plain pages; pages/README.md)
  --minutes  how long the link works (default 10, at most 1440)
  --kid      the invite key that signs it: invite.KID in the key file (default k1; make one: npm run keys -- add-invite)
  --url      the address the link opens, any page of the service (default the local room where npm start
             last served it, else http://127.0.0.1:${DEFAULT_ROOM_PORT}/); with --service, the service's own
  --keys     the key file holding invite.KID (default local/keys.json)
  --config   the settings store the room and language are checked against (default local/config.json)
  --service  the link is for that Fastly service: the local store is not checked, --url is needed`;

const MAX_MINUTES = 1440;

function pageArg(text: string | undefined): PreviewPage {
  const list = `pages: ${PREVIEW_PAGES.join(', ')} (waiting and countdown name startwaiting and prequeue)`;
  if (text === undefined) throw new UsageError(`name the page: --page PAGE; ${list}`);
  const named = Object.entries(PAGES).find(([, p]) => p.alias === text)?.[0] ?? text;
  if (!isPreviewPage(named)) throw new UsageError(`--page "${text}" is no page the room answers with; ${list}`);
  return named;
}

function langArg(text: string | undefined): string | null {
  if (text === undefined) return null;
  const tag = LOCALE_TAGS.find((t) => t.toLowerCase() === text.toLowerCase());
  if (tag === undefined)
    throw new UsageError(`--lang "${text}" is none of the room's languages: ${LOCALE_TAGS.join(', ')}`);
  return tag;
}

/** The state a page takes: --mode, --proof and --variant, for the waiting pages only. */
function stateArgs(
  page: PreviewPage,
  mode: string | undefined,
  proof: boolean,
  variant: string | undefined,
): Pick<PreviewClaims, 'mode' | 'proof' | 'variant'> {
  const waiting = page === 'startwaiting' || page === 'keepwaiting';
  if (mode !== undefined && mode !== 'random' && mode !== 'fifo')
    throw new UsageError(`--mode "${mode}" must be random (a draw) or fifo (a first-come line)`);
  if (variant !== undefined && variant !== DEFAULT_VARIANT && !isVariantName(variant))
    throw new UsageError(
      `--variant "${variant}" is no variant name: 1-16 lower-case letters and digits, as in waiting.NAME.html (a: the plain pages)`,
    );
  if ((mode !== undefined || proof || variant !== undefined) && !waiting)
    throw new UsageError(
      `--mode, --proof and --variant are states of the waiting pages (startwaiting, keepwaiting), not of ${page}`,
    );
  return {
    ...(mode === undefined ? {} : { mode }),
    ...(proof ? { proof: true as const } : {}),
    ...(variant === undefined ? {} : { variant }),
  };
}

/** The local store's checks (the room, its languages), or a note on stderr saying why there are none. */
async function checkLocalStore(values: { config?: string; service?: string }, room: string, lang: string | null) {
  if (values.service !== undefined) {
    console.error(
      `[preview] for service ${values.service}: room ${room} is not checked against its store; npm run tune -- --service ${values.service} --show shows its rooms`,
    );
    return;
  }
  const file = localConfigFile(values.config, (line) => console.error(`[local] ${line}`));
  const store = await readStoreIfExists(file);
  if (store === null) {
    console.error(`[preview] ${file} does not exist: room ${room} is not checked`);
    return;
  }
  checkRoomInStore(store, file, room, (id) => `npm run preview -- --room ${id} --page ...`);
  const { languages, defaultLanguage } = roomSettings(store, room).config;
  const offered = languages.map((l) => l.info.tag);
  if (lang !== null && !offered.includes(lang))
    throw new InviteError(
      `room ${room} does not offer ${lang} (its languages: ${offered.join(', ')}), so the page would be in ${defaultLanguage}. Add it: npm run tune -- --room ${room} languages=${[...offered, lang].join(',')}`,
    );
}

export async function main(argv: readonly string[], nowMs: number = Date.now()): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      room: { type: 'string' },
      page: { type: 'string' },
      lang: { type: 'string' },
      mode: { type: 'string' },
      proof: { type: 'boolean', default: false },
      variant: { type: 'string' },
      minutes: { type: 'string', default: '10' },
      ...LINK_OPTIONS,
    },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected arguments: ${positionals.join(' ')}`);
  const room = signedRoomArg(values);
  const page = pageArg(values.page);
  const state = stateArgs(page, values.mode, values.proof, values.variant);
  const lang = langArg(values.lang);
  const minutes = minutesArg(values.minutes, MAX_MINUTES);
  const kid = kidArg(values.kid);
  if (values.service !== undefined && values.url === undefined)
    throw new UsageError(`name the service's address: --url https://www.example.com/ (any page the service answers)`);
  const base = linkBaseArg(values, 'https://shop.example.com/');

  await checkLocalStore(values, room, lang);
  const bytes = await inviteKeyBytes(keysFile(values.keys), kid);
  const exp = Math.floor(nowMs / 1000) + minutes * 60;
  const text = await signPreview({ room, page, exp, ...state }, kid, bytes);
  if (text.length > MAX_PREVIEW_CHARS)
    throw new InviteError(`the link is ${text.length} characters, over ${MAX_PREVIEW_CHARS}`);
  const link = new URL(PREVIEW_PATH, base.origin);
  link.searchParams.set(PREVIEW_PARAM, text);
  if (lang !== null) link.searchParams.set(LANGUAGE_PARAM, lang);
  const shown = [
    page,
    state.mode,
    state.proof ? 'proof of work' : undefined,
    state.variant === undefined ? undefined : `variant ${state.variant}`,
  ]
    .filter(Boolean)
    .join(', ');
  console.log(`link:  ${link.href}`);
  console.log(
    `room ${room}, ${shown}, in ${lang ?? "the phone's language"}, until ${isoSeconds(exp)} (${minutes} min), key ${INVITE_KID_PREFIX}${kid}`,
  );
  console.log('made-up figures; the page checks nothing and admits nobody; its language links switch the language');
  return 0;
}

// An InviteError (a key the file lacks, a room or language the store lacks) exits 1; a wrong command line 2.
if (isMain(import.meta.url)) runTool('npm run preview', USAGE, main);
