// Config Stores as Fastly's API keeps them: named stores of string items, with the limits a real
// store has (values of at most 8,000 characters, keys of at most 255, at most 500 items a store).
// Every operation returns what the API answers: a status and a JSON body in Fastly's shapes (items
// `{store_id, item_key, item_value, created_at, updated_at, deleted_at}`, errors `{msg, detail}`).
import { randomBytes } from 'node:crypto';

export const MAX_VALUE_CHARS = 8000;
export const MAX_KEY_CHARS = 255;
export const MAX_ENTRIES = 500;
/** The most operations one batch (PATCH .../items) may carry (go-fastly's BatchModifyMaximumOperations). */
export const MAX_BATCH_OPERATIONS = 1000;

export interface Answer {
  status: number;
  body: unknown;
}

interface Item {
  value: string;
  created: string;
  updated: string;
}

export interface ConfigStore {
  id: string;
  name: string;
  created: string;
  items: Map<string, Item>;
}

/** Fastly's time format: seconds, UTC, no fraction. */
export const apiTime = (ms: number): string =>
  new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/** An id shaped like Fastly's: 22 letters and digits. */
export function newId(): string {
  return randomBytes(24)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 22)
    .padEnd(22, '0');
}

export const apiError = (status: number, msg: string, detail?: string): Answer => ({
  status,
  body: detail === undefined ? { msg } : { msg, detail },
});
const notFound = (): Answer => apiError(404, 'Record not found');

export class ConfigStores {
  readonly byId = new Map<string, ConfigStore>();

  constructor(private readonly now: () => number) {}

  create(name: string, id: string = newId()): ConfigStore {
    if (this.byId.has(id)) throw new Error(`a Config Store with id ${id} exists already`);
    const store: ConfigStore = { id, name, created: apiTime(this.now()), items: new Map() };
    this.byId.set(id, store);
    return store;
  }

  /** The store's items as a plain object, key -> value (for tests and a seeded service). */
  values(id: string): Record<string, string> {
    const store = this.byId.get(id);
    if (store === undefined) throw new Error(`no Config Store ${id}`);
    return Object.fromEntries([...store.items].map(([k, v]) => [k, v.value]));
  }

  /** Sets items directly, without the API's checks: a seed may hold what a real store could not. */
  seed(id: string, values: Record<string, string>): void {
    const store = this.byId.get(id);
    if (store === undefined) throw new Error(`no Config Store ${id}`);
    const t = apiTime(this.now());
    for (const [key, value] of Object.entries(values)) store.items.set(key, { value, created: t, updated: t });
  }

  storeJson(s: ConfigStore): Record<string, unknown> {
    return { name: s.name, id: s.id, created_at: s.created, updated_at: s.created, deleted_at: null };
  }

  private itemJson(s: ConfigStore, key: string, item: Item): Record<string, unknown> {
    return {
      item_key: key,
      item_value: item.value,
      created_at: item.created,
      updated_at: item.updated,
      deleted_at: null,
      store_id: s.id,
    };
  }

  // ---- stores ----

  list(name?: string): Answer {
    const stores = [...this.byId.values()].filter((s) => name === undefined || s.name === name);
    return { status: 200, body: stores.map((s) => this.storeJson(s)) };
  }

  describe(id: string): Answer {
    const s = this.byId.get(id);
    return s === undefined ? notFound() : { status: 200, body: this.storeJson(s) };
  }

  info(id: string): Answer {
    const s = this.byId.get(id);
    return s === undefined ? notFound() : { status: 200, body: { item_count: s.items.size } };
  }

  createStore(name: string | undefined): Answer {
    if (name === undefined || name === '') return apiError(400, 'Bad request', 'name is required');
    return { status: 200, body: this.storeJson(this.create(name)) };
  }

  // ---- items ----

  listItems(id: string): Answer {
    const s = this.byId.get(id);
    if (s === undefined) return notFound();
    return { status: 200, body: [...s.items].map(([k, v]) => this.itemJson(s, k, v)) };
  }

  getItem(id: string, key: string): Answer {
    const s = this.byId.get(id);
    const item = s?.items.get(key);
    return s === undefined || item === undefined ? notFound() : { status: 200, body: this.itemJson(s, key, item) };
  }

