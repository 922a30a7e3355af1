// Preview links (docs/operating.md, "Previewing a page"): a signed text that lets whoever holds it see
// one page of one room as the room would show it, with made-up figures, until it expires. A compact
// JWS, HS256, header exactly {alg, kid}, payload {room, page, exp} and the state members below,
// signed with an invite key `invite.KID` of `waiting_room_keys`: a preview admits nobody, and whoever
// holds an invite key may already do more. The payload's members keep the two apart: an invite is
// exactly {room, sub, exp}, so neither ever passes for the other. Checking one never throws.
import { decodeCompact, jsonObjectOf, signCompact, verifyCompact } from './jws.js';
import { DEFAULT_VARIANT, isVariantName, ROOM_ID } from '../settings/index.js';
import type { PreviewReason } from '../types.js';

/** The path the room answers a preview at itself, before any routing: it never reaches the origin. */
export const PREVIEW_PATH = '/__waiting_room/preview';
/** The query parameter that carries the signed link. */
export const PREVIEW_PARAM = 'wr_preview';
/** Longer than this is malformed, before any parsing. */
export const MAX_PREVIEW_CHARS = 1024;

/**
 * Every page the room can answer with: the waiting pages, the countdown, the deny page and the closed
 * one (the deny page of an event that ended with `event_end_action = close`), the 429 a token checking
 * too often gets (`hammer_limit`), and the 502 when the origin cannot be reached.
 */
export const PREVIEW_PAGES = [
  'startwaiting',
  'keepwaiting',
  'prequeue',
  'deny',
  'closed',
  'hammer',
  'origin-down',
] as const;
export type PreviewPage = (typeof PREVIEW_PAGES)[number];

export type PreviewMode = 'random' | 'fifo';

/** What a preview link says. The optional members are the state the page is shown in. */
export interface PreviewClaims {
  room: string;
  page: PreviewPage;
  /** Epoch seconds: the link works while the time is before it. */
  exp: number;
  /** The waiting pages of a draw or of a first-come line; absent: the room's `queueing_method`. */
  mode?: PreviewMode;
  /** The waiting pages with a proof of work being solved (a made-up puzzle). */
  proof?: true;
  /** The waiting pages' A/B variant (`page_variants`, pages/README.md); absent or `a`: the plain pages. */
  variant?: string;
}

/** Why a link is refused (src/core/types.ts declares every reason). */
export type PreviewRefusal = Exclude<PreviewReason, 'preview'>;

export type PreviewCheck = { ok: true; claims: PreviewClaims; kid: string } | { ok: false; reason: PreviewRefusal };

const REQUIRED = ['room', 'page', 'exp'] as const;
/** Each optional member and the values it may take: a new state (a page's variant, say) is one more line. */
const OPTIONAL: Record<string, (v: unknown) => boolean> = {
  mode: (v) => v === 'random' || v === 'fifo',
  proof: (v) => v === true,
  variant: (v) => typeof v === 'string' && (v === DEFAULT_VARIANT || isVariantName(v)),
};

const encoder = new TextEncoder();

export function isPreviewPage(name: string): name is PreviewPage {
  return (PREVIEW_PAGES as readonly string[]).includes(name);
}

/** Signs a preview link's text with invite key `kid` (the tool and the tests; the room only verifies). */
export function signPreview(claims: PreviewClaims, kid: string, key: CryptoKey | Uint8Array): Promise<string> {
  const payload: Record<string, unknown> = { room: claims.room, page: claims.page, exp: claims.exp };
  if (claims.mode !== undefined) payload.mode = claims.mode;
  if (claims.proof === true) payload.proof = true;
  if (claims.variant !== undefined) payload.variant = claims.variant;
  return signCompact('HS256', kid, encoder.encode(JSON.stringify(payload)), key);
}

/** The claims a payload holds, exactly the members above; null for anything else. */
function claimsOf(payload: Record<string, unknown>): PreviewClaims | null {
  for (const key of Object.keys(payload))
    if (!(REQUIRED as readonly string[]).includes(key) && !OPTIONAL[key]?.(payload[key])) return null;
  const { room, page, exp } = payload;
  if (typeof room !== 'string' || !ROOM_ID.test(room)) return null;
  if (typeof page !== 'string' || !isPreviewPage(page)) return null;
  if (typeof exp !== 'number' || !Number.isSafeInteger(exp)) return null;
  return payload as unknown as PreviewClaims;
}

/**
 * Checks a preview link's text. Order: shape -> key (`invite.KID`; none: `preview_unknown_key`) ->
 * signature -> expiry. The room is checked by the caller, against its routing. `key` gives the invite
 * key a kid names (KeyRing.inviteKey), or null.
 */
export async function checkPreview(
  text: string | null,
  nowSec: number,
  key: (kid: string) => Promise<CryptoKey | null>,
): Promise<PreviewCheck> {
  if (text === null || text === '' || text.length > MAX_PREVIEW_CHARS)
    return { ok: false, reason: 'preview_malformed' };
  const jws = decodeCompact(text);
  if (jws === null || jws === 'noncanonical') return { ok: false, reason: 'preview_malformed' };
  const header = jsonObjectOf(jws.header);
  const payload = jsonObjectOf(jws.payload);
  const claims = payload === null ? null : claimsOf(payload);
  if (header === null || claims === null || header.alg !== 'HS256' || Object.keys(header).length !== 2)
    return { ok: false, reason: 'preview_malformed' };
  const { kid } = header;
  if (typeof kid !== 'string' || kid === '') return { ok: false, reason: 'preview_malformed' };
  try {
    const secret = await key(kid);
    if (secret === null) return { ok: false, reason: 'preview_unknown_key' };
    if (!(await verifyCompact('HS256', jws, secret))) return { ok: false, reason: 'preview_forged' };
  } catch {
    return { ok: false, reason: 'preview_forged' };
  }
  if (claims.exp <= nowSec) return { ok: false, reason: 'preview_expired' };
  return { ok: true, claims, kid };
}
