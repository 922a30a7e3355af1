// Faults on demand: the stand-in answers chosen calls as a failing Fastly would, so a test (or an
// operator trying a tool) sees what the tool does then. A fault names a method (or any) and a path
// (exact, or a pattern), how many calls it hits (or every one), and the answer: a status with
// Fastly's error body for it (`{"msg", "detail"}`; a 429 with the rate-limit headers a spent token
// gets), JSON of a shape no answer of that route has, text that is not JSON, or a delay long enough
// for a client to time out. `npm run fastly-api -- --fault SPEC` takes them as text (parseFault).

export interface Fault {
  /** Only this method (default: any). */
  method?: string;
  /** The path (without the query) exactly, or a pattern. */
  path: string | RegExp;
  /** Answer with this status (default 200 when `body` is given, else 503). */
  status?: number;
  /** Answer with this text instead of the route's JSON (e.g. JSON of the wrong shape). */
  body?: string;
  /** Wait this long before answering (a client with a shorter timeout gives up). */
  delayMs?: number;
  /** How many calls it hits (default: every one). */
  times?: number;
}

/** JSON no answer of the stand-in's routes has the shape of: neither a list, nor `{"data": [...]}`, nor `{"status": "ok"}`. */
export const WRONG_JSON = '{"fault":"an answer of the wrong shape"}';
/** An answer that is not JSON at all, as a proxy in the way might give. */
export const NOT_JSON = '<html><body>upstream answered something else</body></html>';

/** The first fault that hits this call (counting it down), or null. */
export function faultFor(faults: Fault[], method: string, pathname: string): Fault | null {
  for (const f of faults) {
    if (f.method !== undefined && f.method !== method) continue;
    if (typeof f.path === 'string' ? f.path !== pathname : !f.path.test(pathname)) continue;
    if (f.times !== undefined) {
      if (f.times <= 0) continue;
      f.times -= 1;
    }
    return f;
  }
  return null;
}

/** Fastly's error message for a status, as its API's `msg`. */
const MESSAGES: Record<number, string> = {
  400: 'Bad request',
  401: 'Provided credentials are missing or invalid',
  403: 'Forbidden',
  404: 'Record not found',
  409: 'Conflict',
  429: 'Too many requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/**
 * What a fault answers: its status, body and the headers on top of the rate-limit ones the call got.
 * A 429 says the token has no calls left until `reset` (epoch s) and when to try again, as Fastly's does.
 */
export function faultAnswer(
  f: Fault,
  nowMs: number,
  reset: number,
): { status: number; body: string; headers: Record<string, string> } {
  const status = f.status ?? (f.body === undefined ? 503 : 200);
  const headers: Record<string, string> = { 'Content-Type': f.body === NOT_JSON ? 'text/html' : 'application/json' };
  if (status === 429) {
    const wait = Math.max(0, reset - Math.floor(nowMs / 1000));
    Object.assign(headers, {
      'Fastly-RateLimit-Remaining': '0',
      'Fastly-RateLimit-Reset': String(reset),
      'Retry-After': String(wait),
    });
  }
  if (f.body !== undefined) return { status, body: f.body, headers };
  const msg = MESSAGES[status] ?? (status >= 500 ? 'Service Unavailable' : 'Bad request');
  const detail =
    status === 429
      ? `a fault asked of the stand-in: the limit resets in ${Math.max(0, reset - Math.floor(nowMs / 1000))} s (Fastly-RateLimit-Reset ${reset})`
      : 'a fault asked of the stand-in';
  return { status, body: JSON.stringify({ msg, detail }), headers };
}

export const FAULT_USAGE = `--fault "METHOD PATH ANSWER [COUNT]"  answer matching calls with a fault (repeat for more):
                      METHOD  GET, POST, PUT, PATCH, DELETE or * (any)
                      PATH    the path without the query; * stands for one segment, ** for any part
                              (/resources/stores/config/*/items, /service/**)
                      ANSWER  a status of 400 to 599 with Fastly's error body (429 with its rate-limit
                              headers), wrong-json (200, JSON of a shape no answer has), not-json
                              (200, HTML), or late:SECONDS (the route's answer, that late)
                      COUNT   the first N matching calls, or always (the default)`;

/** A path pattern: exact, or with `*` for one segment and `**` for any part. */
function pathPattern(text: string): string | RegExp {
  if (!text.startsWith('/')) throw new Error(`its path must start with /, not "${text}"`);
  if (!text.includes('*')) return text;
  const source = text
    .split(/(\*\*|\*)/)
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

/** A fault from its text, `METHOD PATH ANSWER [COUNT]`; throws naming what is wrong (the caller names the option). */
export function parseFault(spec: string): Fault {
  const words = spec.trim().split(/\s+/);
  if (words.length < 3 || words.length > 4)
    throw new Error(
      `"${spec}" must be METHOD PATH ANSWER [COUNT], e.g. "PATCH /resources/stores/config/*/items 400 3"`,
    );
  const [method, path, answer, count] = words as [string, string, string, string | undefined];
  const fault: Fault = { path: pathPattern(path) };
  const m = method.toUpperCase();
  if (m !== '*') {
    if (!/^(GET|HEAD|POST|PUT|PATCH|DELETE)$/.test(m))
      throw new Error(`"${spec}": the method must be GET, HEAD, POST, PUT, PATCH, DELETE or *, not "${method}"`);
    fault.method = m;
  }
  const late = /^late:(\d+(?:\.\d+)?)$/.exec(answer);
  if (/^\d{3}$/.test(answer) && Number(answer) >= 400 && Number(answer) <= 599) fault.status = Number(answer);
  else if (answer === 'wrong-json') fault.body = WRONG_JSON;
  else if (answer === 'not-json') fault.body = NOT_JSON;
  else if (late !== null) fault.delayMs = Number(late[1]) * 1000;
  else
    throw new Error(
      `"${spec}": the answer must be a status of 400 to 599, wrong-json, not-json or late:SECONDS, not "${answer}"`,
    );
  if (count !== undefined && count !== 'always') {
    if (!/^\d+$/.test(count) || Number(count) < 1)
      throw new Error(`"${spec}": the count must be a whole number above 0 or always, not "${count}"`);
    fault.times = Number(count);
  }
  return fault;
}
