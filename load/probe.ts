// Before a run: does the room tell the virtual browsers apart? They all come from one address, so
// unless the room keys identity on the header they send, the room sees one visitor: every browser
// would hold the same token and win or lose together. Two requests with two header values settle it:
// a token's `sub` is a keyed hash of its identity, so two identities get two different subs.
import type { Send } from './browser.js';
import { CookieJar } from './jar.js';

export type ProbeResult =
  | { kind: 'distinct' }
  | { kind: 'same' }
  /** The room set no token (switched off, a bypassed path, no signing key): nothing to compare. */
  | { kind: 'unknown' }
  | { kind: 'unreachable'; cause: string };

function subOf(token: string | null): string | null {
  if (token === null) return null;
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      sub?: unknown;
    };
    return typeof claims.sub === 'string' ? claims.sub : null;
  } catch {
    return null;
  }
}

export async function probeIdentity(send: Send, tag: string, nowMs: () => number): Promise<ProbeResult> {
  const subs: (string | null)[] = [];
  for (const who of ['a', 'b']) {
    const jar = new CookieJar();
    try {
      const answer = await send({ path: '/', json: true, cookie: null, visitor: `probe-${tag}-${who}` });
      jar.store(answer.setCookies, nowMs());
    } catch (error) {
      return { kind: 'unreachable', cause: error instanceof Error ? error.message : String(error) };
    }
    subs.push(subOf(jar.roomToken(nowMs())));
  }
  if (subs[0] === null || subs[1] === null) return { kind: 'unknown' };
  return subs[0] === subs[1] ? { kind: 'same' } : { kind: 'distinct' };
}

/** `identity` as the room's parser would accept it for `header` (names are case-insensitive). */
export function identityKeysOn(setting: string | undefined, header: string): boolean {
  const m = /^header:(.*)$/i.exec((setting ?? '').trim());
  return m !== null && m[1]!.trim().toLowerCase() === header.toLowerCase();
}
