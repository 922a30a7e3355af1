// bench/room-account.ts's samples turned into one table: µs of CPU a request, by part, for each app.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from '../lib/paths.js';

/** What measureAccount samples of one host: thread CPU over the run, and the profile's hostcalls by kind. */
export interface AppSample {
  app: string;
  what: string;
  fresh: boolean;
  requests: number;
  /** Requests the host's profile described (one line each). */
  profiled: number;
  mainMs: number;
  workerMs: number;
  helperMs: number;
  instantiateMs: number;
  hostcalls: Record<string, { calls: number; cpuMs: number }>;
  /** Mean of the room's own time (x-room-time-us), for the timed room; null for the others. */
  roomTimeUs: number | null;
}

/** Hostcalls grouped by what they are for. */
const KINDS: Array<[kind: string, test: RegExp]> = [
  ['clock', /clock_time_get/],
  ['next request', /next_request/],
  ['origin request', /send|pending_req|async_io|cache_override/],
  ['headers', /header/],
  ['stores', /config_store|dictionary|secret_store|kv_store/],
  ['log', /fastly_log/],
  ['response', /send_downstream|http_resp|http_body/],
];

export function hostcallKind(name: string): string {
  for (const [kind, test] of KINDS) if (test.test(name)) return kind;
  return 'other';
}

export const HOSTCALL_KINDS = [...KINDS.map(([k]) => k), 'other'];

/** One app's request, in µs of CPU by part. */
export interface AccountRow {
  app: string;
  what: string;
  requests: number;
  calls: number;
  /** The host's main thread: HTTP in and out, the stores' and the origin's side of hostcalls. */
  hostMain: number;
  /** V8's helper threads (its optimising compiler, its collector's helpers). */
  v8Helpers: number;
  /** A fresh instance: the host's instantiation and memory reset, per request. */
  instantiate: number;
  hostcalls: Record<string, number>;
  /** The guest's Wasm: the worker thread less its hostcalls and instantiation. */
  guest: number;
  /** The part of `guest` the room's heap costs (the room's code passing through, against the pass-through). */
  heap: number;
  /** The part of `guest` any app's request costs in the runtime (the pass-through's, fresh or reused alike). */
  runtime: number;
  /** The rest of `guest`: the room's own JavaScript. */
  roomJs: number;
  /** The room's own time as it measures it inside the runtime (handle(), its hostcalls in it included). */
  roomTime: number | null;
  total: number;
}

export interface Account {
  date: string;
  rows: AccountRow[];
}

const perRequest = (ms: number, s: AppSample): number => Math.round((ms * 1000) / s.requests);

function rowOf(s: AppSample, base: { guest: number }, heap: number): AccountRow {
  const hostcalls: Record<string, number> = {};
  let hostcallUs = 0;
  let calls = 0;
  for (const kind of HOSTCALL_KINDS) {
    const h = s.hostcalls[kind];
    hostcalls[kind] = h ? perRequest(h.cpuMs, s) : 0;
    hostcallUs += hostcalls[kind]!;
    calls += h ? h.calls / s.requests : 0;
  }
  const instantiate = perRequest(s.instantiateMs, s);
  const worker = perRequest(s.workerMs, s);
  const guest = Math.max(0, worker - hostcallUs - instantiate);
  const runtime = Math.min(guest, base.guest);
  const heapPart = Math.min(guest - runtime, heap);
  return {
    app: s.app,
    what: s.what,
    requests: s.requests,
    calls: Math.round(calls),
    hostMain: perRequest(s.mainMs, s),
    v8Helpers: perRequest(s.helperMs, s),
    instantiate,
    hostcalls,
    guest,
    heap: heapPart,
    runtime,
    roomJs: guest - runtime - heapPart,
    roomTime: s.roomTimeUs === null ? null : Math.round(s.roomTimeUs),
    total: perRequest(s.mainMs + s.workerMs + s.helperMs, s),
  };
}

/** Every app's row; the pass-through (fresh or reused, as the app is) is the runtime's share, the room's code passing through gives the heap's. */
export function accountOf(samples: AppSample[]): Account {
  const find = (name: string) => samples.find((s) => s.app === name);
  const guestOf = (s: AppSample | undefined): number => {
    if (!s) return 0;
    const hostcallMs = Object.values(s.hostcalls).reduce((n, h) => n + h.cpuMs, 0);
    return Math.max(0, perRequest(s.workerMs - hostcallMs - s.instantiateMs, s));
  };
  const reusedBase = guestOf(find('passthrough'));
  const freshBase = guestOf(find('fresh: passthrough'));
  const heap = Math.max(0, guestOf(find('room code, passing')) - reusedBase);
  const rows = samples.map((s) =>
    rowOf(
      s,
      { guest: s.fresh ? freshBase : reusedBase },
      s.app === 'passthrough' || s.app === 'fresh: passthrough' ? 0 : heap,
    ),
  );
  return { date: new Date().toISOString(), rows };
}

/** The table: one column per app, one row per part, µs a request. */
export function printAccount(account: Account): void {
  const parts: Array<[label: string, pick: (r: AccountRow) => number | null]> = [
    ["host's main thread (HTTP, the stores' and the origin's side)", (r) => r.hostMain],
    ['V8 helper threads (compiler, collector)', (r) => r.v8Helpers],
    ['fresh instance: instantiate and memory reset', (r) => r.instantiate],
    ...HOSTCALL_KINDS.map((kind): [string, (r: AccountRow) => number] => [
      `hostcalls: ${kind}`,
      (r) => r.hostcalls[kind]!,
    ]),
    ["guest: the runtime's own request work", (r) => r.runtime],
    ["guest: collecting the room's heap after the request", (r) => r.heap],
    ["guest: the room's JavaScript", (r) => r.roomJs],
    ['total, µs of CPU a request', (r) => r.total],
    ['hostcalls a request', (r) => r.calls],
    ["room's own time as it measures it (handle())", (r) => r.roomTime],
  ];
  const table: Record<string, Record<string, number | string>> = {};
  for (const [label, pick] of parts) {
    table[label] = Object.fromEntries(account.rows.map((r) => [r.app, pick(r) ?? '']));
  }
  console.log("\nWhere a request's CPU goes (µs a request; bench/room-account.ts):");
  console.table(table);
}

export async function writeAccount(account: Account): Promise<string> {
  const file = path.join(repoRoot, 'reports', 'bench-account.json');
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(account, null, 2)}\n`);
  return file;
}
