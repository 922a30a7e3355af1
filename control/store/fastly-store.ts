// The controller's store on Fastly, never blocking its event loop. With the user's token in
// FASTLY_API_TOKEN it calls the API itself: a read is `GET /resources/stores/config/{id}/items` (each
// page one call), a write every room's keys in ONE call of the bulk update (`PATCH .../items`).
// Without a token it runs the Fastly CLI as an async child process: a read is one
// `config-store-entry list`, a write one `config-store-entry update` per key. The store's id comes
// from the service's resource links, through the CLI, once. A delete goes only for a key the store
// holds (as last read): the API refuses the others, and the whole bulk call with them. Every call has
// a 30 s timeout; every call is reported as it ends (api-budget.ts counts it, journal.ts writes it
// down); an answer of the wrong shape is refused, naming what was expected, so the controller keeps
// the values it had.
import {
  fastlyRunnerAsync,
  describeJson,
  resolveStoreIdAsync,
  storeItems,
  parseStoreList,
  type AsyncFastlyRunner,
} from '../../lib/fastly-cli.js';
import { type ApiClient, fastlyRequest, storeCall as call } from './fastly-request.js';
import { CONFIG_STORE } from '../../src/fastly/names.js';
import { ApiError, callKind, cliRateLimited, DEFAULT_READ_EVERY_MS, type CallReporter } from './api-budget.js';
import type { Store } from './writer.js';

/** Every API call is given this long, ms. */
export const API_TIMEOUT_MS = 30_000;
/** Items asked for a page of a read (the store holds at most 500). */
export const READ_PAGE_LIMIT = 500;

export interface FastlyStoreOptions {
  serviceId: string;
  storeId?: string;
  dryRun: boolean;
  /** The user's API token; null: the CLI, key by key. */
  token: string | null;
  /** The API's base URL (default https://api.fastly.com). */
  endpoint?: string;
  /** The CLI (tests pass a fake); reads and the store id's lookup run it even on a dry run: they change nothing. */
  runner?: AsyncFastlyRunner;
  fetch?: typeof fetch;
  /** Read the settings at most this often, ms (`--read-every`, default 60 s). */
  readEveryMs?: number;
  timeoutMs?: number;
  /** Every call as it ends. */
  report?: CallReporter;
  log: (message: string) => void;
}

/** The bulk update's body: an upsert per value, a delete per '' (a removed key). */
export function bulkItems(values: Readonly<Record<string, string>>): {
  items: Array<{ op: 'upsert' | 'delete'; item_key: string; item_value?: string }>;
} {
  return {
    items: Object.entries(values).map(([key, value]) =>
      value === '' ? { op: 'delete', item_key: key } : { op: 'upsert', item_key: key, item_value: value },
    ),
  };
}

export { callKind };

/** A failed CLI call as an ApiError: a 429 becomes one (so the budget backs off), anything else an unknown outcome. */
function cliError(error: unknown): ApiError {
  const message = (error as Error)?.message ?? String(error);
  return cliRateLimited(message) ? new ApiError(message, 429, false) : new ApiError(message, null, true);
}

