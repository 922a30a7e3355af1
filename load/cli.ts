// `npm run load`: virtual browsers against a running room over real HTTP, to see whether the room
// (with `npm run control` beside it) holds new_users_per_minute.
//
//   npm run load                                  2,000 visitors in a flash crowd, 10 minutes, http://127.0.0.1:7676
//   npm run load -- --minutes 3 --visitors 500
//   npm run load -- --shape steady --rate 300     300 new visitors a minute until all have come
//   npm run load -- --url http://127.0.0.1:8080 --target 120 --out reports/load/other.json
//
// Every browser sends its id in one header (default x-load-visitor); the room must key identity on it
// (`npm run tune -- identity=header:x-load-visitor`), or it sees one visitor at 127.0.0.1. The run
// checks that first and refuses otherwise.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readStoreIfExists, type StoreData } from '../lib/json-store.js';
import { roomOfUrl, roomSettings } from '../lib/room-store.js';
import { isMain, runTool, UsageError } from '../lib/cli.js';
import { configFile } from '../lib/paths.js';
import { HttpClient } from './http.js';
import { identityKeysOn, probeIdentity } from './probe.js';
import {
  heldBack,
  HELD_BACK_SECONDS,
  heldBackNote,
  minuteLine,
  resultJson,
  summaryTable,
  verdictLines,
  type HeldBack,
} from './report.js';
import { runLoad } from './run.js';
import type { Shape } from './schedule.js';

/**
 * Requests in flight at most. Real browsers each have their own connections, so the default is well
 * above what a 2,000-visitor run needs (about 100 a second, each answered in milliseconds): the room,
 * not this tool, decides how late pages come back. Each minute says if the tool held any back.
 */
const DEFAULT_CONCURRENCY = 256;

const USAGE = `usage: npm run load -- [--url URL] [--visitors N] [--shape flash|steady] [--rate PER_MINUTE] [--flash-seconds S]
                      [--minutes M] [--seed S] [--header NAME] [--concurrency N] [--timeout S] [--target N] [--file PATH] [--out PATH]
  virtual browsers against a running room (npm start with its controller); the room must key identity on
  --header (npm run tune -- identity=header:x-load-visitor), which the run checks first
  --url URL            the room to load (default http://127.0.0.1:7676, npm start's)
  --visitors N         how many virtual visitors come in all (default 2000)
  --shape flash|steady  flash: everyone within --flash-seconds; steady: --rate a minute (default flash)
  --rate PER_MINUTE    with --shape steady, new visitors a minute (default: the visitors spread over the run)
  --flash-seconds S    with --shape flash, the seconds in which they all arrive (default 60)
  --minutes M          how long the run lasts (default 10); Ctrl-C ends it early with the summary so far
  --seed S             the visitors' arrivals, patience and sessions (default 1): same seed, same crowd
  --header NAME        the header each browser sends its visitor id in (default x-load-visitor)
  --concurrency N      requests in flight at most (default ${DEFAULT_CONCURRENCY}); each minute says if it held any back
  --timeout S          seconds before a request counts as failed (default 30)
  --target N           admissions a minute to judge against (default new_users_per_minute, read each minute)
  --file PATH          the local settings store to read the room's settings and target from (default local/config.json)
  --out PATH           where the JSON report of every figure goes (default reports/load/load.json)`;

function number(
  name: string,
  text: string | undefined,
  fallback: number,
  check: (n: number) => boolean = (n) => n > 0,
): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || !check(n))
    throw new UsageError(`--${name} must be a positive number, not "${text}"`);
  return n;
}

/** A room on this machine: `npm start`'s (on any port, `--addr` moves it), whose settings are in the local store file. */
const isLocalStart = (url: URL): boolean => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

/** The command line, checked: what the run is asked to do. */
interface LoadArgs {
  url: URL;
  visitors: number;
  shape: Shape;
  ratePerMinute: number | null;
  flashSeconds: number;
  minutes: number;
  seed: string;
  header: string;
  concurrency: number;
  timeoutMs: number;
  fixedTarget: number | null;
  file: string | undefined;
  out: string;
}

