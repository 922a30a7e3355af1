// `npm run event`: the seed that shuffles a pre-queue, its commitment, the reveal, and the check
// anyone can run with the revealed seed and a token (docs/events.md).
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main as event, verifyTokens } from '../../scripts/event.js';
import { identityHash } from '../../src/core/identity.js';
import { seedKey } from '../../src/core/keys.js';
import { prequeuePosition, rank } from '../../src/core/position.js';
import { signToken } from '../../src/core/token.js';
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
  return signToken({ dec: 'pre', exp: START, sub, arr: START }, 'key1', KEY);
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
    const r = await captured(() => event(['verify', '--seed', seed, '--commitment', sha256(seed), ...tokens.flatMap((t) => ['--token', t])]));
    expect(r.result).toBe(0);
    expect(r.out).toContain('matches the commitment');
    const printed = [...r.out.matchAll(/rank (\d\.\d+)/g)].map((m) => Number(m[1]));
    expect(printed).toHaveLength(3);
    expect(printed).toEqual([...printed].sort((a, b) => a - b));
  });

  it('refuses a seed that is not the one committed to', async () => {
    const token = await preToken('ip:1');
    const r = await captured(() => event(['verify', '--seed', seed, '--commitment', sha256(Buffer.alloc(32, 8).toString('base64')), '--token', token]));
    expect(r.result).toBe(2);
    expect(r.err).toMatch(/does not match the commitment/);
  });

  it('says why each token it cannot rank is unusable, and exits non-zero', async () => {
    const good = await preToken('ip:1');
    const wait = await signToken({ dec: 'wait', exp: START, sub: 'x' }, 'key1', KEY);
    const r = await captured(() => event(['verify', '--seed', seed], async () => [good, 'garbage', wait]));
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