  /**
   * Sets one item. `mode`: 'create' (POST .../item: refused if it exists), 'update' (PATCH: refused if
   * it does not), 'upsert' (PUT).
   */
  setItem(
    id: string,
    key: string | undefined,
    value: string | undefined,
    mode: 'create' | 'update' | 'upsert',
  ): Answer {
    const s = this.byId.get(id);
    if (s === undefined) return notFound();
    const problem = this.check(s, [{ key, value, op: mode }]);
    if (problem !== null) return problem;
    const item = this.put(s, key!, value!);
    return { status: 200, body: this.itemJson(s, key!, item) };
  }

  deleteItem(id: string, key: string): Answer {
    const s = this.byId.get(id);
    if (s === undefined || !s.items.delete(key)) return notFound();
    return { status: 200, body: { status: 'ok' } };
  }

  /**
   * `PATCH /resources/stores/config/{id}/items` with `{items: [{op, item_key, item_value}]}`: every
   * operation is checked first and none is applied unless all pass.
   */
  batch(id: string, body: unknown): Answer {
    const s = this.byId.get(id);
    if (s === undefined) return notFound();
    const items = (body as { items?: unknown } | null)?.items;
    if (!Array.isArray(items))
      return apiError(400, 'Bad request', 'the body must be {"items": [{"op", "item_key", "item_value"}, ...]}');
    if (items.length > MAX_BATCH_OPERATIONS)
      return apiError(
        400,
        'Bad request',
        `at most ${MAX_BATCH_OPERATIONS} operations a batch; this one has ${items.length}`,
      );
    const ops = items.map((raw) => {
      const r = (raw ?? {}) as Record<string, unknown>;
      return {
        op: r.op as string,
        key: typeof r.item_key === 'string' ? r.item_key : undefined,
        value: typeof r.item_value === 'string' ? r.item_value : undefined,
      };
    });
    const problem = this.check(s, ops);
    if (problem !== null) return problem;
    for (const o of ops) {
      if (o.op === 'delete') s.items.delete(o.key!);
      else this.put(s, o.key!, o.value!);
    }
    return { status: 200, body: { status: 'ok' } };
  }

  private put(s: ConfigStore, key: string, value: string): Item {
    const t = apiTime(this.now());
    const item = { value, created: s.items.get(key)?.created ?? t, updated: t };
    s.items.set(key, item);
    return item;
  }

  /** The first operation that would break a rule or a limit, as the API's 400/404, or null. */
  private check(
    s: ConfigStore,
    ops: { op: string; key: string | undefined; value: string | undefined }[],
  ): Answer | null {
    const keys = new Set(s.items.keys());
    for (const [n, { op, key, value }] of ops.entries()) {
      const where = ops.length > 1 ? `operation ${n + 1}: ` : '';
      if (!['create', 'update', 'upsert', 'delete'].includes(op))
        return apiError(
          400,
          'Bad request',
          `${where}op must be create, update, upsert or delete, not ${JSON.stringify(op)}`,
        );
      if (key === undefined || key === '') return apiError(400, 'Bad request', `${where}item_key is required`);
      if (key.length > MAX_KEY_CHARS)
        return apiError(
          400,
          'Bad request',
          `${where}item_key is ${key.length} characters; a Config Store key may have at most ${MAX_KEY_CHARS}`,
        );
      if (op === 'delete') {
        if (!keys.delete(key)) return apiError(404, 'Record not found', `${where}no item ${key}`);
        continue;
      }
      if (value === undefined) return apiError(400, 'Bad request', `${where}item_value is required`);
      if (value.length > MAX_VALUE_CHARS) {
        return apiError(
          400,
          'Bad request',
          `${where}item_value of ${key} is ${value.length} characters; a Config Store value may have at most ${MAX_VALUE_CHARS}`,
        );
      }
      if (op === 'create' && keys.has(key))
        return apiError(409, 'Duplicate record', `${where}item ${key} exists already`);
      if (op === 'update' && !keys.has(key)) return apiError(404, 'Record not found', `${where}no item ${key}`);
      keys.add(key);
      if (keys.size > MAX_ENTRIES) {
        return apiError(
          400,
          'Bad request',
          `${where}store ${s.id} holds ${MAX_ENTRIES} items, the most a Config Store may hold; ${key} would be one more`,
        );
      }
    }
    return null;
  }
}
