// `npm run pages`: turns the page templates (pages/*.html) into the base64 values the
// `waiting_room_pages` Config Store holds, for the local host (local/pages.json) or for production.
//
//   npm run pages                                  write local/pages.json from pages/
//   npm run pages -- --dir my-pages                use your own templates (any of the four names, or waiting.html)
//   npm run pages -- --print                       print name + base64 for pasting into the Fastly UI
//   npm run pages -- --fastly-service SERVICE_ID   print the fastly CLI commands that upload them
//   npm run pages -- --store-id STORE_ID           the same, when you already know the store's id
//   npm run pages -- --room ID --dir my-pages      room ID's own pages (ID.startwaiting, ...), and its
//                                                  `pages` setting set to ID so the room reads them
// A folder's `waiting.VARIANT.html` is an A/B variant of the waiting pages (startwaiting.VARIANT, ...),
// shown once the room's `page_variants` names it (pages/README.md).
// A folder's `strings/TAG.json` files override built-in strings for one language (scripts/pages-strings.ts).
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { PageName } from '../src/core/types.js';
import { PAGE_STORE } from '../src/fastly/names.js';
import { shellQuote } from '../lib/fastly-cli.js';
import { readStore, readStoreIfExists, writeStoreAtomic, type StoreData } from '../lib/json-store.js';
import { localConfigFile } from '../lib/local-store.js';
import { DEFAULT_VARIANT, ROOM_ID } from '../src/core/settings/index.js';
import { overridesKey } from '../src/core/i18n/index.js';
import { encodePages, PAGE_NAMES, PAGE_STORE_VALUE_LIMIT, type EncodedPage } from './pages-encode.js';
import { variantPageKey } from '../src/core/answer/index.js';
import { encodeStrings, type EncodedStrings } from './pages-strings.js';
import { planTune } from './tune-plan.js';
import { isMain } from '../lib/cli.js';
import { pagesFile, repoRoot } from '../lib/paths.js';

// The templates' encoding and checks live in pages-encode.ts; the tools that read pages import them from here.
export {
  encodePages,
  encodeTemplate,
  PAGE_NAMES,
  PAGE_STORE_VALUE_LIMIT,
  PageError,
  type EncodedPage,
} from './pages-encode.js';

/**
 * The store key of a page: `NAME` for the shared pages, `ROOM.NAME` for a room's own, and
 * `.VARIANT` after either for an A/B variant's (the edge's src/core/answer/variant-choice.ts).
 */
export const pageKey = (name: PageName, room: string | null = null, variant: string | null = null): string =>
  variantPageKey(name, room, variant);

/** The store key of an encoded page of `room`'s set (null: the shared one). */
const keyOf = (page: EncodedPage, room: string | null): string => pageKey(page.name, room, page.variant ?? null);

/**
 * A key of the shared set: a page (`startwaiting`), a variant's page (`startwaiting.b`: a variant is
 * never named as a page is) or the shared strings (`strings.TAG`). Every other key is a room's.
 */
function isSharedKey(key: string): boolean {
  const [first = '', second, ...more] = key.split('.');
  if (first === 'strings') return true;
  if (!(PAGE_NAMES as readonly string[]).includes(first) || more.length > 0) return false;
  return second === undefined || !(PAGE_NAMES as readonly string[]).includes(second);
}

/**
 * Writes the `[local_server]` store file, atomically (see writeStoreAtomic), creating its folder. The
 * pages of this set (the shared ones, or `room`'s) are replaced; every other set's are kept, so a
 * build, which writes the shared pages, leaves a room's own pages in place.
 */
export async function writeStoreFile(
  pages: readonly EncodedPage[],
  out: string,
  room: string | null = null,
  strings: readonly EncodedStrings[] = [],
): Promise<void> {
  await mkdir(dirname(out), { recursive: true });
  // A set is its pages and its strings: the shared set's strings (strings.TAG) are replaced with it.
  const kept = Object.entries((await readStoreIfExists(out).catch(() => null)) ?? {}).filter(([key]) =>
    room === null ? !isSharedKey(key) : !key.startsWith(`${room}.`),
  );
  const written = [
    ...pages.map((p) => [keyOf(p, room), p.base64]),
    ...strings.map((t) => [overridesKey(t.tag, room), t.value]),
  ];
  await writeStoreAtomic(out, Object.fromEntries([...kept, ...written]));
}

/**
 * The Fastly CLI as the printed commands call it, from the project's directory: the copy npm installed
 * (node_modules/.bin/fastly), which a bare `fastly` would not find on most machines.
 */
export const FASTLY = 'npx fastly';

/**
 * Shell commands that upload the pages with the fastly CLI. Config Stores are addressed by store id,
 * not service: with only a service id, the store id is looked up from the service's resource links
 * (the link is named after the store, which is the name the code opens).
 */
