// `npm run event`: the seed that shuffles a pre-queue, its commitment, the reveal, and the check
// anyone can run with the revealed seed and a token (docs/events.md).
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { statSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main as event, verifyTokens } from '../../scripts/event.js';
import { identityHash } from '../../src/core/request/identity.js';
import { seedKey } from '../../src/core/tokens/keys.js';
import { prequeuePosition, rank } from '../../src/core/decision/position.js';
import { signToken } from '../../src/core/tokens/token.js';
import { repoRoot } from '../../lib/paths.js';
import { captured, readJson, scratch, type Scratch } from './helpers.js';

let s: Scratch;
beforeEach(() => {
  s = scratch({ allow_percentage: '50', active_key: 'key1' });
});
afterEach(() => s.cleanup());

const KEY = Uint8Array.from({ length: 64 }, (_, i) => (i * 37 + 11) & 255);
const START = 1_764_583_200;

/** A pre-queue token as the room signs it, for `identity`. */
async function preToken(identity: string): Promise<string> {
  const sub = await identityHash(KEY, identity);
  return signToken({ dec: 'pre', exp: START, sub, room: 'default', arr: START }, 'key1', KEY);
}

const sha256 = (b64: string) => `sha256:${createHash('sha256').update(Buffer.from(b64, 'base64')).digest('hex')}`;

describe('npm run event -- seed', () => {
  it('stores 32 random bytes as event-seed, readable by its owner only, and prints their commitment', async () => {
    const r = await captured(() => event(['seed']));
    expect(r.result).toBe(0);
    const seed = readJson(s.keys)['event-seed']!;
    expect(Buffer.from(seed, 'base64')).toHaveLength(32);
    expect(statSync(s.keys).mode & 0o777).toBe(0o600);
    expect(r.out).toContain(`commitment: ${sha256(seed)}`);
    const again = await captured(() => event(['commitment']));
    expect(again.out.trim()).toBe(sha256(seed));
  });

  it('refuses to replace a seed whose commitment may be out, unless told to', async () => {
    await captured(() => event(['seed']));
    const first = readJson(s.keys)['event-seed'];
    const refused = await captured(() => event(['seed']));
    expect(refused.result).toBe(2);
    expect(refused.err).toMatch(/--force/);
    expect(readJson(s.keys)['event-seed']).toBe(first);
    expect((await captured(() => event(['seed', '--force']))).result).toBe(0);
    expect(readJson(s.keys)['event-seed']).not.toBe(first);
  });

  it('reveals the stored seed with its commitment', async () => {
    await captured(() => event(['seed']));
    const seed = readJson(s.keys)['event-seed']!;
    const r = await captured(() => event(['reveal']));
    expect(r.out).toContain(`seed: ${seed}`);
    expect(r.out).toContain(`commitment: ${sha256(seed)}`);
  });
});

