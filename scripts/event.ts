// `npm run event`: the seed that shuffles a scheduled sale's pre-queue, and the check anyone can make
// of it afterwards (docs/events.md, "A lottery anyone can check").
//
//   npm run event -- seed [--force]        a new event-seed in the local key store; prints its commitment
//        ... --fastly-service ID [--secret-store-id ID] [--dry-run]   and in the service's Secret Store
//   npm run event -- commitment            the stored seed's commitment again
//   npm run event -- reveal [--force] [--room ID]   the stored seed and its commitment, to publish after
//                                          the start (room ID's event_start; without --room the service-wide one)
//   npm run event -- verify --seed B64 [--commitment sha256:HEX] [--token TOKEN ...]   (or tokens on stdin)
//
// The seed stays in the local key file even when it goes to Fastly: a Secret Store never gives a
// value back, and the reveal needs it. The reveal refuses while the pre-queue is open (before
// event_start): with the seed, anyone could compute every place before the start and come back under
// the identities that rank first.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { EVENT_SEED_ID } from '../src/core/tokens/index.js';
import { KEY_STORE } from '../src/fastly/names.js';
import { fastlyRunner, resolveStoreId } from '../lib/fastly-cli.js';
import { readStoreIfExists, writeStoreAtomic } from '../lib/json-store.js';
import { parseConfig } from '../src/core/settings/index.js';
import { roomSettings, storeRooms } from '../lib/room-store.js';
import { isMain, isoSeconds, runTool, UsageError } from '../lib/cli.js';
import { configFile, keysFile } from '../lib/paths.js';
import { commitmentOf, EventError, placeLines, seedBytes, verifyTokens } from './event-check.js';

// The public check lives in event-check.ts; the tools and tests that check tokens import it from here.
export { commitmentOf, EventError, ordinal, placeLines, type Verdict, verifyTokens } from './event-check.js';

const SEED_BYTES = 32;

async function storedSeed(file: string): Promise<Uint8Array> {
  const stored = (await readStoreIfExists(file))?.[EVENT_SEED_ID];
  if (stored === undefined) throw new EventError(`no ${EVENT_SEED_ID} in ${file}; run \`npm run event -- seed\` first`);
  return seedBytes(stored);
}

async function readStdinTokens(): Promise<string[]> {
  if (process.stdin.isTTY) return [];
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .split(/\s+/)
    .filter((t) => t !== '');
}

/**
 * The event's start in epoch seconds, from --event-start or the local settings (room `room`'s, or the
 * service-wide ones); null when neither has one.
 */
async function eventStart(
  given: string | undefined,
  configPath: string | undefined,
  room: string | undefined,
): Promise<{ at: number; from: string } | null> {
  if (given !== undefined) {
    const { config } = parseConfig((key) => (key === 'event_start' ? given : null));
    if (config.event === null)
      throw new UsageError(`--event-start must be a time with a zone, such as 2026-12-01T10:00:00Z, not "${given}"`);
    return { at: config.event.start, from: '--event-start' };
  }
  const settingsFile = configFile(configPath);
  const settings = (await readStoreIfExists(settingsFile)) ?? {};
  if (room !== undefined && !storeRooms(settings).includes(room)) {
    throw new UsageError(
      `--room ${room}: ${settingsFile} names no such room; its rooms are ${storeRooms(settings).join(', ') || '(none)'}`,
    );
  }
  const event = roomSettings(settings, room ?? null).config.event;
  const where =
    room === undefined ? `the service-wide settings in ${settingsFile}` : `room ${room}'s settings in ${settingsFile}`;
  return event === null ? null : { at: event.start, from: `event_start in ${where}` };
}

/** "in 10 minutes", "in 2 hours", "in 3 days": how long until the start. */
function until(seconds: number): string {
  const [n, unit] =
    seconds < 5400
      ? [Math.max(1, Math.round(seconds / 60)), 'minute']
      : seconds < 172_800
        ? [Math.round(seconds / 3600), 'hour']
        : [Math.round(seconds / 86_400), 'day'];
  return `in ${n} ${unit}${n === 1 ? '' : 's'}`;
}

