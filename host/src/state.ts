// State shared by every request, kept in the main thread: KV stores and the edge rate limiter.
import type { KvSeedEntry } from './config.js';
import type { ErlOp, KvOp, KvResult } from './protocol.js';

interface KvEntry {
  value: Uint8Array;
  metadata?: string;
  generation: bigint;
  expiresAt?: number;
}

const KV_MODE_ADD = 1;
const KV_MODE_APPEND = 2;
const KV_MODE_PREPEND = 3;
const KV_LIST_DEFAULT_LIMIT = 1000;

export class KvStores {
  private readonly stores = new Map<string, Map<string, KvEntry>>();
  private generation = 0n;

  constructor(private readonly now: () => number = Date.now) {}

  /** (Re)applies seed data from fastly.toml: seeded keys take the file's value, others stay. */
  seed(seeds: Record<string, Record<string, KvSeedEntry>>): void {
    for (const [name, entries] of Object.entries(seeds)) {
      let store = this.stores.get(name);
      if (!store) {
        store = new Map();
        this.stores.set(name, store);
      }
      for (const [key, e] of Object.entries(entries)) {
        const entry: KvEntry = { value: e.value, generation: ++this.generation };
        if (e.metadata !== undefined) entry.metadata = e.metadata;
        store.set(key, entry);
      }
    }
  }

  private live(store: Map<string, KvEntry>, key: string): KvEntry | undefined {
    const e = store.get(key);
    if (e?.expiresAt !== undefined && e.expiresAt <= this.now()) {
      store.delete(key);
      return undefined;
    }
    return e;
  }

  run(op: KvOp): KvResult {
    const store = this.stores.get(op.store);
    if (!store) return { status: 'no_store' };
    switch (op.kind) {
      case 'exists':
        return { status: 'ok' };
      case 'lookup': {
        const e = this.live(store, op.key);
        if (!e) return { status: 'not_found' };
        const r: KvResult = { status: 'ok', value: e.value, generation: e.generation };
        if (e.metadata !== undefined) r.metadata = e.metadata;
        return r;
      }
      case 'insert': {
        if (op.key === '' || op.key.length > 1024) return { status: 'bad_request' };
        const prev = this.live(store, op.key);
        if (op.mode === KV_MODE_ADD && prev) return { status: 'precondition_failed' };
        if (op.ifGenerationMatch !== undefined && prev?.generation !== op.ifGenerationMatch) {
          return { status: 'precondition_failed' };
        }
        let value = op.value;
        if (prev && op.mode === KV_MODE_APPEND) value = Buffer.concat([prev.value, op.value]);
        if (prev && op.mode === KV_MODE_PREPEND) value = Buffer.concat([op.value, prev.value]);
        const entry: KvEntry = { value, generation: ++this.generation };
        const metadata = op.metadata ?? (op.mode === KV_MODE_APPEND || op.mode === KV_MODE_PREPEND ? prev?.metadata : undefined);
        if (metadata !== undefined) entry.metadata = metadata;
        if (op.ttlSec) entry.expiresAt = this.now() + op.ttlSec * 1000;
        store.set(op.key, entry);
        return { status: 'ok', generation: entry.generation };
      }
      case 'delete':
        store.delete(op.key);
        return { status: 'ok' };
      case 'list': {
        const limit = op.limit && op.limit > 0 ? op.limit : KV_LIST_DEFAULT_LIMIT;
        const after = op.cursor ? Buffer.from(op.cursor, 'base64url').toString('utf8') : undefined;
        const keys = [...store.keys()]
          .filter((k) => this.live(store, k))
          .filter((k) => !op.prefix || k.startsWith(op.prefix))
          .sort()
          .filter((k) => after === undefined || k > after);
        const page = keys.slice(0, limit);
        const meta: Record<string, unknown> = { limit };
        if (op.prefix) meta.prefix = op.prefix;
        if (keys.length > page.length) meta.next_cursor = Buffer.from(page.at(-1) ?? '').toString('base64url');
        return { status: 'ok', body: Buffer.from(JSON.stringify({ data: page, meta })) };
      }
    }
  }
}

/**
 * Fastly's edge rate limiter in memory: per-second buckets for rate counters and expiry times
 * for penalty boxes. Rates are counts per second averaged over the asked window.
 */
export class RateLimiter {
  private readonly counters = new Map<string, Map<number, number>>();
  private readonly boxes = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  private second(): number {
    return Math.floor(this.now() / 1000);
  }

  private increment(rc: string, entry: string, delta: number): void {
    const key = `${rc}\0${entry}`;
    let buckets = this.counters.get(key);
    if (!buckets) {
      buckets = new Map();
      this.counters.set(key, buckets);
    }
    const sec = this.second();
    buckets.set(sec, (buckets.get(sec) ?? 0) + delta);
    for (const s of buckets.keys()) if (s < sec - 120) buckets.delete(s);
  }

  private sum(rc: string, entry: string, seconds: number): number {
    const buckets = this.counters.get(`${rc}\0${entry}`);
    if (!buckets) return 0;
    const sec = this.second();
    let total = 0;
    for (const [s, n] of buckets) if (s > sec - seconds) total += n;
    return total;
  }

  private boxed(pb: string, entry: string): boolean {
    const key = `${pb}\0${entry}`;
    const until = this.boxes.get(key);
    if (until === undefined) return false;
    if (until <= this.now()) {
      this.boxes.delete(key);
      return false;
    }
    return true;
  }

  private box(pb: string, entry: string, ttlSec: number): void {
    // Fastly keeps entries whole minutes, between one minute and one hour.
    const ttl = Math.min(3600, Math.max(60, Math.floor(ttlSec / 60) * 60));
    this.boxes.set(`${pb}\0${entry}`, this.now() + ttl * 1000);
  }

  run(op: ErlOp): number {
    switch (op.kind) {
      case 'increment':
        this.increment(op.rc, op.entry, op.delta);
        return 0;
      case 'rate':
        return Math.floor(this.sum(op.rc, op.entry, op.window) / Math.max(1, op.window));
      case 'count':
        return this.sum(op.rc, op.entry, op.duration);
      case 'pbAdd':
        this.box(op.pb, op.entry, op.ttl);
        return 0;
      case 'pbHas':
        return this.boxed(op.pb, op.entry) ? 1 : 0;
      case 'check': {
        if (this.boxed(op.pb, op.entry)) return 1;
        this.increment(op.rc, op.entry, op.delta);
        const rate = this.sum(op.rc, op.entry, op.window) / Math.max(1, op.window);
        if (rate > op.limit) {
          this.box(op.pb, op.entry, op.ttl);
          return 1;
        }
        return 0;
      }
    }
  }
}