describe('npm run event -- reveal, by the clock', () => {
  const startIso = new Date(START * 1000).toISOString().replace('.000Z', 'Z');
  const eventSettings = { event_prequeue_start: new Date((START - 1800) * 1000).toISOString(), event_start: startIso };
  const withEvent = () =>
    writeFileSync(s.config, JSON.stringify({ settings: JSON.stringify({ allow_percentage: '50', ...eventSettings }) }));
  const routing = JSON.stringify({
    rooms: [
      { id: 'shop', routes: ['/'] },
      { id: 'drops', routes: ['/drops'] },
    ],
    default_room: 'shop',
  });

  it('refuses while the pre-queue is open, prints no seed, and says when it may and how to force it', async () => {
    withEvent();
    await captured(() => event(['seed']));
    const seed = readJson(s.keys)['event-seed']!;
    const r = await captured(() => event(['reveal'], { now: () => START - 600 }));
    expect(r.result).toBe(1);
    expect(r.out).not.toContain(seed);
    expect(r.err).not.toContain(seed);
    expect(r.err).toMatch(/refused/);
    expect(r.err).toContain(startIso);
    expect(r.err).toMatch(/in 10 minutes/);
    expect(r.err).toContain('--force');
  });

  it('reveals before the start only when forced, with a warning that anyone can now compute the places', async () => {
    withEvent();
    await captured(() => event(['seed']));
    const seed = readJson(s.keys)['event-seed']!;
    const r = await captured(() => event(['reveal', '--force'], { now: () => START - 600 }));
    expect(r.result).toBe(0);
    expect(r.out).toContain(`seed: ${seed}`);
    expect(r.err).toMatch(/WARNING.*pre-queue is still open/);
  });

  it('reveals without a word of warning once the event has started', async () => {
    withEvent();
    await captured(() => event(['seed']));
    const r = await captured(() => event(['reveal'], { now: () => START + 1 }));
    expect(r.result).toBe(0);
    expect(r.out).toMatch(/^seed: /m);
    expect(r.err).toBe('');
  });

  it('takes the start from --event-start for an event on a Fastly service, which the local settings do not know', async () => {
    await captured(() => event(['seed']));
    const r = await captured(() => event(['reveal', '--event-start', startIso], { now: () => START - 7200 }));
    expect(r.result).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/in 2 hours/);
  });

  it("reads a room's own event with --room, and the service-wide settings without", async () => {
    writeFileSync(
      s.config,
      JSON.stringify({
        routing,
        settings: JSON.stringify({ allow_percentage: '50' }),
        'room.drops': JSON.stringify(eventSettings),
      }),
    );
    await captured(() => event(['seed']));
    const room = await captured(() => event(['reveal', '--room', 'drops'], { now: () => START - 600 }));
    expect(room.result).toBe(1);
    expect(room.err).toMatch(/refused/);
    expect(room.err).toContain("room drops's settings");
    const service = await captured(() => event(['reveal'], { now: () => START - 600 }));
    expect(service.result).toBe(0);
    expect(service.err).toMatch(/cannot tell whether the pre-queue is still open/);
  });

  it('refuses a room the settings do not name, listing those they do', async () => {
    writeFileSync(s.config, JSON.stringify({ routing, settings: '{}' }));
    await captured(() => event(['seed']));
    const r = await captured(() => event(['reveal', '--room', 'drop'], { now: () => START - 600 }));
    expect(r.error?.message).toMatch(/--room drop: .* names no such room; its rooms are shop, drops/);
  });

  it('says it could not check when no start is known, and how to let it check', async () => {
    await captured(() => event(['seed']));
    const r = await captured(() => event(['reveal'], { now: () => START - 600 }));
    expect(r.result).toBe(0);
    expect(r.err).toMatch(/cannot tell whether the pre-queue is still open/);
    expect(r.err).toContain('--event-start');
  });
});

