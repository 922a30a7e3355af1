// INTERIM (replaced by the invite branch before this lands).
export const INVITE_PARAM = 'waiting_room_invite';
export const INVITE_HEADER = 'waiting-room-invite';
export const INVITE_KID_PREFIX = 'invite.';
export type InviteReason = 'invite_malformed' | 'invite_forged' | 'invite_expired' | 'invite_other_room' | 'invite_other_identity';
export type InviteCheck = { ok: true; exp: number; kid: string } | { ok: false; reason: InviteReason };

export function inviteFrom(url: URL, headers: Headers): string | null {
  return headers.get(INVITE_HEADER) ?? url.searchParams.get(INVITE_PARAM);
}

export async function checkInvite(_invite: string, _expect: { room: string; identity: string; nowSec: number }, _key: (kid: string) => Promise<CryptoKey | null>): Promise<InviteCheck> {
  return { ok: false, reason: 'invite_malformed' };
}