/** What is wrong with a page of the items' list, or null. */
const wrongList = (json: unknown): string | null => {
  try {
    storeItems(json);
    return null;
  } catch (error) {
    return (error as Error).message.replace(/^could not read the Config Store's items: /, '');
  }
};

/** The cursor of the next page of a list of items, or null on the last. */
function nextCursor(json: unknown): string | null {
  const meta =
    json !== null && typeof json === 'object' && !Array.isArray(json)
      ? (json as { meta?: { next_cursor?: unknown } }).meta
      : undefined;
  const next = meta?.next_cursor;
  return typeof next !== 'string' || next === '' ? null : next;
}

export function fastlyStore(o: FastlyStoreOptions): Store {
  const s = new ConfigStoreClient(o);
  return {
    name: `Fastly service ${o.serviceId}`,
    readEveryMs: o.readEveryMs ?? DEFAULT_READ_EVERY_MS,
    callsFor: (values) => s.callsFor(values),
    read: () => s.read(),
    write: (values) => s.write(values),
  };
}

/** The service's Config Store, through the API with a token, else through the Fastly CLI. */
class ConfigStoreClient {
  private readonly reader: AsyncFastlyRunner;
  private readonly writer: AsyncFastlyRunner;
  private readonly report: CallReporter;
  /** The API with the user's token; null: the CLI. */
  private readonly api: ApiClient | null;
  private id: string | undefined;
  /**
   * The keys the store holds, as last read and changed by this store's writes since (null before the
   * first read). The API refuses a delete of a key the store lacks (404, the whole bulk call with it),
   * and the model clears a setting with '' whether or not its key exists (a room that opens drops an
   * allow_schedule it may never have written): only deletes of keys held are sent.
   */
  private held: Set<string> | null = null;

  constructor(private readonly o: FastlyStoreOptions) {
    this.reader = o.runner ?? fastlyRunnerAsync(false, (l) => o.log(l));
    this.writer = o.runner ?? (o.dryRun ? fastlyRunnerAsync(true, (l) => o.log(l)) : this.reader);
    this.report = o.report ?? (() => {});
    this.id = o.storeId;
    this.api =
      o.token === null
        ? null
        : {
            endpoint: (o.endpoint ?? 'https://api.fastly.com').replace(/\/+$/, ''),
            token: o.token,
            fetch: o.fetch ?? fetch,
            timeoutMs: o.timeoutMs ?? API_TIMEOUT_MS,
            report: this.report,
          };
  }

  private sendable(values: Readonly<Record<string, string>>): Record<string, string> {
    const held = this.held;
    return held === null
      ? { ...values }
      : Object.fromEntries(Object.entries(values).filter(([key, value]) => value !== '' || held.has(key)));
  }

  private wrote(values: Readonly<Record<string, string>>): void {
    for (const [key, value] of Object.entries(values)) {
      if (value === '') this.held?.delete(key);
      else this.held?.add(key);
    }
  }

  callsFor(values: Record<string, string>): number {
    const n = Object.keys(this.sendable(values)).length;
    return this.api === null ? n : Math.min(1, n);
  }

  private async storeId(): Promise<string> {
    if (this.id !== undefined) return this.id;
    try {
      this.id = await resolveStoreIdAsync(this.reader, this.o.serviceId, CONFIG_STORE);
      // The CLI finds the active version, then lists its links: two API calls.
      this.report(call('read', { calls: 2 }));
      return this.id;
    } catch (error) {
      // Counted as both calls (whether the CLI got to the second is unknown); a 429 it names backs the budget off.
      const e = cliError(error);
      this.report(call('read', { calls: 2, ok: false, status: e.status, error: e.message }));
      throw e;
    }
  }

  async read(): Promise<Record<string, string>> {
    const sid = await this.storeId();
    const values = this.api === null ? await this.readCli(sid) : await this.readApi(this.api, sid);
    this.held = new Set(Object.keys(values));
    return values;
  }

  private async readCli(sid: string): Promise<Record<string, string>> {
    try {
      const out = await this.reader.run(['config-store-entry', 'list', '--store-id', sid, '--json']);
      const values = out === null ? {} : parseStoreList(out);
      this.report(call('read'));
      return values;
    } catch (error) {
      const e = cliError(error);
      this.report(call('read', { ok: false, status: e.status, error: e.message }));
      throw e;
    }
  }

  private async readApi(api: ApiClient, sid: string): Promise<Record<string, string>> {
    const values: Record<string, string> = {};
    const base = `${api.endpoint}/resources/stores/config/${encodeURIComponent(sid)}/items?limit=${READ_PAGE_LIMIT}`;
    let cursor: string | null = null;
    // Each page is one call; the store's 500 items fit in one at this limit.
    for (let page = 0; page < 100; page++) {
      const url = cursor === null ? base : `${base}&cursor=${encodeURIComponent(cursor)}`;
      const json = await fastlyRequest(api, { kind: 'read', method: 'GET', url, body: null, wrong: wrongList });
      Object.assign(values, storeItems(json));
      cursor = nextCursor(json);
      if (cursor === null) return values;
    }
    throw new ApiError(
      'the Fastly API gave more than 100 pages of Config Store items (it holds at most 500): refusing the read',
      200,
      true,
    );
  }

  async write(asked: Record<string, string>): Promise<void> {
    const values = this.sendable(asked);
    // Nothing left to change (only deletes of keys the store lacks): no call.
    if (Object.keys(values).length === 0) return;
    const sid = await this.storeId();
    if (this.api === null) return this.writeCli(sid, values);
    return this.writeApi(this.api, sid, values);
  }

  /** The CLI changes one item a call. */
  private async writeCli(sid: string, values: Record<string, string>): Promise<void> {
    for (const [key, value] of Object.entries(values)) {
      const args =
        value === ''
          ? ['config-store-entry', 'delete', '--store-id', sid, '--key', key]
          : ['config-store-entry', 'update', '--upsert', '--store-id', sid, '--key', key, '--value', value];
      const one = { keys: [key], values: { [key]: value } };
      try {
        await this.writer.run(args);
        if (!this.writer.dryRun) {
          this.report(call(callKind([key]), one));
          this.wrote({ [key]: value });
        }
      } catch (error) {
        const e = cliError(error);
        this.report(call(callKind([key]), { ok: false, status: e.status, ...one, error: e.message }));
        throw e;
      }
    }
  }

  /** Every key in one call of the bulk update. */
  private async writeApi(api: ApiClient, sid: string, values: Record<string, string>): Promise<void> {
    const keys = Object.keys(values);
    const url = `${api.endpoint}/resources/stores/config/${encodeURIComponent(sid)}/items`;
    const body = JSON.stringify(bulkItems(values));
    if (this.o.dryRun) {
      this.o.log(`would PATCH ${url} ${body}`);
      return;
    }
    // The bulk update answers {"status":"ok"}: anything else, and nobody knows what was applied.
    const wrong = (json: unknown): string | null =>
      (json as { status?: unknown } | null)?.status === 'ok'
        ? null
        : `expected {"status":"ok"}, got ${describeJson(json)}: what it applied is unknown`;
    await fastlyRequest(api, { kind: callKind(keys), method: 'PATCH', url, body, wrong, keys, values });
    this.wrote(values);
  }
}
