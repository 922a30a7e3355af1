// The fuzz run's proof attacks are what they claim, checked with the room's own proof.ts: the control's
// solution (altcha-lib's) is right for its token; no attack's header is right for the token it presents
// as its own, but the stale replay's (right for a token the room catches up to another); and every
// attacker's token is due with a draw lost without a proof and won with one.
import { describe, expect, it } from 'vitest';
import { claimsOf, nowSeconds } from '../../lib/mint.js';
import { drawBetween, forgeries, PROOF_CONTROL, proofAttack, proofMaterial } from '../../fuzz/proof-attacks.js';
import { seeded } from '../../fuzz/attacks.js';
import { PROOF_SECONDS, WAIT_SECONDS } from '../../fuzz/rooms.js';
import { dueAt } from '../../src/core/decision/draw.js';
import { identityHash } from '../../src/core/request/identity.js';
import { hmacKey } from '../../src/core/tokens/keys.js';
import { checkProof } from '../../src/core/tokens/proof.js';

const signing = { bytes: Uint8Array.from({ length: 64 }, (_, i) => (i * 7 + 3) & 255), kid: 'k1' };

describe("the fuzz run's proof attacks", () => {
  it('bring the right solution only in the control, and draws a valid proof alone would win', async () => {
    const now = nowSeconds();
    const m = await proofMaterial(signing, now);
    const key = await hmacKey(signing.bytes);
    for (const h of [m.owner, ...m.attackers]) {
      expect(await checkProof(h.current, key, PROOF_SECONDS, h.solution.current)).toBe(true);
      expect(dueAt(h.current, claimsOf(h.current).exp, { waitPeriodSeconds: WAIT_SECONDS })).toBeLessThanOrEqual(now);
      expect(drawBetween(h.current) && drawBetween(h.previous)).toBe(true);
      // Stale: caught up to the previous window's token (the current one's at the window's edge).
      expect(claimsOf(h.stale).exp + 2 * WAIT_SECONDS).toBeLessThanOrEqual(claimsOf(h.previous).exp);
    }
    const rnd = seeded(3);
    const kinds = new Set<string>();
    let controls = 0;
    for (let i = 0; i < 600; i++) {
      const a = proofAttack(m, String(i), rnd);
      kinds.add(a.kind.replace(/:.*: /, ': ').replace(/ \(.*\)$/, ''));
      const token = /waiting_room_proof=([^;]+)/.exec(a.headers.cookie!)![1]!;
      const header = a.headers['waiting-room-proof'];
      const own = claimsOf(token).sub === (await identityHash(signing.bytes, `header:${a.headers['x-fuzz-id']}`));
      // fetch trims a header's value, as the room does: judged as it arrives.
      const right = header !== undefined && (await checkProof(token, key, PROOF_SECONDS, header.trim()));
      if (a.kind.includes('stale token replayed')) {
        expect({ own, right, stale: claimsOf(token).exp + 2 * WAIT_SECONDS <= now, rights: a.rights }).toEqual({
          own: true,
          right: true,
          stale: true,
          rights: [],
        });
        continue;
      }
      if (a.kind === PROOF_CONTROL) {
        controls++;
        expect({ own, right, rights: a.rights }).toEqual({ own: true, right: true, rights: ['proof'] });
      } else {
        expect({ kind: a.kind, header, ownAndRight: own && right, rights: a.rights }).toEqual({
          kind: a.kind,
          header,
          ownAndRight: false,
          rights: [],
        });
      }
    }
    expect(controls).toBeGreaterThan(10);
    expect(kinds.size).toBeGreaterThanOrEqual(9);
    expect([...kinds].some((k) => k.includes('stale token replayed'))).toBe(true);
  });

  it('forge every header unlike the right one, each refused by the check', async () => {
    const m = await proofMaterial(signing);
    const key = await hmacKey(signing.bytes);
    const rnd = seeded(11);
    const h = m.attackers[0]!;
    for (let i = 0; i < 50; i++) {
      for (const f of forgeries(h.solution.current, m.counters, rnd)) {
        expect({ what: f.what, accepted: await checkProof(h.current, key, PROOF_SECONDS, f.value.trim()) }).toEqual({
          what: f.what,
          accepted: false,
        });
      }
    }
  });
});
