// What the room may keep between the requests of one reused sandbox (Fastly's reusable sandboxes):
// only work whose answer follows from values it re-reads on every request. The parsed config is
// kept with the raw settings it was parsed from, an imported key with its raw stored text, and a
// verified token with the key object that verified it, so `npm run tune` and `npm run keys` take
// effect on the very next request. Nothing about a visitor decides anything by being remembered:
// each entry gives exactly what recomputing it would give. Without reuse (one request per
// instance) all of this is simply empty.
import type { ParsedSettings, RememberedToken, SandboxCache } from './types.js';

/** How many verified tokens and identity hashes a sandbox keeps, the oldest dropped first. */
export const MAX_REMEMBERED = 4096;

/** A Map that forgets its oldest entries past `max`. */
class Bounded<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly max: number) {}
  get(key: K): V | undefined {
    return this.map.get(key);
  }
  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as K);
  }
  delete(key: K): void {
    this.map.delete(key);
  }
  clear(): void {
    this.map.clear();
  }
  get size(): number {
    return this.map.size;
  }
}

/** Every setting reads as it did. A plain loop: this runs on every request of a reused sandbox. */
function unchanged(reads: Array<[key: string, value: string | null]>, read: (key: string) => string | null): boolean {
  for (let i = 0; i < reads.length; i++) {
    const entry = reads[i]!;
    if (read(entry[0]) !== entry[1]) return false;
  }
  return true;
}

export class SandboxMemory implements SandboxCache {
  private settings: { reads: Array<[key: string, value: string | null]>; parsed: ParsedSettings } | null = null;
  private readonly keys = new Map<string, { raw: string; key: Promise<CryptoKey> }>();
  private readonly tokens = new Bounded<string, RememberedToken>(MAX_REMEMBERED);
  private hashes = new WeakMap<CryptoKey, Bounded<string, string>>();
  private readonly told = new Set<string>();

  /**
   * The settings parsed from the store: the last parse when every setting it read has the same raw
   * value now (read again here, one store read each), else a new parse.
   */
  settingsFrom(read: (key: string) => string | null, parse: (read: (key: string) => string | null) => ParsedSettings): ParsedSettings {
    const kept = this.settings;
    if (kept && unchanged(kept.reads, read)) return kept.parsed;
    const reads: Array<[string, string | null]> = [];
    const parsed = parse((key) => {
      const value = read(key);
      reads.push([key, value]);
      return value;
    });
    this.settings = { reads, parsed };
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
  verifiedToken(token: string, nowSec: number, currentKey: (kid: string) => Promise<CryptoKey | null>): Promise<RememberedToken | null> | null {
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
    this.settings = null;
    this.keys.clear();
    this.tokens.clear();
    this.hashes = new WeakMap();
  }

  /** Entries kept, for tests and the bench. */
  get size(): { tokens: number; keys: number; settings: boolean } {
    return { tokens: this.tokens.size, keys: this.keys.size, settings: this.settings !== null };
  }
}
