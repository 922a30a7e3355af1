// One call of the Fastly API by the controller's store (fastly-store.ts): sent with the user's token
// and a timeout, reported once as it ends (the budget counts it, the journal writes it down), and
// refused with an ApiError naming what went wrong: no answer, a status that is not 2xx (with what an
// operator does about it), or an answer of the wrong shape.
import { describeJson } from '../../lib/fastly-cli.js';
import { ApiError, rateLimitOf, type CallKind, type CallReporter, type StoreCall } from './api-budget.js';

/** How the store reaches the API. */
export interface ApiClient {
  /** The API's base URL, without a trailing slash. */
  endpoint: string;
  token: string;
  fetch: typeof fetch;
  timeoutMs: number;
  report: CallReporter;
}

/** One call, with what it changes (for the journal). */
export interface ApiRequest {
  kind: CallKind;
  method: string;
  url: string;
  body: string | null;
  /** What is wrong with the answer's shape (null: nothing). */
  wrong: (json: unknown) => string | null;
  keys?: string[];
  values?: Record<string, string>;
}

/** A call as reported: successful unless `o` says otherwise. */
export const storeCall = (kind: CallKind, o: Partial<StoreCall> = {}): StoreCall => ({
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

/** The call's answer as JSON, reported once; throws an ApiError naming what went wrong. */
export async function fastlyRequest(api: ApiClient, r: ApiRequest): Promise<unknown> {
  const what = `${r.method} ${r.url.replace(api.endpoint, '')}`;
  const keys = r.keys ?? [];
  const res = await send(api, r, what);
  const limits = rateLimitOf(res.headers);
  const text = await res.text().catch(() => '');
  if (!res.ok) {
    const message = refusal(res.status, what, text);
    api.report(storeCall(r.kind, { ok: false, status: res.status, keys, values: r.values, error: message, ...limits }));
    throw new ApiError(message, res.status, res.status >= 500);
  }
  let json: unknown;
  let problem: string | null;
  try {
    json = JSON.parse(text);
    problem = r.wrong(json);
  } catch {
    problem = `not JSON: ${describeJson(text)}`;
  }
  if (problem !== null) {
    const message = `the Fastly API answered ${what} with ${res.status}, but ${problem}`;
    api.report(storeCall(r.kind, { ok: false, status: res.status, keys, values: r.values, error: message, ...limits }));
    // A write whose answer cannot be read may or may not have been applied.
    throw new ApiError(message, res.status, true);
  }
  api.report(storeCall(r.kind, { status: res.status, keys, values: r.values, ...limits }));
  return json;
}

/** The request sent; no answer at all (a timeout, no connection) is reported and thrown, its outcome unknown. */
async function send(api: ApiClient, r: ApiRequest, what: string): Promise<Response> {
  try {
    return await api.fetch(r.url, {
      method: r.method,
      headers: {
        'fastly-key': api.token,
        accept: 'application/json',
        ...(r.body === null ? {} : { 'content-type': 'application/json' }),
      },
      ...(r.body === null ? {} : { body: r.body }),
      signal: AbortSignal.timeout(api.timeoutMs),
    });
  } catch (error) {
    const e = error as Error;
    const why =
      e.name === 'TimeoutError' || e.name === 'AbortError'
        ? `did not answer within ${api.timeoutMs / 1000} s`
        : `could not be reached (${e.message})`;
    const message = `the Fastly API ${why} (${what})`;
    api.report(storeCall(r.kind, { ok: false, keys: r.keys ?? [], values: r.values, error: message }));
    throw new ApiError(message, null, true);
  }
}

/** A status that is not 2xx, as a sentence with what the operator does about it. */
function refusal(status: number, what: string, text: string): string {
  const detail = text.slice(0, 200).trim();
  const hint =
    status === 401 || status === 403
      ? ': check FASTLY_API_TOKEN (a token with access to the service)'
      : status === 429
        ? ': its rate limit is spent; the controller backs off until the reset and holds'
        : status >= 500
          ? ': a fault at Fastly, the change may or may not have been made'
          : '';
  return `the Fastly API answered ${status} to ${what}${detail === '' ? '' : ` (${detail})`}${hint}`;
}
