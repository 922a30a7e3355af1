// What the room may keep between the requests of one reused sandbox (Fastly's reusable sandboxes):
// only work whose answer follows from values it re-reads on every request. The parsed config is
// kept with the raw settings it was parsed from, an imported key with its raw stored text, and a
// verified token with the key object that verified it, so `npm run tune` and `npm run keys` take
// effect on the very next request. Nothing about a visitor decides anything by being remembered:
// each entry gives exactly what recomputing it would give. Without reuse (one request per
// instance) all of this is simply empty.
import { Bounded } from './bounded.js';
import type { RememberedToken, SandboxCache } from './types.js';

/** How many verified tokens and identity hashes a sandbox keeps, the oldest dropped first. */
export const MAX_REMEMBERED = 4096;

/** Every raw value reads as it did. A plain loop: this runs on every request of a reused sandbox. */
function unchanged(kept: readonly (string | null)[], now: readonly (string | null)[]): boolean {
  if (kept.length !== now.length) return false;
  for (let i = 0; i < kept.length; i++) if (kept[i] !== now[i]) return false;
  return true;
}

/** How many parses (the routing, one per room) a sandbox keeps: more rooms than any service has. */
export const MAX_PARSES = 256;

export class SandboxMemory implements SandboxCache {
  private readonly parses = new Bounded<string, { raws: readonly (string | null)[]; parsed: unknown }>(MAX_PARSES);
  private readonly keys = new Map<string, { raw: string; key: Promise<CryptoKey> }>();
  private readonly tokens = new Bounded<string, RememberedToken>(MAX_REMEMBERED);
  private hashes = new WeakMap<CryptoKey, Bounded<string, string>>();
  private readonly told = new Set<string>();

  /**
   * What `parse` made from `raws` under `slot`: the last parse of that slot while every raw value is
   * the same (each read once by the request, so a change takes effect on the very next request).
   */
  parsed<T>(slot: string, raws: readonly (string | null)[], parse: () => T): T {
    const kept = this.parses.get(slot);
    if (kept !== undefined && unchanged(kept.raws, raws)) return kept.parsed as T;
    const parsed = parse();
    this.parses.set(slot, { raws: raws.slice(), parsed });
    return parsed;
  }

  /** The key imported for `kid` when its stored text is still `raw`, else null. */
  keptKey(kid: string, raw: string): Promise<CryptoKey> | null {
    const kept = this.keys.get(kid);
    return kept !== undefined && kept.raw === raw ? kept.key : null;
  }

  /**
   * Imports `kid` from its stored text `raw` and keeps it for the next request, in place of a key
   * kept from other text (asked only after keptKey found none; its bytes are pinned, key-bytes.ts,
   * so the key stays whole across requests).
   */
  importedKey(kid: string, raw: string, importKey: () => Promise<CryptoKey>): Promise<CryptoKey> {
    const key = importKey();
    this.keys.set(kid, { raw, key });
    // A failed import is not kept: the next request tries again.
    key.catch(() => {
      if (this.keys.get(kid)?.key === key) this.keys.delete(kid);
    });
    return key;
  }

  /**
   * A token this sandbox verified before, if the key its kid names now is the very key object that
   * verified it (the same stored bytes) and the token has not expired. Expired or re-keyed entries go.
   */
  verifiedToken(
    token: string,
    nowSec: number,
    currentKey: (kid: string) => Promise<CryptoKey | null>,
  ): Promise<RememberedToken | null> | null {
    const kept = this.tokens.get(token);
    if (!kept) return null;
    if (kept.claims.exp <= nowSec) {
      this.tokens.delete(token);
      return null;
    }
    return currentKey(kept.kid).then((key) => {
      if (key === kept.key) return kept;
      this.tokens.delete(token);
      return null;
    });
  }

  rememberToken(token: string, verified: RememberedToken, nowSec: number): void {
    if (verified.claims.exp > nowSec) this.tokens.set(token, verified);
  }

  /** The identity hash under `key`, computed once per key object and identity. */
  identityHash(key: CryptoKey, identity: string, compute: () => Promise<string>): Promise<string> {
    let byIdentity = this.hashes.get(key);
    if (!byIdentity) {
      byIdentity = new Bounded(MAX_REMEMBERED);
      this.hashes.set(key, byIdentity);
    }
    const kept = byIdentity.get(identity);
    if (kept !== undefined) return Promise.resolve(kept);
    const table = byIdentity;
    return compute().then((hash) => {
      table.set(identity, hash);
      return hash;
    });
  }

  /**
   * True the first time this sandbox is told `what`, false after: for a diagnostic every request
   * would repeat, such as a store the service lacks (a service's stores are fixed for its version).
   * It decides nothing for a visitor, so forget() keeps it.
   */
  firstTime(what: string): boolean {
    if (this.told.has(what)) return false;
    this.told.add(what);
    return true;
  }

  /** Drops everything: after an unexpected failure, the next request starts as a fresh sandbox would. */
  forget(): void {
    this.parses.clear();
    this.keys.clear();
    this.tokens.clear();
    this.hashes = new WeakMap();
  }

  /** Entries kept, for tests and the bench. */
  get size(): { tokens: number; keys: number; parses: number } {
    return { tokens: this.tokens.size, keys: this.keys.size, parses: this.parses.size };
  }
}
