// The controller's store on Fastly: reads through the Fastly CLI (`config-store-entry list`, one API
// call), writes every room's keys in ONE call of the API's bulk update
// (PATCH /resources/stores/config/{id}/items), since the CLI updates one key per call. The bulk call
// needs the user's token in FASTLY_API_TOKEN (FASTLY_API_ENDPOINT moves the API, as for the CLI);
// without it the writer falls back to the CLI, one call per key, and says so.
import { fastlyRunner, parseStoreList, resolveStoreId, writeServiceValues, type FastlyRunner } from '../lib/fastly-cli.js';
import { CONFIG_STORE } from '../src/fastly/names.js';
import type { Store } from './writer.js';

/** How often the controller reads the store on Fastly: each read is an API call (240 an hour). */
export const FASTLY_READ_EVERY_MS = 15_000;

export interface FastlyStoreOptions {
  serviceId: string;
  storeId?: string;
  dryRun: boolean;
  /** The user's API token; null: write through the CLI, key by key. */
  token: string | null;
  /** The API's base URL (default https://api.fastly.com). */
  endpoint?: string;
  runner?: FastlyRunner;
  fetch?: typeof fetch;
  log: (message: string) => void;
}

/** The bulk update's body: an upsert per value, a delete per '' (a removed key). */
export function bulkItems(values: Readonly<Record<string, string>>): { items: Array<{ op: 'upsert' | 'delete'; item_key: string; item_value?: string }> } {
  return {
    items: Object.entries(values).map(([key, value]) => (value === '' ? { op: 'delete', item_key: key } : { op: 'upsert', item_key: key, item_value: value })),
  };
}

export function fastlyStore(o: FastlyStoreOptions): Store {
  const runner = o.runner ?? fastlyRunner(o.dryRun, (l) => o.log(l));
  const endpoint = (o.endpoint ?? 'https://api.fastly.com').replace(/\/+$/, '');
  const doFetch = o.fetch ?? fetch;
  let id = o.storeId;
  const storeIdNow = (): string => (id ??= resolveStoreId(runner, o.serviceId, CONFIG_STORE));
  return {
    name: `Fastly service ${o.serviceId}`,
    readEveryMs: FASTLY_READ_EVERY_MS,
    callsFor: (values) => (o.token === null ? Object.keys(values).length : 1),
    async read() {
      const out = runner.run(['config-store-entry', 'list', '--store-id', storeIdNow(), '--json']);
      return out === null ? {} : parseStoreList(out);
    },
    async write(values) {
      if (o.token === null) {
        writeServiceValues(runner, storeIdNow(), values);
        return;
      }
      const url = `${endpoint}/resources/stores/config/${encodeURIComponent(storeIdNow())}/items`;
      const body = JSON.stringify(bulkItems(values));
      if (o.dryRun) {
        o.log(`would PATCH ${url} ${body}`);
        return;
      }
      const res = await doFetch(url, {
        method: 'PATCH',
        headers: { 'fastly-key': o.token, 'content-type': 'application/json', accept: 'application/json' },
        body,
        signal: AbortSignal.timeout(30_000),
      });
      if (!res.ok) {
        const text = (await res.text().catch(() => '')).slice(0, 200).trim();
        const hint = res.status === 401 || res.status === 403 ? ': check FASTLY_API_TOKEN (a token with write access to the service)' : res.status === 429 ? ': the API rate limit; lower --write-budget' : '';
        throw new Error(`the Fastly API answered ${res.status}${text === '' ? '' : ` (${text})`}${hint}`);
      }
    },
  };
}
