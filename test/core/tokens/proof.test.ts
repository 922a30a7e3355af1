// The proof of work bound to a wait token (src/core/tokens/proof.ts, docs/bots.md): altcha-lib's own solver
// solves it, the edge's check accepts that solution and nothing else.
import { deriveKey } from 'altcha-lib/algorithms/web/sha';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { solveChallenges } from '../../../lib/proof-solve.js';
import { parseConfig } from '../../../src/core/settings/index.js';
import { hmacKey } from '../../../src/core/tokens/keys.js';
import {
  altchaChallenges,
  checkProof,
  classifyProof,
  countersFor,
  keyPrefixOf,
  PHONE_RATE,
  proofChallenge,
  proofCompact,
  proofJson,
  proofSecondsFor,
  type ProofChallenge,
} from '../../../src/core/tokens/proof.js';
import { signToken } from '../../../src/core/tokens/token.js';

const bytes = (seed: number) => Uint8Array.from({ length: 64 }, (_, i) => (i * seed + 11) & 255);
// A tiny difficulty, so the real solver runs in the test: M = 2 x 0.01 x PHONE_RATE / 8 counters per sub-challenge.
const SECONDS = 0.01;

async function setup() {
  const key = await hmacKey(bytes(37));
  const other = await hmacKey(bytes(13));
  const token = await signToken({ dec: 'wait', exp: 1_800_000_000, sub: 'abc', room: 'shop' }, 'k1', key);
  const next = await signToken({ dec: 'wait', exp: 1_800_000_030, sub: 'abc', room: 'shop' }, 'k1', key);
  const stranger = await signToken({ dec: 'wait', exp: 1_800_000_000, sub: 'xyz', room: 'shop' }, 'k1', key);
  return { key, other, token, next, stranger };
}

/** The solution as an app would make it: altcha-lib's solveChallenge on each challenge of the JSON answer. */
const solveWithAltcha = (challenge: ProofChallenge): Promise<string> =>
  solveChallenges(proofJson(challenge).challenges);

describe('the puzzle', () => {
  it('is solved by altcha-lib, and the edge accepts that solution', async () => {
    const { key, token } = await setup();
    const challenge = await proofChallenge(token, key, SECONDS);
    expect(challenge.counters).toBe(countersFor(SECONDS));
    expect(challenge.counters).toBe(Math.round((2 * SECONDS * PHONE_RATE) / 8));
    const solution = await solveWithAltcha(challenge);
    expect(solution).toMatch(/^\d{1,10}(\.\d{1,10}){7}$/);
    expect(await checkProof(token, key, SECONDS, solution)).toBe(true);
    expect(await classifyProof(solution, true, token, key, SECONDS)).toBe('valid');
  });

  it('refuses forged, other-token, other-window, other-key, replayed and malformed solutions', async () => {
    const { key, other, token, next, stranger } = await setup();
    const solution = await solveWithAltcha(await proofChallenge(token, key, SECONDS));
    const counters = solution.split('.').map(Number);
    // One counter off by one, each position in turn: never accepted.
    for (let i = 0; i < 8; i++) {
      const forged = counters.map((n, j) => (j === i ? (n + 1) % countersFor(SECONDS) : n)).join('.');
      expect(await checkProof(token, key, SECONDS, forged)).toBe(false);
    }
    // Another identity's token, the next window's token (a replay), another key, another difficulty.
    expect(await checkProof(stranger, key, SECONDS, solution)).toBe(false);
    expect(await checkProof(next, key, SECONDS, solution)).toBe(false);
    expect(await checkProof(token, other, SECONDS, solution)).toBe(false);
    expect(await checkProof(token, key, 0.02, solution)).toBe(false);
    for (const bad of [
      '',
      '1.2.3',
      `${solution}.1`,
      solution.replace('.', ','),
      ` ${solution}x`,
      '01234567890.1.1.1.1.1.1.1',
      '-1.1.1.1.1.1.1.1',
      'none',
    ]) {
      expect(await checkProof(token, key, SECONDS, bad)).toBe(false);
    }
  });

  it('accepts none of thousands of guessed solutions, nor any string that is not eight counters', async () => {
    const { key, token } = await setup();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 374 }), { minLength: 8, maxLength: 8 }),
        async (guess) => !(await checkProof(token, key, SECONDS, guess.join('.'))),
      ),
      { numRuns: 2000 },
    );
    await fc.assert(
      fc.asyncProperty(fc.string(), async (text) => !(await checkProof(token, key, SECONDS, text))),
      { numRuns: 500 },
    );
  });

  it('classifies what a draw brings: eight wrong counters are wrong, anything else malformed failed, none or absent on a page missing, absent from an app skipped', async () => {
    const { key, token } = await setup();
    expect(await classifyProof('1.2.3.4.5.6.7.8', false, token, key, SECONDS)).toBe('wrong');
    expect(await classifyProof(' 1.2.3.4.5.6.7.8 ', true, token, key, SECONDS)).toBe('wrong');
    for (const malformed of [
      'garbage',
      '1.2.3.4.5.6.7',
      '1.2.3.4.5.6.7.8.9',
      '1.2.3.4.5.6.7.-8',
      '12345678901.2.3.4.5.6.7.8',
    ]) {
      expect(await classifyProof(malformed, true, token, key, SECONDS)).toBe('failed');
    }
    expect(await classifyProof(null, false, token, key, SECONDS)).toBe('missing');
    expect(await classifyProof('none', true, token, key, SECONDS)).toBe('missing');
    expect(await classifyProof(null, true, token, key, SECONDS)).toBe('skipped');
  });

  it('asks for about seconds x PHONE_RATE digests, in eight ALTCHA v2 challenges and a compact form', async () => {
    const { key, token } = await setup();
    const c = await proofChallenge(token, key, 5);
    expect(countersFor(5)).toBe(Math.round((2 * 5 * PHONE_RATE) / 8));
    expect((8 * (c.counters + 1)) / 2 / PHONE_RATE).toBeCloseTo(5, 3);
    const challenges = altchaChallenges(c);
    expect(challenges).toHaveLength(8);
    for (const [i, ch] of challenges.entries()) {
      expect(Object.keys(ch.parameters)).toEqual(['algorithm', 'cost', 'keyLength', 'keyPrefix', 'nonce', 'salt']);
      expect(ch.parameters).toMatchObject({ algorithm: 'SHA-256', cost: 1, keyLength: 32, salt: c.salt });
      expect(ch.parameters.nonce).toBe(c.noncePrefix + i.toString(16).padStart(2, '0'));
      expect(ch.parameters.keyPrefix).toMatch(/^[0-9a-f]{32}$/);
    }
    expect(c.salt).toMatch(/^[0-9a-f]{32}$/);
    expect(c.noncePrefix).toMatch(/^[0-9a-f]{30}$/);
    const compact = proofCompact(c);
    expect(compact.split('.')).toEqual(['1', String(c.counters), c.salt, c.noncePrefix, ...c.prefixes]);
    expect(compact.length).toBeLessThan(360);
    // The same token gives the same puzzle: nothing is kept at the edge.
    expect(await proofChallenge(token, key, 5)).toEqual(c);
    expect(proofJson(c)).toMatchObject({
      scheme: 'altcha-v2',
      header: 'waiting-room-proof',
      seconds: 5,
      counters: c.counters,
      solutionFormat: expect.any(String),
    });
  });
});

