// The KV stores, kept in the main thread and shared by every request, in memory; seeded from the manifest.
import type { KvSeedEntry } from './manifest/kv-stores.js';
import type { KvOp, KvResult } from './protocol.js';

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
        const metadata =
          op.metadata ?? (op.mode === KV_MODE_APPEND || op.mode === KV_MODE_PREPEND ? prev?.metadata : undefined);
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