/**
 * Prints the seed to publish. Before the start the pre-queue's order is still open to gaming: with
 * the seed anyone can compute the rank of any identity for this start, and come back under the ones
 * that rank first. So it refuses then, unless forced.
 */
async function reveal(
  file: string,
  start: { at: number; from: string } | null,
  force: boolean,
  nowSec: number,
): Promise<number> {
  const seed = await storedSeed(file);
  if (start !== null && nowSec < start.at) {
    const when = `the event starts at ${isoSeconds(start.at)}, ${until(start.at - nowSec)} (${start.from})`;
    if (!force) {
      console.error(
        `npm run event: refused: the pre-queue is still open: ${when}. With the seed, anyone can compute every place in it before the start and come back under identities that rank first.`,
      );
      console.error(
        'Reveal it once the event has started (best after the sale): npm run event -- reveal. To reveal it now anyway: npm run event -- reveal --force',
      );
      return 1;
    }
    console.error(
      `WARNING: the pre-queue is still open (${when}). Whoever sees this seed before then can compute every place in it: do not publish it yet.`,
    );
  } else if (start === null) {
    console.error(
      "npm run event: cannot tell whether the pre-queue is still open: no event_start in the local settings (the service-wide ones, or --room ID's). Publish the seed only after the start; for an event on a Fastly service, pass --event-start TIME and this command checks.",
    );
  }
  console.log(`seed: ${Buffer.from(seed).toString('base64')}`);
  console.log(`commitment: ${commitmentOf(seed)}`);
  console.log(
    'Anyone can now check a pre-queue token: npm run event -- verify --seed SEED --commitment COMMITMENT --token TOKEN',
  );
  return 0;
}

export const USAGE = `usage: npm run event -- seed [--force] [--fastly-service ID [--secret-store-id ID] [--dry-run]] [--file keys.json]
       npm run event -- commitment [--file keys.json]
       npm run event -- reveal [--force] [--room ID] [--event-start TIME | --config-file config.json] [--file keys.json]
       npm run event -- verify --seed B64 [--commitment sha256:HEX] [--token TOKEN ...]   (or tokens on stdin)
  seed        a new event-seed; publish the commitment it prints before the pre-queue opens
  commitment  the stored seed's commitment again
  reveal      the stored seed, to publish once the event has started (refused before event_start
              unless --force; the start is read from the local settings, room ID's with --room, the
              service-wide ones without; or given with --event-start when the event runs on Fastly)
  verify      each pre-queue token's place in line under a revealed seed
  --force               seed: replace a stored seed; reveal: before event_start
  --fastly-service ID   seed: store it in that service's Secret Store too, through the Fastly CLI
  --secret-store-id ID  with --fastly-service: the Secret Store's id, when the service links several
  --dry-run             with --fastly-service: print the fastly commands instead of running them
  --file keys.json      the local key file the seed is kept in (default local/keys.json)
  --room ID             reveal: check the start of room ID's event (default the service-wide one)
  --event-start TIME    reveal: the event's start, when it runs on Fastly (ISO 8601 with a zone)
  --config-file F       reveal: the local settings store event_start is read from (default local/config.json)
  --seed B64            verify: the revealed seed
  --commitment sha256:HEX  verify: check the seed against the commitment published before
  --token TOKEN         verify: a pre-queue token (repeat; or one a line on stdin)`;

export interface EventIo {
  /** The tokens piped in when no --token is given. */
  stdinTokens?: () => Promise<string[]>;
  /** Epoch seconds now: when the reveal is asked for. */
  now?: () => number;
}

