// The fuzz run's cross-room material is what it claims: its invites check as the room checks them
// (the valid one admits its own visitor in its own room; each broken one fails for its own reason),
// and each attack's declared rights are rooms it really carries its own token or invite for.
import { describe, expect, it } from 'vitest';
import { crossRoomAttack, INVITE_KID, roomMaterial } from '../../fuzz/cross-room.js';
import { seeded } from '../../fuzz/attacks.js';
import { checkInvite } from '../../src/core/tokens/invite.js';
import { createKeyRing } from '../../src/core/tokens/keys.js';
import { cookieName } from '../../src/core/request/cookies.js';

const signing = { bytes: new Uint8Array(64).fill(3), kid: 'k1' };
const inviteBytes = new Uint8Array(32).fill(9);

describe("the fuzz run's invites and cross-room attacks", () => {
  it('signs invites the room accepts only for their own visitor and room', async () => {
    const m = await roomMaterial(signing, inviteBytes);
    // The room's own key ring over a key store holding the fuzz run's keys.
    const store: Record<string, string> = {
      [signing.kid]: Buffer.from(signing.bytes).toString('base64'),
      [`invite.${INVITE_KID}`]: Buffer.from(inviteBytes).toString('base64'),
    };
    const ring = createKeyRing(
      async (kid) => store[kid] ?? null,
      () => {},
    );
    const key = (kid: string): Promise<CryptoKey | null> => ring.inviteKey(kid);
    const nowSec = Math.floor(Date.now() / 1000);
    const check = (invite: string, room: string, identity = 'header:owner') =>
      checkInvite(invite, { room, identity, nowSec }, key);
    expect((await check(m.invites.valid.drops!, 'drops')).ok).toBe(true);
    expect(await check(m.invites.valid.drops!, 'shop')).toEqual({ ok: false, reason: 'invite_other_room' });
    expect(await check(m.invites.valid.drops!, 'drops', 'header:attacker-1')).toEqual({
      ok: false,
      reason: 'invite_other_identity',
    });
    expect(await check(m.invites.otherSub.drops!, 'drops')).toEqual({ ok: false, reason: 'invite_other_identity' });
    expect(await check(m.invites.expired.drops!, 'drops')).toEqual({ ok: false, reason: 'invite_expired' });
    expect(await check(m.invites.badSignature.drops!, 'drops')).toEqual({ ok: false, reason: 'invite_forged' });
    expect(await check(m.invites.unknownKid.drops!, 'drops')).toEqual({ ok: false, reason: 'invite_forged' });
    // A room token is no invite, whatever its signature.
    expect((await check(m.allow.drops!, 'drops')).ok).toBe(false);
  });

  it("declares a right only where the request carries its owner's own token under that room's cookie, or its valid invite", async () => {
    const m = await roomMaterial(signing, inviteBytes);
    const rnd = seeded(5);
    const tokens = new Map(Object.entries(m.allow).map(([room, token]) => [token, room]));
    const valid = new Map(Object.entries(m.invites.valid).map(([room, invite]) => [invite, room]));
    let withRight = 0;
    for (let i = 0; i < 2000; i++) {
      const a = crossRoomAttack(m, `attacker-${i}`, rnd);
      for (const room of a.rights) {
        withRight++;
        const own = a.headers['x-fuzz-id'] === m.owner;
        const cookie = (a.headers.cookie ?? '')
          .split('; ')
          .some(
            (pair) =>
              pair === `${cookieName(room)}=${m.allow[room as 'shop']}` &&
              tokens.get(m.allow[room as 'shop']!) === room,
          );
        const invite =
          a.headers['waiting-room-invite'] ?? new URL(a.path, 'http://x').searchParams.get('waiting_room_invite');
        expect({ kind: a.kind, own, carries: cookie || (invite !== null && valid.get(invite) === room) }).toEqual({
          kind: a.kind,
          own: true,
          carries: true,
        });
      }
    }
    expect(withRight).toBeGreaterThan(100);
  });
});
