// `npm run event`: the seed that shuffles a scheduled sale's pre-queue, and the check anyone can make
// of it afterwards (docs/events.md, "A lottery anyone can check").
//
//   npm run event -- seed [--force]        a new event-seed in the local key store; prints its commitment
//        ... --fastly-service ID [--secret-store-id ID] [--dry-run]   and in the service's Secret Store
//   npm run event -- commitment            the stored seed's commitment again
//   npm run event -- reveal                the stored seed and its commitment, to publish after the sale
//   npm run event -- verify --seed B64 [--commitment sha256:HEX] [--token TOKEN ...]   (or tokens on stdin)
//
// The seed stays in the local key file even when it goes to Fastly: a Secret Store never gives a
// value back, and the reveal needs it.
import { createHash, randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { decodeBase64, EVENT_SEED_ID, MIN_KEY_BYTES, seedKey } from '../src/core/keys.js';
import { prequeuePosition, rank } from '../src/core/position.js';
import { KEY_STORE } from '../src/fastly/names.js';
import { fastlyRunner, resolveStoreId } from '../lib/fastly-cli.js';
import { readStoreIfExists, writeStoreAtomic } from '../lib/json-store.js';
import { isMain } from '../lib/cli.js';
import { keysFile } from '../lib/paths.js';

export class EventError extends Error {
  override name = 'EventError';
}

const SEED_BYTES = 32;

/** `sha256:` + the hex SHA-256 of the seed's bytes: what the operator publishes before the sale. */
export function commitmentOf(seed: Uint8Array): string {
  return `sha256:${createHash('sha256').update(seed).digest('hex')}`;
}

function seedBytes(base64: string): Uint8Array {
  const bytes = decodeBase64(base64.trim());
  if (bytes === null) throw new EventError('the seed is not base64');
  if (bytes.length < MIN_KEY_BYTES) throw new EventError(`the seed is ${bytes.length} bytes; an event seed has at least ${MIN_KEY_BYTES}`);
  return bytes;
}

export interface Verdict {
  token: string;
  /** The rank in [0, 1) and the position, or why the token cannot be ranked. */
  rank?: number;
  pos?: number;
  problem?: string;
}

/**
 * Each token's rank under the revealed seed, read from the token's own claims. The signature is NOT
 * checked: that needs the room's key, which the public does not have. A pre-queue token's rank
 * depends only on its start and subject, both in plain sight in the token.
 */
export async function verifyTokens(seedBase64: string, tokens: readonly string[]): Promise<Verdict[]> {
  const key = await seedKey(seedBytes(seedBase64));
  const verdicts: Verdict[] = [];
  for (const token of tokens) {
    const claims = readClaims(token);
    if (typeof claims === 'string') {
      verdicts.push({ token, problem: claims });
      continue;
    }
    const r = await rank(key, claims.arr, claims.sub);
    verdicts.push({ token, rank: r, pos: prequeuePosition(claims.arr, r) });
  }
  return verdicts;
}

function readClaims(token: string): { arr: number; sub: string } | string {
  const parts = token.trim().split('.');
  if (parts.length !== 3) return 'not a token (a token has three parts separated by dots)';
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
  } catch {
    return 'its payload is not JSON';
  }
  const c = claims as Record<string, unknown>;
  if (typeof c !== 'object' || c === null) return 'its payload is not a JSON object';
  if (c.dec !== 'pre') return `it is not a pre-queue token (dec is ${JSON.stringify(c.dec)})`;
  if (typeof c.arr !== 'number' || !Number.isSafeInteger(c.arr) || typeof c.sub !== 'string') return 'it lacks a whole-number arr or a sub';
  return { arr: c.arr, sub: c.sub };
}

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