export function fastlyCommands(
  pages: readonly EncodedPage[],
  target: { serviceId?: string; storeId?: string },
  room: string | null = null,
  strings: readonly EncodedStrings[] = [],
): string {
  const lines: string[] = [];
  let store: string;
  if (target.storeId !== undefined) {
    store = shellQuote(target.storeId);
  } else {
    lines.push(
      `# The id of the ${PAGE_STORE} store linked to service ${target.serviceId ?? ''}:`,
      `STORE_ID=$(${FASTLY} service resource-link list --service-id=${shellQuote(target.serviceId ?? '')} --version=latest --json | ` +
        `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{let a;try{a=JSON.parse(s)}catch{a=null}` +
        `if(!Array.isArray(a)){console.error("cannot read the resource links of this service (the fastly command failed, or its answer is not a list): nothing uploaded");process.exit(1)}` +
        `const l=a.find(r=>(r.Name??r.name)==="${PAGE_STORE}");` +
        `if(!l){console.error("no ${PAGE_STORE} store linked to this service");process.exit(1)}console.log(l.ResourceID??l.resource_id)})')`,
    );
    store = '"$STORE_ID"';
  }
  for (const page of pages) {
    // --upsert: creates the entry the first time and replaces it afterwards.
    lines.push(
      `${FASTLY} config-store-entry update --upsert --store-id=${store} --key=${keyOf(page, room)} --value='${page.base64}'`,
    );
  }
  for (const t of strings)
    lines.push(
      `${FASTLY} config-store-entry update --upsert --store-id=${store} --key=${overridesKey(t.tag, room)} --value=${shellQuote(t.value)}`,
    );
  const service = target.serviceId === undefined ? 'SERVICE_ID' : shellQuote(target.serviceId);
  if (room !== null)
    lines.push(
      `# Then make room ${room} read them (its pages setting):`,
      `npm run tune -- --service ${service} --room ${room} pages=${room}`,
    );
  const test = variantsHint(pages, room, `--service ${service} `);
  if (test !== null) lines.push(`# ${test}`);
  return lines.join('\n');
}

/** The variants among `pages`, and the tune command that starts their A/B test; null without variants. */
export function variantsHint(pages: readonly EncodedPage[], room: string | null, where = ''): string | null {
  const variants = [...new Set(pages.map((p) => p.variant ?? null).filter((v) => v !== null))];
  if (variants.length === 0) return null;
  const scope = room === null ? '' : `--room ${room} `;
  return (
    `variants ${variants.join(', ')} of the waiting page stored; the test starts when the room names them ` +
    `(${DEFAULT_VARIANT}: the plain pages; NAME:WEIGHT for unequal shares): ` +
    `npm run tune -- ${where}${scope}page_variants=${[DEFAULT_VARIANT, ...variants].join(',')}`
  );
}

function summary(pages: readonly EncodedPage[], strings: readonly EncodedStrings[] = []): string {
  return [
    ...pages.map(
      (p) =>
        `${p.variant ? `${p.name} (variant ${p.variant})` : p.name}: ${p.chars} characters, ${p.base64.length}/${PAGE_STORE_VALUE_LIMIT} as base64`,
    ),
    ...strings.map(
      (t) => `strings.${t.tag}: ${t.keys} strings, ${t.value.length}/${PAGE_STORE_VALUE_LIMIT} characters`,
    ),
  ].join('\n');
}

const USAGE = `Usage: npm run pages -- [--dir pages] [--out local/pages.json] [--room ID [--config-file F]] [--print] [--fastly-service ID | --store-id ID]
  (no option)            write the local store file (${PAGE_STORE} under [local_server] in fastly.toml)
  --dir DIR              the folder of templates (NAME.html, waiting.VARIANT.html) and strings/TAG.json to read (default pages)
  --out FILE             the local store file to write (default local/pages.json, or WR_PAGES_FILE)
  --config-file F        with --room: the local settings store to set the room's pages in (default local/config.json)
  --print                print each page's base64 value for production instead
  --fastly-service ID    print the fastly CLI commands that upload the pages to that service's ${PAGE_STORE}
  --store-id ID          the same, with the Config Store's own id
  --room ID              room ID's own pages, as ID.NAME, and its pages setting set to ID (locally in
                         local/config.json or --config-file; on a service, the tune command to run)
  A folder's strings/TAG.json (a JSON object of catalog keys and messages) overrides built-in strings
  for that language: checked, then stored as strings.TAG (ROOM.strings.TAG with --room) beside the pages`;

/** The local settings with room `room`'s `pages` setting set to its own page set, checked as tune checks it. */
async function roomPagesPlan(configPath: string, room: string): Promise<{ next: StoreData | null; errors: string[] }> {
  const plan = planTune(await readStore(configPath), { room, updates: new Map([['pages', room]]) });
  return plan.errors.length > 0 ? { next: null, errors: plan.errors } : { next: plan.next, errors: [] };
}

