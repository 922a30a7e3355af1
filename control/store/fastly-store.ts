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
import { CONFIG_STORE } from '../../src/fastly/names.js';
import {
  ApiError,
  callKind,
  cliRateLimited,
  DEFAULT_READ_EVERY_MS,
  rateLimitOf,
  type CallKind,
  type CallReporter,
  type StoreCall,
} from './api-budget.js';
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

const call = (kind: CallKind, o: Partial<StoreCall> = {}): StoreCall => ({
  kind,
  calls: 1,
  ok: true,
  status: null,
  keys: [],
  remaining: null,
  resetMs: null,
  retryAfterMs: null,
  error: null,
  ...o,
});

export function fastlyStore(o: FastlyStoreOptions): Store {
  const reader = o.runner ?? fastlyRunnerAsync(false, (l) => o.log(l));
  const writer = o.runner ?? (o.dryRun ? fastlyRunnerAsync(true, (l) => o.log(l)) : reader);
  const endpoint = (o.endpoint ?? 'https://api.fastly.com').replace(/\/+$/, '');
  const doFetch = o.fetch ?? fetch;
  const timeoutMs = o.timeoutMs ?? API_TIMEOUT_MS;
  const report = o.report ?? (() => {});
  let id: string | undefined = o.storeId;
  /**
   * The keys the store holds, as last read and changed by this store's writes since (null before the
   * first read). The API refuses a delete of a key the store lacks (404, the whole bulk call with it),
   * and the model clears a setting with '' whether or not its key exists (a room that opens drops an
   * allow_schedule it may never have written): only deletes of keys held are sent.
   */
  let held: Set<string> | null = null;
  const sendable = (values: Readonly<Record<string, string>>): Record<string, string> =>
    held === null
      ? { ...values }
      : Object.fromEntries(Object.entries(values).filter(([key, value]) => value !== '' || held!.has(key)));
  const wrote = (values: Readonly<Record<string, string>>): void => {
    for (const [key, value] of Object.entries(values)) {
      if (value === '') held?.delete(key);
      else held?.add(key);
    }
  };

  async function storeId(): Promise<string> {
    if (id !== undefined) return id;
    try {
      id = await resolveStoreIdAsync(reader, o.serviceId, CONFIG_STORE);
      // The CLI finds the active version, then lists its links: two API calls.
      report(call('read', { calls: 2 }));
      return id;
    } catch (error) {
      // Counted as both calls (whether the CLI got to the second is unknown); a 429 it names backs the budget off.
      const e = cliError(error);
      report(call('read', { calls: 2, ok: false, status: e.status, error: e.message }));
      throw e;
    }
  }

  /**
   * One API call: its answer's JSON, reported once; throws an ApiError naming what went wrong.
   * `wrong` says what is wrong with the answer's shape (null: nothing).
   */
  async function api(
    kind: CallKind,
    method: string,
    url: string,
    body: string | null,
    wrong: (json: unknown) => string | null,
    keys: string[] = [],
    values?: Record<string, string>,
  ): Promise<unknown> {
    const what = `${method} ${url.replace(endpoint, '')}`;
    let res: Response;
    try {
      res = await doFetch(url, {
        method,
        headers: {
          'fastly-key': o.token!,
          accept: 'application/json',
          ...(body === null ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === null ? {} : { body }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const e = error as Error;
      const why =
        e.name === 'TimeoutError' || e.name === 'AbortError'
          ? `did not answer within ${timeoutMs / 1000} s`
          : `could not be reached (${e.message})`;
      const message = `the Fastly API ${why} (${what})`;
      report(call(kind, { ok: false, keys, values, error: message }));
      throw new ApiError(message, null, true);
    }
    const limits = rateLimitOf(res.headers);
    const text = await res.text().catch(() => '');
    if (!res.ok) {
      const detail = text.slice(0, 200).trim();
      const hint =
        res.status === 401 || res.status === 403
          ? ': check FASTLY_API_TOKEN (a token with access to the service)'
          : res.status === 429
            ? ': its rate limit is spent; the controller backs off until the reset and holds'
            : res.status >= 500
              ? ': a fault at Fastly, the change may or may not have been made'
              : '';
      const message = `the Fastly API answered ${res.status} to ${what}${detail === '' ? '' : ` (${detail})`}${hint}`;
      report(call(kind, { ok: false, status: res.status, keys, values, error: message, ...limits }));
      throw new ApiError(message, res.status, res.status >= 500);
    }
    let json: unknown;
    let problem: string | null;
    try {
      json = JSON.parse(text);
      problem = wrong(json);
    } catch {
      problem = `not JSON: ${describeJson(text)}`;
    }
    if (problem !== null) {
      const message = `the Fastly API answered ${what} with ${res.status}, but ${problem}`;
      report(call(kind, { ok: false, status: res.status, keys, values, error: message, ...limits }));
      // A write whose answer cannot be read may or may not have been applied.
      throw new ApiError(message, res.status, true);
    }
    report(call(kind, { status: res.status, keys, values, ...limits }));
    return json;
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

  return {
    name: `Fastly service ${o.serviceId}`,
    readEveryMs: o.readEveryMs ?? DEFAULT_READ_EVERY_MS,
    callsFor: (values) => {
      const n = Object.keys(sendable(values)).length;
      return o.token === null ? n : Math.min(1, n);
    },
    async read() {
      const sid = await storeId();
      if (o.token === null) {
        try {
          const out = await reader.run(['config-store-entry', 'list', '--store-id', sid, '--json']);
          const values = out === null ? {} : parseStoreList(out);
          report(call('read'));
          held = new Set(Object.keys(values));
          return values;
        } catch (error) {
          const e = cliError(error);
          report(call('read', { ok: false, status: e.status, error: e.message }));
          throw e;
        }
      }
      const values: Record<string, string> = {};
      const base = `${endpoint}/resources/stores/config/${encodeURIComponent(sid)}/items?limit=${READ_PAGE_LIMIT}`;
      let cursor: string | null = null;
      // Each page is one call; the store's 500 items fit in one at this limit.
      for (let page = 0; page < 100; page++) {
        const json = await api(
          'read',
          'GET',
          cursor === null ? base : `${base}&cursor=${encodeURIComponent(cursor)}`,
          null,
          wrongList,
        );
        Object.assign(values, storeItems(json));
        const meta =
          json !== null && typeof json === 'object' && !Array.isArray(json)
            ? (json as { meta?: { next_cursor?: unknown } }).meta
            : undefined;
        const next = meta?.next_cursor;
        if (typeof next !== 'string' || next === '') {
          held = new Set(Object.keys(values));
          return values;
        }
        cursor = next;
      }
      throw new ApiError(
        'the Fastly API gave more than 100 pages of Config Store items (it holds at most 500): refusing the read',
        200,
        true,
      );
    },
    async write(asked) {
      const values = sendable(asked);
      const keys = Object.keys(values);
      // Nothing left to change (only deletes of keys the store lacks): no call.
      if (keys.length === 0) return;
      const kind = callKind(keys);
      const sid = await storeId();
      if (o.token === null) {
        // The CLI changes one item a call.
        for (const [key, value] of Object.entries(values)) {
          const args =
            value === ''
              ? ['config-store-entry', 'delete', '--store-id', sid, '--key', key]
              : ['config-store-entry', 'update', '--upsert', '--store-id', sid, '--key', key, '--value', value];
          try {
            await writer.run(args);
            if (!writer.dryRun) {
              report(call(callKind([key]), { keys: [key], values: { [key]: value } }));
              wrote({ [key]: value });
            }
          } catch (error) {
            const e = cliError(error);
            report(
              call(callKind([key]), {
                ok: false,
                status: e.status,
                keys: [key],
                values: { [key]: value },
                error: e.message,
              }),
            );
            throw e;
          }
        }
        return;
      }
      const url = `${endpoint}/resources/stores/config/${encodeURIComponent(sid)}/items`;
      const body = JSON.stringify(bulkItems(values));
      if (o.dryRun) {
        o.log(`would PATCH ${url} ${body}`);
        return;
      }
      // The bulk update answers {"status":"ok"}: anything else, and nobody knows what was applied.
      await api(
        kind,
        'PATCH',
        url,
        body,
        (json) =>
          (json as { status?: unknown } | null)?.status === 'ok'
            ? null
            : `expected {"status":"ok"}, got ${describeJson(json)}: what it applied is unknown`,
        keys,
        values,
      );
      wrote(values);
    },
  };
}