/** `seed`: a new event-seed in the local key file (and the service's Secret Store); prints its commitment. */
async function newSeed(
  file: string,
  options: { force: boolean; service: string | undefined; storeId: string | undefined; dryRun: boolean },
): Promise<number> {
  const keys = (await readStoreIfExists(file)) ?? {};
  if (keys[EVENT_SEED_ID] !== undefined && !options.force) {
    throw new EventError(
      `${file} already holds an ${EVENT_SEED_ID}; its commitment may be published already. Use --force to replace it`,
    );
  }
  const seed = randomBytes(SEED_BYTES);
  const base64 = seed.toString('base64');
  const { service } = options;
  if (service !== undefined) {
    const fastly = fastlyRunner(options.dryRun);
    const store = options.storeId ?? resolveStoreId(fastly, service, KEY_STORE);
    // Through stdin: on a command line the seed would sit in shell history and `ps`.
    fastly.run(
      [
        'secret-store-entry',
        'create',
        '--store-id',
        store,
        '--name',
        EVENT_SEED_ID,
        '--stdin',
        ...(options.force ? ['--recreate-allow'] : []),
      ],
      {
        stdin: base64,
        stdinNote: '<the new seed>',
      },
    );
  }
  if (!options.dryRun) await writeStoreAtomic(file, { ...keys, [EVENT_SEED_ID]: base64 }, 0o600);
  console.log(
    `stored a new ${EVENT_SEED_ID} in ${file}${service === undefined ? '' : ` and service ${service}'s Secret Store`}`,
  );
  console.log(`commitment: ${commitmentOf(seed)}`);
  console.log(
    'Publish the commitment before the pre-queue opens; reveal the seed after the sale (npm run event -- reveal).',
  );
  return 0;
}

/** `verify`: the seed against its commitment, then each token's place in line; 1 when a token cannot be ranked. */
async function verify(options: { seed?: string; commitment?: string; token?: string[] }, io: EventIo): Promise<number> {
  if (options.seed === undefined) throw new UsageError('give the revealed seed: --seed B64');
  const seed = seedBytes(options.seed);
  if (options.commitment !== undefined) {
    if (commitmentOf(seed).toLowerCase() !== options.commitment.trim().toLowerCase()) {
      throw new EventError(
        `the seed does not match the commitment ${options.commitment}: it is not the seed that was promised`,
      );
    }
    console.log(`the seed matches the commitment ${options.commitment}`);
  }
  const tokens = options.token ?? (await (io.stdinTokens ?? readStdinTokens)());
  if (tokens.length === 0) throw new UsageError('give at least one token: --token TOKEN, or one per line on stdin');
  const verdicts = await verifyTokens(options.seed, tokens);
  console.log(
    "(signatures are not checked: that needs the room's key; the rank depends only on the token's arr and sub)",
  );
  for (const line of placeLines(verdicts)) console.log(line);
  const bad = verdicts.filter((v) => v.problem !== undefined);
  for (const v of bad) console.error(`cannot rank ${v.token.slice(0, 24)}…: ${v.problem}`);
  return bad.length === 0 ? 0 : 1;
}

export async function main(argv: readonly string[], io: EventIo = {}): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      force: { type: 'boolean', default: false },
      'fastly-service': { type: 'string' },
      'secret-store-id': { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      file: { type: 'string' },
      'config-file': { type: 'string' },
      'event-start': { type: 'string' },
      room: { type: 'string' },
      seed: { type: 'string' },
      commitment: { type: 'string' },
      token: { type: 'string', multiple: true },
    },
  });
  const file = keysFile(values.file);
  const now = io.now ?? (() => Date.now() / 1000);
  try {
    switch (positionals[0]) {
      case 'seed':
        return await newSeed(file, {
          force: values.force,
          service: values['fastly-service'],
          storeId: values['secret-store-id'],
          dryRun: values['dry-run'],
        });
      case 'commitment':
        console.log(commitmentOf(await storedSeed(file)));
        return 0;
      case 'reveal':
        return await reveal(
          file,
          await eventStart(values['event-start'], values['config-file'], values.room),
          values.force,
          now(),
        );
      case 'verify':
        return await verify(values, io);
      default:
        throw new UsageError(
          positionals[0] === undefined
            ? 'name a command'
            : `unknown command "${positionals[0]}"; use seed, commitment, reveal or verify`,
        );
    }
  } catch (error) {
    if (!(error instanceof EventError)) throw error;
    console.error(`npm run event: ${error.message}`);
    return 2;
  }
}

if (isMain(import.meta.url)) runTool('npm run event', USAGE, (argv) => main(argv));