function parseLoadArgs(argv: readonly string[]): LoadArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      url: { type: 'string', default: 'http://127.0.0.1:7676' },
      visitors: { type: 'string' },
      shape: { type: 'string', default: 'flash' },
      rate: { type: 'string' },
      'flash-seconds': { type: 'string' },
      minutes: { type: 'string' },
      seed: { type: 'string', default: '1' },
      header: { type: 'string', default: 'x-load-visitor' },
      concurrency: { type: 'string' },
      timeout: { type: 'string' },
      target: { type: 'string' },
      file: { type: 'string' },
      out: { type: 'string', default: 'reports/load/load.json' },
    },
  });
  const shape = values.shape as Shape;
  if (shape !== 'flash' && shape !== 'steady')
    throw new UsageError(`--shape must be flash or steady, not "${values.shape}"`);
  if (values.rate !== undefined && shape !== 'steady')
    throw new UsageError('--rate goes with --shape steady (a flash crowd comes within --flash-seconds)');
  const visitors = Math.floor(number('visitors', values.visitors, 2000));
  const minutes = number('minutes', values.minutes, 10);
  const ratePerMinute = values.rate === undefined ? null : number('rate', values.rate, 0);
  const flashSeconds = number('flash-seconds', values['flash-seconds'], 60);
  const concurrency = Math.floor(number('concurrency', values.concurrency, DEFAULT_CONCURRENCY, (n) => n >= 1));
  const timeoutMs = number('timeout', values.timeout, 30) * 1000;
  const fixedTarget = values.target === undefined ? null : number('target', values.target, 0);
  const header = values.header.trim().toLowerCase();
  if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(header))
    throw new UsageError(`--header must be a header name, not "${values.header}"`);
  let url: URL;
  try {
    url = new URL(values.url);
  } catch {
    throw new UsageError(`--url must be a URL, not "${values.url}"`);
  }
  const { seed, file, out } = values;
  return {
    url,
    visitors,
    shape,
    ratePerMinute,
    flashSeconds,
    minutes,
    seed,
    header,
    concurrency,
    timeoutMs,
    fixedTarget,
    file,
    out,
  };
}

/** The settings of one room as the edge reads them. */
type RoomConfig = ReturnType<typeof roomSettings>['config'];

/** What the local store says of the room the URL lands in, when this run reads it. */
interface LocalRoom {
  storeFile: string | null;
  readStore: () => Promise<StoreData | null>;
  store: StoreData | null;
  room: string | null;
  settingsOf: (s: StoreData) => RoomConfig;
  parsed: RoomConfig | null;
}

async function localRoom(args: LoadArgs): Promise<LocalRoom> {
  // The local store (what `npm run tune` edits) says what the room runs with: read it for the room
  // `npm start` serves, or when named; any other room's settings are its own business.
  const storeFile = args.file !== undefined || isLocalStart(args.url) ? configFile(args.file) : null;
  const readStore = async () => (storeFile === null ? null : await readStoreIfExists(storeFile).catch(() => null));
  const store = await readStore();
  // The settings of the room the URL lands in (the service-wide ones when no room decides it).
  const room = store === null ? null : await roomOfUrl(store, args.url);
  const settingsOf = (s: Record<string, string>) => roomSettings(s, room).config;
  const parsed = store === null ? null : settingsOf(store);
  return { storeFile, readStore, store, room, settingsOf, parsed };
}

/** Whether the room keys identity on the run's header; the exit code when it does not (or does not answer). */
async function refuseUnlessKeyed(
  args: LoadArgs,
  local: LocalRoom,
  client: HttpClient,
  tag: string,
): Promise<number | null> {
  const { header, url } = args;
  const { storeFile, store, room, parsed } = local;
  const probe = await probeIdentity(client.send, tag, Date.now);
  const tuneHint = `npm run tune -- identity=header:${header}${storeFile === null ? ' (or the same setting on your service)' : ''}`;
  const identity =
    parsed === null
      ? undefined
      : parsed.identity.kind === 'ip' || parsed.identity.kind === 'none'
        ? parsed.identity.kind
        : `${parsed.identity.kind}:${parsed.identity.name}`;
  const shownIdentity =
    store === null
      ? ''
      : ` (${storeFile}${room === null ? '' : `, room ${room}`}: identity = ${JSON.stringify(identity)})`;
  if (probe.kind === 'unreachable') {
    client.close();
    console.error(`load: no room answers at ${url.href} (${probe.cause}); start one with \`npm start -- --control\``);
    return 1;
  }
  if (probe.kind === 'same' || (probe.kind === 'unknown' && store !== null && !identityKeysOn(identity, header))) {
    client.close();
    console.error(
      `load: the room does not key identity on the ${header} header${shownIdentity}, so every virtual browser ` +
        `would be one visitor at this machine's address.\nSet it, then run again:  ${tuneHint}`,
    );
    return 1;
  }
  if (probe.kind === 'unknown')
    console.log(`load: the room set no cookie, so identity could not be checked; make sure it is header:${header}`);
  return null;
}

/** Where each minute's target comes from: the command line, the local store read afresh, or nowhere. */
function targetReader(args: LoadArgs, local: LocalRoom): (() => Promise<number | null>) | undefined {
  const { fixedTarget } = args;
  const { storeFile, readStore, settingsOf } = local;
  return fixedTarget !== null
    ? async () => fixedTarget
    : storeFile === null
      ? undefined
      : async () => {
          const s = await readStore();
          return s === null ? null : settingsOf(s).control.newUsersPerMinute;
        };
}

