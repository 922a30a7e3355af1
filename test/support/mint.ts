// Tokens as the room would issue them, for tests and benches that need one of a chosen shape
// (expired, foreign key, other identity). No page imports: bench/room.ts loads this under tsx.
import { identityHash } from '../../src/core/identity.js';
import { signToken } from '../../src/core/token.js';

export interface MintOptions {
  dec: 'wait' | 'allow';
  /** Expiry, whole seconds since the epoch. */
  exp: number;
  /** The identity as the core names it (`ip:127.0.0.1`, `header:alice`, `none`). */
  identity?: string;
  kid?: string;
  key?: Uint8Array;
}

/** Mints with `defaults` for whatever `options` leaves out. */
export async function mintToken(
  defaults: { key: Uint8Array; kid: string; identity: string },
  options: MintOptions,
): Promise<string> {
  const key = options.key ?? defaults.key;
  const sub = await identityHash(key, options.identity ?? defaults.identity);
  return signToken({ dec: options.dec, exp: options.exp, sub }, options.kid ?? defaults.kid, key);
}
