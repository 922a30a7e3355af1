// Signing keys from `waiting_room_keys`: key id -> base64 of the key bytes. A token's `kid` is
// attacker-chosen, so lookups never throw and a missing key is simply "unknown"; a key that is present
// but too short (or not base64) is the operator's mistake and is reported by id, and never used.
import { pinnedCopy } from './key-bytes.js';
import type { SandboxCache } from '../types.js';

/** HS512 wants at least its hash size in key material; 32 bytes is the floor the room sets. */
export const MIN_KEY_BYTES = 32;

export interface KeyRing {
  /** The key that signs new tokens (`active_key`), or null when it is missing or weak. */
  signingKey(activeKid: string): Promise<CryptoKey | null>;
  /** The key a token's `kid` names, or null when the store lacks it or it is weak. */
  verifyingKey(kid: string): Promise<CryptoKey | null>;
  /** The event's seed (`event-seed`) as an HMAC-SHA-256 key for the pre-queue's ranks, or null. */
  eventSeed(): Promise<CryptoKey | null>;
  /** The invite key an invite's `kid` names (store item `invite.KID`), HMAC-SHA-256 for HS256, or null. */
  inviteKey(kid: string): Promise<CryptoKey | null>;
}

/** The store entry that holds a scheduled event's seed: a secret, but never a token's key. */
export const EVENT_SEED_ID = 'event-seed';

/** Invite keys are stored as `invite.KID`: a key id space of their own (invite.ts). */
export const INVITE_KID_PREFIX = 'invite.';

/**
 * Whether a store item may sign or verify room tokens: not the event seed (revealed after a sale), not
 * an invite key (an invite's signer, often a backend the room's operator does not run, must never be
 * able to sign room tokens).
 */
export function isTokenKid(kid: string): boolean {
  return kid !== EVENT_SEED_ID && !kid.startsWith(INVITE_KID_PREFIX);
}

/**
 * The one key object per key and request: HMAC-SHA-512, for the token's signature (HS512) and for the
 * identity hash alike. Every request is a fresh Wasm instance, so each distinct crypto setup is paid
 * cold on every request; one object instead of two (HS512 + a SHA-256 one for `sub`) pays it once.
 */
export function hmacKey(bytes: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    'raw',
    pinnedCopy(bytes) as Uint8Array<ArrayBuffer>,
    { name: 'HMAC', hash: 'SHA-512' },
    false,
    ['sign', 'verify'],
  );
}

/** An event seed's bytes as an HMAC-SHA-256 key, for the pre-queue's ranks (position.ts). */
export function seedKey(seed: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    'raw',
    pinnedCopy(seed) as Uint8Array<ArrayBuffer>,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
}

/** An invite key's bytes as an HMAC-SHA-256 key: invites are HS256 (invite.ts), verified only. */
export function inviteHmacKey(bytes: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    'raw',
    pinnedCopy(bytes) as Uint8Array<ArrayBuffer>,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify'],
  );
}

/** Standard or URL-safe base64, padding optional; null when the text is not base64 at all. */
export function decodeBase64(text: string): Uint8Array | null {
  const compact = text.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  if (compact === '' || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) return null;
  const unpadded = compact.replace(/=+$/, '');
  if (unpadded.length % 4 === 1) return null;
  try {
    const binary = atob(unpadded + '='.repeat((4 - (unpadded.length % 4)) % 4));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

// Fastly's own rule for store item names. A token's kid outside it cannot name a stored key, and
// asking the store anyway would let any visitor fill the operator's log with lookup errors.
const KEY_ID = /^[A-Za-z0-9_.-]{1,255}$/;

/**
 * The keys for one request. With a sandbox's memory, a key whose stored text is unchanged is the same
 * imported object as on the sandbox's last request (the store is still read every request).
 */
export function createKeyRing(
  lookup: (kid: string) => Promise<string | null>,
  diag: (message: string) => void,
  memory?: Pick<SandboxCache, 'keptKey' | 'importedKey'>,
): KeyRing {
  // One store read and one key import per key id per request, however many cookies name it.
  const memo = new Map<string, Promise<CryptoKey | null>>();
  const reportedMissing = new Set<string>();

  function load(
    kid: string,
    importKey: (bytes: Uint8Array) => Promise<CryptoKey> = hmacKey,
  ): Promise<CryptoKey | null> {
    if (!KEY_ID.test(kid)) return Promise.resolve(null);
    let pending = memo.get(kid);
    if (!pending) {
      pending = (async () => {
        const stored = await lookup(kid);
        if (stored === null || stored === undefined) return null;
        // Text this sandbox imported before is the same key: no decoding, no import (the slow part).
        const kept = memory?.keptKey(kid, String(stored));
        if (kept) return kept;
        const bytes = decodeBase64(String(stored));
        if (bytes === null) {
          diag(`waiting_room_keys: key "${kid}" is not base64; it is never used`);
          return null;
        }
        if (bytes.length < MIN_KEY_BYTES) {
          diag(
            `waiting_room_keys: key "${kid}" is weak (${bytes.length} bytes, need ${MIN_KEY_BYTES}); it is never used`,
          );
          return null;
        }
        return memory ? memory.importedKey(kid, String(stored), () => importKey(bytes)) : importKey(bytes);
      })();
      memo.set(kid, pending);
    }
    return pending;
  }

  // The seed is revealed after a sale; were it a token key, anyone could then sign tokens with it.
  // An invite key's holder may make invites, never room tokens.
  const tokenKey = (kid: string): Promise<CryptoKey | null> => (isTokenKid(kid) ? load(kid) : Promise.resolve(null));

  return {
    async signingKey(activeKid) {
      const key = await tokenKey(activeKid);
      if (key === null && !reportedMissing.has(activeKid)) {
        reportedMissing.add(activeKid);
        diag(`active_key "${activeKid}" has no usable key in waiting_room_keys; no new tokens can be issued`);
      }
      return key;
    },
    verifyingKey: tokenKey,
    eventSeed: () => load(EVENT_SEED_ID, seedKey),
    // Token kids never start with `invite.`, so this item name is never also loaded as a token key.
    inviteKey: (kid) => (kid === '' ? Promise.resolve(null) : load(INVITE_KID_PREFIX + kid, inviteHmacKey)),
  };
}
