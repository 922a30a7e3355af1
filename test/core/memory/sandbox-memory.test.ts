// What a reused sandbox keeps between requests: only answers that still follow from what the stores
// say now, so a tuned setting, a new key or an expired token is seen on the very next request.
import { describe, expect, it } from 'vitest';
import { parseRoomConfig, rawList, readRoomRaws } from '../../../src/core/settings/index.js';
import { createKeyRing, hmacKey } from '../../../src/core/tokens/keys.js';
import { MAX_REMEMBERED, SandboxMemory } from '../../../src/core/memory/index.js';
import { signToken, verifyToken } from '../../../src/core/tokens/token.js';

const bytes = (seed: number): Uint8Array => Uint8Array.from({ length: 64 }, (_, i) => (i * 13 + seed) & 255);
const b64 = (b: Uint8Array): string => Buffer.from(b).toString('base64');

describe('settings', () => {
  it('parses once while the raw values stay, and again as soon as one of them changes', () => {
    const memory = new SandboxMemory();
    const store: Record<string, string> = {
      settings: '{"wait_period_duration":"30"}',
      'room.shop.allow_percentage': '20',
    };
    let parses = 0;
    const settings = () => {
      const raws = readRoomRaws((k) => store[k] ?? null, 'shop');
      return memory.parsed('room shop', rawList(raws), () => {
        parses++;
        return parseRoomConfig('shop', raws);
      });
    };
    const first = settings();
    expect(settings()).toBe(first);
    expect(parses).toBe(1);
    store['room.shop.allow_percentage'] = '70';
    const tuned = settings();
    expect(parses).toBe(2);
    expect(tuned.config.allowPercentage).toBe(70);
    // A value that was absent and is now set counts as a change too.
    store['room.shop'] = '{"cookie_samesite":"Strict"}';
    expect(settings().config.cookieSameSite).toBe('Strict');
    // Each room is kept apart: another room's parse does not evict this one's.
    memory.parsed('room checkout', [null, null, null, null], () =>
      parseRoomConfig(
        'checkout',
        readRoomRaws(() => null, 'checkout'),
      ),
    );
    expect(settings().config.cookieSameSite).toBe('Strict');
    expect(parses).toBe(3);
  });
});

describe('keys', () => {
  it('keeps an imported key while its stored text stays, and imports the new text at once', async () => {
    const memory = new SandboxMemory();
    const stored: Record<string, string> = { k1: b64(bytes(1)) };
    let lookups = 0;
    const ring = () =>
      createKeyRing(
        async (kid) => {
          lookups++;
          return stored[kid] ?? null;
        },
        () => undefined,
        memory,
      );
    const a = await ring().verifyingKey('k1');
    const b = await ring().verifyingKey('k1');
    expect(b).toBe(a);
    // The store is still read on every request: that is how a change is seen.
    expect(lookups).toBe(2);
    stored.k1 = b64(bytes(2));
    const c = await ring().verifyingKey('k1');
    expect(c).not.toBe(a);
    delete stored.k1;
    expect(await ring().verifyingKey('k1')).toBeNull();
  });
});