export async function main(argv: readonly string[], stdinTokens: () => Promise<string[]> = readStdinTokens): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      force: { type: 'boolean', default: false },
      'fastly-service': { type: 'string' },
      'secret-store-id': { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      file: { type: 'string' },
      seed: { type: 'string' },
      commitment: { type: 'string' },
      token: { type: 'string', multiple: true },
    },
  });
  const file = keysFile(values.file);
  try {
    switch (positionals[0]) {
      case 'seed': {
        const keys = (await readStoreIfExists(file)) ?? {};
        if (keys[EVENT_SEED_ID] !== undefined && !values.force) {
          throw new EventError(`${file} already holds an ${EVENT_SEED_ID}; its commitment may be published already. Use --force to replace it`);
        }
        const seed = randomBytes(SEED_BYTES);
        const base64 = seed.toString('base64');
        const service = values['fastly-service'];
        if (service !== undefined) {
          const fastly = fastlyRunner(values['dry-run']);
          const store = values['secret-store-id'] ?? resolveStoreId(fastly, service, KEY_STORE);
          // Through stdin: on a command line the seed would sit in shell history and `ps`.
          fastly.run(['secret-store-entry', 'create', '--store-id', store, '--name', EVENT_SEED_ID, '--stdin', ...(values.force ? ['--recreate-allow'] : [])], {
            stdin: base64,
            stdinNote: '<the new seed>',
          });
        }
        if (!values['dry-run']) await writeStoreAtomic(file, { ...keys, [EVENT_SEED_ID]: base64 }, 0o600);
        console.log(`stored a new ${EVENT_SEED_ID} in ${file}${service === undefined ? '' : ` and service ${service}'s Secret Store`}`);
        console.log(`commitment: ${commitmentOf(seed)}`);
        console.log('Publish the commitment before the pre-queue opens; reveal the seed after the sale (npm run event -- reveal).');
        return 0;
      }
      case 'commitment':
        console.log(commitmentOf(await storedSeed(file)));
        return 0;
      case 'reveal': {
        const seed = await storedSeed(file);
        console.log(`seed: ${Buffer.from(seed).toString('base64')}`);
        console.log(`commitment: ${commitmentOf(seed)}`);
        console.log('Anyone can now check a pre-queue token: npm run event -- verify --seed SEED --commitment COMMITMENT --token TOKEN');
        return 0;
      }
      case 'verify': {
        if (values.seed === undefined) throw new EventError('give the revealed seed: --seed B64');
        const seed = seedBytes(values.seed);
        if (values.commitment !== undefined) {
          if (commitmentOf(seed).toLowerCase() !== values.commitment.trim().toLowerCase()) {
            throw new EventError(`the seed does not match the commitment ${values.commitment}: it is not the seed that was promised`);
          }
          console.log(`the seed matches the commitment ${values.commitment}`);
        }
        const tokens = values.token ?? (await stdinTokens());
        if (tokens.length === 0) throw new EventError('give at least one token: --token TOKEN, or one per line on stdin');
        const verdicts = await verifyTokens(values.seed, tokens);
        console.log('(signatures are not checked: that needs the room\'s key; the rank depends only on the token\'s arr and sub)');
        const ranked = verdicts.filter((v) => v.rank !== undefined).sort((a, b) => a.rank! - b.rank!);
        for (const v of ranked) console.log(`rank ${v.rank!.toFixed(6)}  position ${v.pos!.toFixed(6)}  ${v.token.slice(0, 24)}…`);
        const bad = verdicts.filter((v) => v.problem !== undefined);
        for (const v of bad) console.error(`cannot rank ${v.token.slice(0, 24)}…: ${v.problem}`);
        return bad.length === 0 ? 0 : 1;
      }
      default:
        throw new EventError(`unknown command "${positionals[0] ?? ''}"; use seed, commitment, reveal or verify`);
    }
  } catch (error) {
    if (!(error instanceof EventError)) throw error;
    console.error(`npm run event: ${error.message}`);
    return 2;
  }
}

if (isMain(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`npm run event: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