/** The options given, or the exit code when they end the run (a mistake, or --help). */
function readOptions(argv: string[], root: string) {
  let args;
  try {
    args = parseArgs({
      args: argv,
      options: {
        dir: { type: 'string' },
        out: { type: 'string', default: root === repoRoot ? pagesFile() : join(root, 'local', 'pages.json') },
        print: { type: 'boolean', default: false },
        'fastly-service': { type: 'string' },
        'store-id': { type: 'string' },
        room: { type: 'string' },
        'config-file': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    }).values;
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  const room = args.room ?? null;
  if (room !== null && !ROOM_ID.test(room)) {
    console.error(
      `npm run pages: --room "${room}" is not a room id (lower case letters, digits, - and _, at most 32 characters)`,
    );
    return 2;
  }
  return args;
}

/** The folder's strings and pages, checked; or the exit code when any file is refused. */
async function readFolder(dir: string): Promise<{ pages: EncodedPage[]; strings: EncodedStrings[] } | number> {
  const { strings, problems } = await encodeStrings(dir);
  if (problems.length > 0) {
    for (const line of problems) console.error(`npm run pages: ${line}`);
    console.error('npm run pages: these files are refused; nothing was written (fix them and run it again)');
    return 1;
  }
  try {
    return { pages: await encodePages(dir, (m) => console.error(`warning: ${m}`), strings.length > 0), strings };
  } catch (err) {
    console.error(`npm run pages: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

/** --print: each value to paste into the Fastly UI, by its store key. */
function printValues(pages: readonly EncodedPage[], strings: readonly EncodedStrings[], room: string | null): void {
  console.error(summary(pages, strings));
  for (const page of pages) console.log(`${keyOf(page, room)}\n${page.base64}\n`);
  for (const t of strings) console.log(`${overridesKey(t.tag, room)}\n${t.value}\n`);
  if (room !== null)
    console.error(
      `then set room ${room}'s pages setting: npm run tune -- --service SERVICE_ID --room ${room} pages=${room}`,
    );
  const test = variantsHint(pages, room, '--service SERVICE_ID ');
  if (test !== null) console.error(test);
}

/** --room locally: the room's pages into the store file, and its `pages` setting into the local settings. */
async function writeRoomPages(
  pages: readonly EncodedPage[],
  strings: readonly EncodedStrings[],
  out: string,
  room: string,
  configFile: string | undefined,
): Promise<number> {
  const configPath = localConfigFile(configFile);
  const { next, errors } = await roomPagesPlan(configPath, room);
  if (next === null) {
    for (const line of errors) console.error(`npm run pages: ${line}`);
    console.error(`nothing was written to ${out} or ${configPath}`);
    return 1;
  }
  // The pages first: a room told to read pages that are not there yet would show the built-in ones.
  await writeStoreFile(pages, out, room, strings);
  await writeStoreAtomic(configPath, next);
  console.log(
    `${summary(pages, strings)}\nwrote ${out} (as ${room}.NAME); room ${room} reads them: pages=${room} in ${configPath}`,
  );
  const test = variantsHint(pages, room);
  if (test !== null) console.log(test);
  return 0;
}

export async function main(argv: string[], root: string = repoRoot): Promise<number> {
  const args = readOptions(argv, root);
  if (typeof args === 'number') return args;
  const room = args.room ?? null;
  const local = !args.print && args['fastly-service'] === undefined && args['store-id'] === undefined;
  const chosen = local && args.dir === undefined && room === null ? await chosenDir(resolve(args.out)) : null;
  const dir = resolve(args.dir ?? chosen ?? join(root, 'pages'));
  if (chosen !== null)
    console.log(`pages: from ${dir} (chosen by npm run pages -- --dir; --dir pages goes back to the project's pages)`);
  const folder = await readFolder(dir);
  if (typeof folder === 'number') return folder;
  const { pages, strings } = folder;
  const serviceId = args['fastly-service'];
  const storeId = args['store-id'];
  if (serviceId !== undefined || storeId !== undefined) {
    console.error(summary(pages, strings));
    console.log(fastlyCommands(pages, { serviceId, storeId }, room, strings));
    return 0;
  }
  if (args.print) {
    printValues(pages, strings, room);
    return 0;
  }
  const out = resolve(args.out);
  if (room !== null) return writeRoomPages(pages, strings, out, room, args['config-file']);
  await writeStoreFile(pages, out, null, strings);
  // The folder given is remembered for the next run without --dir (npm start's build makes one), so an
  // operator's pages and strings are not undone by the next start.
  if (args.dir !== undefined) await rememberDir(out, dir === resolve(join(root, 'pages')) ? null : dir);
  console.log(`${summary(pages, strings)}\nwrote ${out}`);
  const test = variantsHint(pages, null);
  if (test !== null) console.log(test);
  return 0;
}

/** Beside the store file: the folder `--dir` last wrote the shared pages from (local/pages.source.json). */
const sourceFile = (out: string): string => `${out.replace(/\.json$/, '')}.source.json`;

async function chosenDir(out: string): Promise<string | null> {
  const source = (await readStoreIfExists(sourceFile(out)).catch(() => null))?.dir;
  return source !== undefined && existsSync(source) ? source : null;
}

async function rememberDir(out: string, dir: string | null): Promise<void> {
  if (dir === null) await rm(sourceFile(out), { force: true });
  else await writeStoreAtomic(sourceFile(out), { dir });
}

if (isMain(import.meta.url)) process.exitCode = await main(process.argv.slice(2));