describe('npm run event -- verify', () => {
  const seed = Buffer.alloc(32, 7).toString('base64');

  it('gives each pre-queue token the rank the room gives it, in admission order', async () => {
    const tokens = await Promise.all(['ip:10.0.0.1', 'ip:10.0.0.2', 'ip:10.0.0.3'].map(preToken));
    const verdicts = await verifyTokens(seed, tokens);
    const key = await seedKey(Buffer.from(seed, 'base64'));
    for (const [i, v] of verdicts.entries()) {
      const sub = JSON.parse(Buffer.from(tokens[i]!.split('.')[1]!, 'base64url').toString()).sub as string;
      const expected = await rank(key, START, sub);
      expect(v.rank).toBe(expected);
      expect(v.pos).toBe(prequeuePosition(START, expected));
    }
    const r = await captured(() =>
      event(['verify', '--seed', seed, '--commitment', sha256(seed), ...tokens.flatMap((t) => ['--token', t])]),
    );
    expect(r.result).toBe(0);
    expect(r.out).toContain('matches the commitment');
    const printed = [...r.out.matchAll(/rank (\d\.\d+)/g)].map((m) => Number(m[1]));
    expect(printed).toHaveLength(3);
    expect(printed).toEqual([...printed].sort((a, b) => a - b));
  });

  it("prints each token's place in line among the tokens given, the position only as a detail", async () => {
    const tokens = await Promise.all(['ip:10.0.0.1', 'ip:10.0.0.2', 'ip:10.0.0.3'].map(preToken));
    const r = await captured(() => event(['verify', '--seed', seed, ...tokens.flatMap((t) => ['--token', t])]));
    expect(r.result).toBe(0);
    const lines = r.out.split('\n').filter((l) => /^\s+\d+(st|nd|rd|th) of 3\b/.test(l));
    expect(lines.map((l) => l.trim().split(/\s+/).slice(0, 3).join(' '))).toEqual(['1st of 3', '2nd of 3', '3rd of 3']);
    // The place comes first; the raw position is in brackets at the end of the line.
    for (const l of lines) expect(l).toMatch(/\(rank 0\.\d{6}, position \d+\.\d{6}\)$/);
    expect(r.out).toContain(`the event that starts ${new Date(START * 1000).toISOString().replace('.000Z', 'Z')}`);
  });

  it('refuses a seed that is not the one committed to', async () => {
    const token = await preToken('ip:1');
    const r = await captured(() =>
      event([
        'verify',
        '--seed',
        seed,
        '--commitment',
        sha256(Buffer.alloc(32, 8).toString('base64')),
        '--token',
        token,
      ]),
    );
    expect(r.result).toBe(2);
    expect(r.err).toMatch(/does not match the commitment/);
  });

  it('says why each token it cannot rank is unusable, and exits non-zero', async () => {
    const good = await preToken('ip:1');
    const wait = await signToken({ dec: 'wait', exp: START, sub: 'x', room: 'default' }, 'key1', KEY);
    const r = await captured(() =>
      event(['verify', '--seed', seed], { stdinTokens: async () => [good, 'garbage', wait] }),
    );
    expect(r.result).toBe(1);
    expect(r.out).toMatch(/rank 0\.\d{6}/);
    expect(r.err).toMatch(/cannot rank garbage…: not a token/);
    expect(r.err).toMatch(/not a pre-queue token/);
  });

  it('refuses a seed that is too short to be one', async () => {
    const r = await captured(() => event(['verify', '--seed', Buffer.alloc(8).toString('base64'), '--token', 'a.b.c']));
    expect(r.result).toBe(2);
    expect(r.err).toMatch(/at least 32/);
  });
});

describe('an event seed stored before the first key', () => {
  it('still gets the room a signing key from npm run keys -- generate, next to the seed', async () => {
    const { main: keys } = await import('../../scripts/keys.js');
    await captured(() => event(['seed']));
    const seed = readJson(s.keys)['event-seed'];
    const r = await captured(() => keys(['generate']));
    expect(r.result).toBe(0);
    const file = readJson(s.keys);
    expect(Object.keys(file).sort()).toEqual(['event-seed', 'key1']);
    expect(file['event-seed']).toBe(seed);
  });
});

describe('npm run event from the command line', () => {
  const cli = (args: string[]) =>
    new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        ['--import', 'tsx', 'scripts/event.ts', ...args],
        { cwd: repoRoot, env: { ...process.env, WR_KEYS_FILE: s.keys, WR_CONFIG_FILE: s.config } },
        (_e, out, err) => resolve({ code: child.exitCode, out, err }),
      );
      child.stdin?.end();
    });

  it('answers verify with no arguments with what is missing and the usage, exit 2, before it exits', async () => {
    const r = await cli(['verify']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^npm run event: give the revealed seed/);
    expect(r.err).toMatch(/^usage: npm run event -- /m);
    expect(r.err).not.toMatch(/^\s+at /m);
  });

  it('prints the usage for --help and exits 0', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^usage: npm run event -- /);
    expect(r.out).toMatch(/reveal/);
  });
});