describe('verified tokens', () => {
  const nowSec = 1_800_000_000;

  async function setup() {
    const memory = new SandboxMemory();
    const stored: Record<string, string> = { k1: b64(bytes(1)) };
    const ring = () =>
      createKeyRing(
        async (kid) => stored[kid] ?? null,
        () => undefined,
        memory,
      );
    const token = await signToken(
      { dec: 'allow', exp: nowSec + 600, sub: 'visitor', room: 'shop' },
      'k1',
      await hmacKey(bytes(1)),
    );
    return { memory, stored, ring, token };
  }

  it('answers a token verified before under the same key from memory', async () => {
    const { memory, ring, token } = await setup();
    const first = await verifyToken(token, ring(), { memory, nowSec });
    expect(first.ok).toBe(true);
    expect(memory.size.tokens).toBe(1);
    const again = await verifyToken(token, ring(), { memory, nowSec: nowSec + 1 });
    expect(again).toEqual(first);
  });

  it('verifies again once the key behind the kid changed, and a re-keyed token fails', async () => {
    const { memory, stored, ring, token } = await setup();
    await verifyToken(token, ring(), { memory, nowSec });
    stored.k1 = b64(bytes(9));
    const after = await verifyToken(token, ring(), { memory, nowSec });
    expect(after).toMatchObject({ ok: false, reason: 'token_bad_signature' });
    delete stored.k1;
    expect(await verifyToken(token, ring(), { memory, nowSec })).toMatchObject({
      ok: false,
      reason: 'token_unknown_kid',
    });
  });

  it('keeps a token no longer than it is valid', async () => {
    const { memory, ring, token } = await setup();
    await verifyToken(token, ring(), { memory, nowSec });
    expect(await memory.verifiedToken(token, nowSec + 600, () => ring().verifyingKey('k1'))).toBeNull();
    expect(memory.size.tokens).toBe(0);
  });

  it('never keeps a failure: a forged token is checked every time', async () => {
    const { memory, ring, token } = await setup();
    const forged = `${token.slice(0, -4)}AAAA`;
    expect((await verifyToken(forged, ring(), { memory, nowSec })).ok).toBe(false);
    expect(memory.size.tokens).toBe(0);
  });

  it('holds at most MAX_REMEMBERED tokens, the oldest going first', async () => {
    const { memory } = await setup();
    const key = await hmacKey(bytes(1));
    const claims = { dec: 'allow' as const, exp: nowSec + 600, sub: 's', room: 'shop' };
    for (let i = 0; i <= MAX_REMEMBERED; i++)
      memory.rememberToken(`t${i}`, { claims, kid: 'k1', key, signature: new Uint8Array() }, nowSec);
    expect(memory.size.tokens).toBe(MAX_REMEMBERED);
    expect(await memory.verifiedToken('t0', nowSec, async () => key)).toBeNull();
    expect(await memory.verifiedToken(`t${MAX_REMEMBERED}`, nowSec, async () => key)).not.toBeNull();
  });

  it('forgets everything after an unexpected failure', async () => {
    const { memory, ring, token } = await setup();
    await verifyToken(token, ring(), { memory, nowSec });
    memory.parsed('routing', [null], () => 1);
    memory.forget();
    expect(memory.size).toEqual({ tokens: 0, keys: 0, parses: 0 });
  });
});

describe('one memory, three kinds of table', () => {
  it('forgets what follows from the stores after a failure, and keeps what follows from its key or the service', () => {
    const memory = new SandboxMemory();
    const worded = memory.table<string, string>('derived', 'worded', 8);
    const handles = memory.table<string, string>('service', 'handles', 8);
    const parsed = memory.table<string, string>('stored', 'parsed', 8);
    worded.set('a', 'A');
    handles.set('log', 'L');
    parsed.set('room', 'R');
    expect(memory.firstTime('store missing')).toBe(true);
    memory.forget();
    expect([worded.get('a'), handles.get('log'), parsed.get('room')]).toEqual(['A', 'L', undefined]);
    // A diagnostic about the service is still said once, not again after the failure.
    expect(memory.firstTime('store missing')).toBe(false);
  });

  it('lists every table with its kind, the handler’s own first', () => {
    const memory = new SandboxMemory();
    memory.table('derived', 'worded', 8).set('a', 'A');
    const kept = memory.kept();
    expect(kept.map((t) => `${t.kind} ${t.name}`)).toEqual([
      'stored settings, routing and strings as parsed',
      'stored imported keys',
      'stored verified tokens',
      'stored identity hashes',
      'service diagnostics said',
      'derived worded',
    ]);
    expect(kept.at(-1)!.size).toBe(1);
    // Tables kept per object cannot be counted.
    expect(kept[3]!.size).toBeNull();
  });

  it('keeps a table per object, each bounded, and a new object starts empty', () => {
    const memory = new SandboxMemory();
    const perList = memory.perObject<object, string, number>('derived', 'per list', 2);
    const a = {};
    perList.of(a).set('x', 1);
    perList.of(a).set('y', 2);
    perList.of(a).set('z', 3);
    expect([perList.of(a).get('x'), perList.of(a).get('z')]).toEqual([undefined, 3]);
    expect(perList.of({}).size).toBe(0);
  });
});