describe("the edge's key prefixes", () => {
  /** altcha-lib's own: its web deriveKey at cost 1 with the uint32 password, the key's first half in hex. */
  async function altchaPrefix(salt: Uint8Array, nonce: Uint8Array, counter: number): Promise<string> {
    const password = new Uint8Array(20);
    password.set(nonce, 0);
    new DataView(password.buffer).setUint32(16, counter, false);
    const { derivedKey } = await deriveKey({ algorithm: 'SHA-256', cost: 1, keyLength: 32 } as never, salt, password);
    return Buffer.from(derivedKey.slice(0, 16)).toString('hex');
  }

  it("equal altcha-lib's deriveKey on thousands of salts, nonces and counters, the extremes included", async () => {
    const bytes16 = fc.uint8Array({ minLength: 16, maxLength: 16 });
    const counter = fc.oneof(
      fc.nat(70_000),
      fc.constantFrom(0, 1, 255, 256, 65_535, 65_536, 2 ** 24, 2 ** 31, 2 ** 32 - 1),
      fc.nat({ max: 2 ** 32 - 1 }),
    );
    await fc.assert(
      fc.asyncProperty(
        bytes16,
        bytes16,
        fc.array(counter, { minLength: 1, maxLength: 8 }),
        async (salt, nonce, counters) => {
          const input = new Uint8Array(36);
          input.set(salt, 0);
          input.set(nonce, 16);
          // One buffer reused across counters, as the edge does: a counter never leaks into the next.
          for (const n of counters) expect(await keyPrefixOf(input, n)).toBe(await altchaPrefix(salt, nonce, n));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("make every token's challenge what altcha-lib derives for the token's secret counters", async () => {
    const { key } = await setup();
    for (let t = 0; t < 50; t++) {
      const token = await signToken(
        { dec: 'wait', exp: 1_800_000_000 + 30 * t, sub: `v${t}`, room: 'shop' },
        'k1',
        key,
      );
      const seconds = 1 + (t % 7);
      const c = await proofChallenge(token, key, seconds);
      // The spec's derivation, step by step: m = HMAC-SHA-512(key, "wr-proof:" + token), N_i from m's second half.
      const m = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`wr-proof:${token}`)));
      const view = new DataView(m.buffer);
      for (let i = 0; i < 8; i++) {
        const nonce = new Uint8Array([...m.slice(0, 15), i]);
        const secret = view.getUint32(32 + 4 * i, false) % countersFor(seconds);
        expect(c.prefixes[i]).toBe(await altchaPrefix(m.slice(16, 32), nonce, secret));
      }
    }
  });
});

describe('proofSecondsFor', () => {
  const config = (values: Record<string, string>) =>
    parseConfig((k) => ({ allow_percentage: '10', ...values })[k] ?? null).config;

  it('is 0 when off, proof_seconds when fixed', () => {
    expect(proofSecondsFor(config({}), 1000)).toBe(0);
    expect(proofSecondsFor(config({ proof_of_work: 'fixed', proof_seconds: '3' }), 1000)).toBe(3);
    expect(proofSecondsFor(config({ proof_of_work: 'fixed' }), 1000)).toBe(5);
  });

  it('in auto, follows proof_schedule as the draw follows allow_schedule, capped at proof_seconds; no entry is no proof', () => {
    const c = config({ proof_of_work: 'auto', proof_seconds: '8', proof_schedule: '1020=4,990=2.5,1050=20,1080=0' });
    expect(proofSecondsFor(c, 960)).toBe(0);
    expect(proofSecondsFor(c, 990)).toBe(2.5);
    expect(proofSecondsFor(c, 1020)).toBe(4);
    expect(proofSecondsFor(c, 1050)).toBe(8);
    expect(proofSecondsFor(c, 1080)).toBe(0);
    expect(proofSecondsFor(c, 9999)).toBe(0);
    expect(proofSecondsFor(config({ proof_of_work: 'auto' }), 1000)).toBe(0);
  });
});
