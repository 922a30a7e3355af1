// What `npm run keys` checks and makes, whether the keys go to local/keys.json or to a service: a key's
// bytes, its id as Fastly accepts a secret's name, an invite key's store name, and the file's mode.
import { randomBytes } from 'node:crypto';
import { EVENT_SEED_ID, INVITE_KID_PREFIX } from '../src/core/tokens/index.js';

export const KEY_BYTES = 64;

export class KeyError extends Error {
  override name = 'KeyError';
}

export function newKey(): string {
  return randomBytes(KEY_BYTES).toString('base64');
}

/** How a printed command shows a new key piped to the Fastly CLI: the command that makes one as newKey does. */
export const NEW_KEY_COMMAND = `node -e "process.stdout.write(require('crypto').randomBytes(${KEY_BYTES}).toString('base64'))"`;

/** Secret names Fastly (and Viceroy) accept: letters, digits, `-`, `_`, `.`, at most 255 bytes. */
export function checkKid(kid: string | undefined): string {
  if (kid === undefined || kid === '') throw new KeyError('name the key id, e.g. key2');
  if (!/^[A-Za-z0-9_.-]{1,255}$/.test(kid)) {
    throw new KeyError(`key id "${kid}" may only hold letters, digits, "-", "_" and "." (at most 255)`);
  }
  if (kid === EVENT_SEED_ID)
    throw new KeyError(`"${EVENT_SEED_ID}" is the event seed's name (npm run event); the room never signs with it`);
  if (kid.startsWith(INVITE_KID_PREFIX)) {
    const id = kid.slice(INVITE_KID_PREFIX.length) || 'KID';
    throw new KeyError(
      `"${kid}" is an invite key's name; the room never signs tokens with it. Invite keys: npm run keys -- add-invite ${id} (or remove-invite ${id})`,
    );
  }
  return kid;
}

/** The store name of invite key `kid` (`invite.KID`), checked as Fastly checks a secret's name. */
export function inviteKeyName(kid: string | undefined): string {
  const id = kid ?? 'k1';
  if (id === '' || !/^[A-Za-z0-9_.-]+$/.test(id) || (INVITE_KID_PREFIX + id).length > 255) {
    throw new KeyError(
      `invite key id "${id}" may only hold letters, digits, "-", "_" and "." (at most ${255 - INVITE_KID_PREFIX.length})`,
    );
  }
  return INVITE_KID_PREFIX + id;
}

/** local/keys.json holds secrets: readable by its owner only. */
export const KEY_FILE_MODE = 0o600;

/** The two local files the keys' verbs read: the key file and the settings that name the active key. */
export interface LocalFiles {
  keys: string;
  config: string;
}