function announce(args: LoadArgs, parsed: LocalRoom['parsed']): void {
  const { shape, flashSeconds, ratePerMinute, visitors, minutes } = args;
  const crowd =
    shape === 'flash'
      ? `a flash crowd within ${flashSeconds} s`
      : `${ratePerMinute ?? Math.round(visitors / minutes)} new a minute`;
  console.log(
    `load: ${visitors} visitors, ${crowd}, for ${minutes} min against ${args.url.href} (seed ${args.seed}, at most ${args.concurrency} requests in flight)`,
  );
  if (parsed !== null) {
    const target = args.fixedTarget ?? parsed.control.newUsersPerMinute;
    console.log(
      `load: room settings: allow_percentage ${parsed.allowPercentage}, wait_period_duration ${parsed.waitPeriodSeconds} s, ` +
        `new_users_per_minute ${target ?? '(unset: no target to compare with)'}`,
    );
  }
}

/** The run itself, a line a minute, until its end or Ctrl-C; what this tool held back, by minute. */
async function runAndPrint(
  args: LoadArgs,
  client: HttpClient,
  tag: string,
  readTarget: ReturnType<typeof targetReader>,
): Promise<{ result: Awaited<ReturnType<typeof runLoad>>; heldByMinute: HeldBack[] }> {
  const stop = new AbortController();
  const onSignal = () => {
    console.log('load: stopping early (Ctrl-C); the summary covers the minutes so far');
    stop.abort();
  };
  process.once('SIGINT', onSignal);
  const heldByMinute: HeldBack[] = [];
  const result = await runLoad({
    visitors: args.visitors,
    shape: args.shape,
    ratePerMinute: args.ratePerMinute,
    flashSeconds: args.flashSeconds,
    minutes: args.minutes,
    seed: args.seed,
    tag,
    send: client.send,
    signal: stop.signal,
    ...(readTarget ? { readTarget } : {}),
    onMinute: (row) => {
      const held = heldBack(row.minute, client.takeSlotWaits());
      heldByMinute.push(held);
      console.log(minuteLine(row, heldBackNote(held)));
    },
  });
  process.off('SIGINT', onSignal);
  client.close();
  return { result, heldByMinute };
}

/** Whether this tool, not the room, made pages late: the reader should know either way. */
function printHeldBack(heldByMinute: readonly HeldBack[], client: HttpClient, concurrency: number): void {
  // The room is judged all the same: visitors come back late in the field too (background tabs, slow
  // networks), and the controller must hold the target through it. But the reader should know.
  const heldMinutes = heldByMinute.filter((h) => h.p95Seconds >= HELD_BACK_SECONDS);
  if (heldMinutes.length > 0) {
    console.log(
      `This tool held requests back in minute${heldMinutes.length === 1 ? '' : 's'} ${heldMinutes.map((h) => h.minute).join(', ')} ` +
        `(up to ${client.maxQueued} waiting for one of its ${concurrency} slots): its browsers came back late, as slow networks and background tabs do; ` +
        'the room was judged all the same. Raise --concurrency to take this tool out of the figures.',
    );
  } else {
    console.log(
      `This tool sent every request within ${HELD_BACK_SECONDS} s of when its browser asked (at most ${concurrency} in flight): the figures are the room's.`,
    );
  }
}

export async function main(argv: readonly string[]): Promise<number> {
  const args = parseLoadArgs(argv);
  const local = await localRoom(args);
  const client = new HttpClient(args.url.href, {
    header: args.header,
    concurrency: args.concurrency,
    timeoutMs: args.timeoutMs,
  });
  const tag = `v${Date.now().toString(36)}`;
  const refused = await refuseUnlessKeyed(args, local, client, tag);
  if (refused !== null) return refused;
  const readTarget = targetReader(args, local);
  announce(args, local.parsed);
  const { result, heldByMinute } = await runAndPrint(args, client, tag, readTarget);

  console.log(`\n${summaryTable(result)}\n`);
  for (const line of verdictLines(result)) console.log(line);
  printHeldBack(heldByMinute, client, args.concurrency);
  const out = resolve(args.out);
  await mkdir(dirname(out), { recursive: true });
  const { url, visitors, shape, ratePerMinute, flashSeconds, minutes, seed, header, concurrency } = args;
  const asked = { visitors, shape, ratePerMinute, flashSeconds, minutes, seed, header, concurrency };
  await writeFile(
    out,
    resultJson(result, { url: url.href, ...asked, target: args.fixedTarget ?? 'from the store' }, heldByMinute),
  );
  console.log(`Written: ${out}`);
  return 0;
}

if (isMain(import.meta.url)) runTool('npm run load', USAGE, main);
