// The sandbox's memory: every table the room keeps between requests, each declared here with the
// kind that says why it may be kept (index.ts states the rules once). The handler's own entries
// (settings, keys, tokens, identity hashes) have methods of their own below, because each is checked
// against what the request read before it is answered; the pure functions' memos (compiled messages,
// worded text, parsed templates...) are plain tables their modules declare through table().
import type { RememberedToken, SandboxCache } from '../types.js';
import { Bounded, PerObject } from './bounded.js';

/**
 * What an entry follows from, which says how long it may be kept:
 * - `stored`: values the request re-reads from the stores; checked against them, forgotten after a failure;
 * - `derived`: nothing but its key (the text, or the object, it is worked out from);
 * - `service`: the service's version (its stores, log endpoints, ACLs and counters).
 */
export type MemoryKind = 'stored' | 'derived' | 'service';

/** A table as the memory lists it: for tests, the bench and `forget`. */
export interface KeptTable {
  kind: MemoryKind;
  name: string;
  /** Entries held; null for tables kept per object, which cannot be counted. */
  readonly size: number | null;
  clear(): void;
}

/** How many verified tokens and identity hashes a sandbox keeps, the oldest dropped first. */
export const MAX_REMEMBERED = 4096;

/** How many parses (the routing, one per room) a sandbox keeps: more rooms than any service has. */
export const MAX_PARSES = 256;

/** Every raw value reads as it did. A plain loop: this runs on every request of a reused sandbox. */
function unchanged(kept: readonly (string | null)[], now: readonly (string | null)[]): boolean {
  if (kept.length !== now.length) return false;
  for (let i = 0; i < kept.length; i++) if (kept[i] !== now[i]) return false;
  return true;
}

export class SandboxMemory implements SandboxCache {
  private readonly tables: {
    kind: MemoryKind;
    name: string;
    table: Bounded<never, unknown> | PerObject<never, never, unknown>;
  }[] = [];
  private readonly parses = this.table<string, { raws: readonly (string | null)[]; parsed: unknown }>(
    'stored',
    'settings, routing and strings as parsed',
    MAX_PARSES,
  );
  // As many as the key store holds: a kid is kept only once the store had text for it.
  private readonly keys = this.table<string, { raw: string; key: Promise<CryptoKey> }>(
    'stored',
    'imported keys',
    Number.POSITIVE_INFINITY,
  );
  private readonly tokens = this.table<string, RememberedToken>('stored', 'verified tokens', MAX_REMEMBERED);
  private readonly hashes = this.perObject<CryptoKey, string, string>('stored', 'identity hashes', MAX_REMEMBERED);
  // As many as the room has diagnostics about the service: a handful.
  private readonly told = this.table<string, true>('service', 'diagnostics said', Number.POSITIVE_INFINITY);

  /** A table of this memory, declared once by the module that fills it, at most `max` entries. */
  table<K, V>(kind: MemoryKind, name: string, max: number): Bounded<K, V> {
    const table = new Bounded<K, V>(max);
    this.tables.push({ kind, name, table: table as unknown as Bounded<never, unknown> });
    return table;
  }

  /** Tables kept per object (at most `max` entries each): the entries go when the object does. */
  perObject<O extends object, K, V>(kind: MemoryKind, name: string, max: number): PerObject<O, K, V> {
    const table = new PerObject<O, K, V>(max);
    this.tables.push({ kind, name, table: table as unknown as PerObject<never, never, unknown> });
    return table;
  }

  /** Every table, in the order declared. */
  kept(): KeptTable[] {
    return this.tables.map(({ kind, name, table }) => ({
      kind,
      name,
      get size() {
        return table.size;
      },
      clear: () => table.clear(),
    }));
  }

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
    const table = this.hashes.of(key);
    const kept = table.get(identity);
    if (kept !== undefined) return Promise.resolve(kept);
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
    if (this.told.get(what) !== undefined) return false;
    this.told.set(what, true);
    return true;
  }

  /**
   * Drops what follows from the stores: after an unexpected failure, the next request reads and
   * works out everything as a fresh sandbox would. What follows from its key alone, or from the
   * service's version, is right whatever failed, and stays.
   */
  forget(): void {
    for (const { kind, table } of this.tables) if (kind === 'stored') table.clear();
  }

  /** Entries kept, for tests and the bench. */
  get size(): { tokens: number; keys: number; parses: number } {
    return { tokens: this.tokens.size, keys: this.keys.size, parses: this.parses.size };
  }
}

/**
 * This sandbox's memory. A sandbox instantiates the module once and serves all its requests from it,
 * so one instance per module is one per sandbox; the build-time warm-up (src/core/warm.ts) fills its
 * derived tables before js-compute snapshots the module, and every request starts from that snapshot.
 */
export const sandboxMemory = new SandboxMemory();
