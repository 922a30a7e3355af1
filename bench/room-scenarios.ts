// The apps bench/room.ts measures and the requests it sends them: a bare pass-through Compute app,
// the same with a snapshot as large as the room's, and the room, all in front of one echo origin;
// then one scenario per kind of visitor, each with what a correct answer looks like.
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import { startEchoOrigin, type EchoOrigin } from '../lib/echo-origin.js';
import { startHost, type RunningHost } from '../lib/host-process.js';
import { repoRoot, wasmFile } from '../lib/paths.js';
import { mintToken, startRoom, type Room, type Settings } from '../lib/room-host.js';
import { buildWasm } from '../lib/wasm-build.js';
import { cookieName } from '../src/core/request/index.js';
import { DEFAULT_ROOM, ROUTING_KEY } from '../src/core/settings/index.js';
import type { TimedScenario } from './room-time.js';

export interface Scenario {
  name: string;
  /** Which app serves it (the host profile replays it on a profiling host of the same app). */
  app: 'passthrough' | 'room';
  what: string;
  url: string;
  /** Fixed headers, or a function giving each request its own (a token the sandbox has not seen). */
  headers: Record<string, string> | (() => Record<string, string>);
  /** The process serving it, whose CPU time is the least load-sensitive cost figure. */
  pid: number;
  /** What a correct answer looks like, so a misconfigured run does not measure the wrong path. */
  expect: (status: number, headers: http.IncomingHttpHeaders) => boolean;
}

/** How the apps run: every host with the same fixed pool, and the room build to measure. */
export interface AppSetup {
  poolArgs: string[];
  /** Another build of the room to measure in its place; bin/main.wasm when absent. */
  otherRoomWasm: string | undefined;
  /** An older build to measure beside this one, in the same rounds (bench/room-against.ts). */
  beforeWasm?: string | undefined;
}

export interface Apps {
  origin: EchoOrigin;
  keyBytes: Uint8Array;
  passthrough: RunningHost;
  /** The pass-through with as much snapshot data as the room. */
  ballast: RunningHost;
  room: Room;
  /** The older build beside it (BENCH_AGAINST), with the same key, settings and store; null without one. */
  before: Room | null;
  /** The room's settings while measured. */
  settings: Settings;
  /** The store values besides them (the routing: one room and the /static bypass rule). */
  store: Record<string, string>;
  /** Tokens the room issued before the rounds: an allow token and a wait token that is not due. */
  tokens: { allow: string; wait: string };
  /** Allow tokens no sandbox has seen, one per request. */
  unseen: string[];
}

export type Get = (url: string, headers: Record<string, string>) => Promise<{ headers: http.IncomingHttpHeaders }>;

// Long windows: no token expires or renews during the run, so every request takes one path. The
// hammering limit off: the waiting scenario sends one token thousands of times a minute, and measures
// its waiting page (the 429 that limit answers instead is measured apart, bench/room-hammer.ts).
export const BENCH_SETTINGS: Settings = {
  allow_percentage: '50',
  wait_period_duration: '3600',
  allow_period_duration: '86400',
  hammer_limit: '0',
};
/** One room covering every path, and one rule: /static goes straight to the origin (the bypass scenario). */
export const BENCH_STORE = {
  [ROUTING_KEY]: JSON.stringify({
    rooms: [{ id: DEFAULT_ROOM, routes: ['/'] }],
    rules: [{ id: 'static', if: { path: { prefix: '/static' } }, then: 'bypass' }],
  }),
};
export const BENCH_COOKIE = cookieName(DEFAULT_ROOM);
const settings = BENCH_SETTINGS;
const store = BENCH_STORE;
const COOKIE = BENCH_COOKIE;

function cookieValue(setCookie: string[] | undefined, name: string): string {
  const line = setCookie?.find((c) => c.startsWith(`${name}=`));
  if (!line) throw new Error(`the room set no ${name} cookie (got ${JSON.stringify(setCookie)})`);
  return line.slice(name.length + 1).split(';')[0]!;
}

/**
 * The visitors' tokens from a room started to let everyone in: an allow token; a wait token that is
 * not due, once the room is set back to the bench's settings; and `unseenCount` allow tokens no
 * sandbox has seen, one per request (distinct expiries, each more than an allow period away for the
 * whole run, so none is renewed: the room renews with fewer than A s left).
 */
export async function issueTokens(
  room: Room,
  get: Get,
  unseenCount: number,
): Promise<{ allow: string; wait: string; unseen: string[] }> {
  const allow = cookieValue((await get(`${room.url}/`, {})).headers['set-cookie'], COOKIE);
  await room.setConfig(settings, store);
  const wait = cookieValue((await get(`${room.url}/`, {})).headers['set-cookie'], COOKIE);
  const unseen: string[] = [];
  const firstExp = Math.floor(Date.now() / 1000) + Number(settings.allow_period_duration) + 3600;
  for (let i = 0; i < unseenCount; i++) unseen.push(await mintToken(room, { dec: 'allow', exp: firstExp + i }));
  return { allow, wait, unseen };
}

/**
 * The pass-through fixture plus `extraBytes` of non-zero data in its snapshot (rounded to 256 KB so a
 * slightly different room build reuses the cached module).
 */
async function buildBallastPassthrough(extraBytes: number): Promise<string> {
  const bytes = Math.max(0, Math.round(extraBytes / 262_144) * 262_144);
  const source = path.join(repoRoot, 'build', `bench-passthrough-ballast-reused-${bytes}.js`);
  await mkdir(path.dirname(source), { recursive: true });
  await writeFile(
    source,
    [
      // Reuses its sandboxes as the room and the plain pass-through do.
      "import { setReusableSandboxOptions } from 'fastly:experimental';",
      'setReusableSandboxOptions({ maxRequests: 1000 });',
      `const ballast = new Uint8Array(${bytes});`,
      'for (let i = 0; i < ballast.length; i++) ballast[i] = (i * 31 + 7) & 255;',
      'globalThis.ballast = ballast;',
      "addEventListener('fetch', (event) => event.respondWith(fetch(event.request, { backend: 'origin' })));",
      '',
    ].join('\n'),
  );
  return buildWasm(source);
}

/**
 * Starts the origin and the three apps and takes the room's tokens. Each process is pushed onto
 * `started` as it starts, so the caller stops them all (last first) whatever fails on the way.
 */
export async function startApps(
  setup: AppSetup,
  get: Get,
  started: Array<{ stop(): Promise<unknown> }>,
): Promise<Apps> {
  const origin = await startEchoOrigin();
  started.push({ stop: () => origin.close() });
  const keyBytes = new Uint8Array(randomBytes(64));
  const passthroughWasm = await buildWasm(path.join(repoRoot, 'bench', 'fixtures', 'passthrough.js'));
  const manifest = { local_server: { backends: { origin: { url: origin.url } } } };
  const passthrough = await startHost({ args: setup.poolArgs, wasm: passthroughWasm, manifest });
  started.push(passthrough);
  const room = await startRoom({
    origin,
    keyBytes,
    settings: { ...settings, allow_percentage: '100' },
    store,
    hostArgs: setup.poolArgs,
    ...(setup.otherRoomWasm ? { wasm: setup.otherRoomWasm } : {}),
  });
  started.push(room);
  const { allow, wait, unseen } = await issueTokens(room, get, 30_000);
  // The local host puts back the memory pages the last guest changed when a fresh instance starts,
  // after comparing the whole memory with the snapshot image, so a bigger snapshot costs more per
  // instance (now once per 1,000 requests); Fastly maps snapshots copy-on-write. A pass-through
  // carrying as much snapshot data as the room separates that host-specific cost from the room's own work.
  const ballastWasm = await buildBallastPassthrough(
    statSync(setup.otherRoomWasm ?? wasmFile).size - statSync(passthroughWasm).size,
  );
  const ballast = await startHost({ wasm: ballastWasm, args: setup.poolArgs, manifest });
  started.push(ballast);
  let before: Room | null = null;
  if (setup.beforeWasm) {
    before = await startRoom({ origin, keyBytes, settings, store, hostArgs: setup.poolArgs, wasm: setup.beforeWasm });
    started.push(before);
  }
  return { origin, keyBytes, passthrough, ballast, room, before, settings, store, tokens: { allow, wait }, unseen };
}

const fromOrigin = (status: number, h: http.IncomingHttpHeaders): boolean => status === 200 && h['x-echo'] === '1';

const bigPage = String(256 * 1024);

/** An older build's scenarios (BENCH_AGAINST) are today's names behind this prefix. */
export const BEFORE = 'before:';

/** The bare apps: what any Compute app pays before the room does anything (a plain page and a 256 KB one). */
function passthroughScenarios(apps: Apps): Scenario[] {
  const { passthrough, ballast } = apps;
  return [
    {
      name: 'passthrough',
      app: 'passthrough',
      pid: passthrough.pid,
      what: 'bare Compute app forwarding to the origin',
      url: `${passthrough.url}/page`,
      headers: {},
      expect: fromOrigin,
    },
    {
      name: 'passthrough-same-image',
      app: 'passthrough',
      pid: ballast.pid,
      what: 'bare app whose snapshot is as large as the room (the host checks all of its memory per fresh instance)',
      url: `${ballast.url}/page`,
      headers: {},
      expect: fromOrigin,
    },
    {
      name: 'passthrough-256k',
      app: 'passthrough',
      pid: passthrough.pid,
      what: 'bare app, 256 KB page',
      url: `${passthrough.url}/page`,
      headers: { 'x-echo-bytes': bigPage },
      expect: fromOrigin,
    },
  ];
}

/**
 * The room, one scenario per kind of visitor, and a path a rule sends past it; `prefix` names another
 * build's scenarios (the same tokens: both rooms share the key).
 */
function roomScenarios(apps: Apps, room: Room, prefix = ''): Scenario[] {
  const { tokens, unseen } = apps;
  let nextUnseen = 0;
  const scenarios: Scenario[] = [
    {
      name: 'new',
      app: 'room',
      pid: room.pid,
      what: 'new visitor: config, identity, sign a wait token, render the waiting page',
      url: `${room.url}/page`,
      headers: {},
      expect: (_s, h) => h['x-echo'] === undefined && (h['set-cookie']?.length ?? 0) > 0,
    },
    {
      name: 'waiting',
      app: 'room',
      pid: room.pid,
      what: 'waiting visitor: verify a wait token that is not due, render the waiting page',
      url: `${room.url}/page`,
      headers: { cookie: `${COOKIE}=${tokens.wait}` },
      expect: (s, h) => s === 200 && h['x-echo'] === undefined && h['set-cookie'] === undefined,
    },
    {
      name: 'admitted',
      app: 'room',
      pid: room.pid,
      what: 'admitted visitor: verify an allow token, strip the cookie, forward to the origin',
      url: `${room.url}/page`,
      headers: { cookie: `${COOKIE}=${tokens.allow}; other=1` },
      expect: (s, h) => fromOrigin(s, h) && h['set-cookie'] === undefined,
    },
    {
      name: 'admitted-unseen',
      app: 'room',
      pid: room.pid,
      what: 'admitted visitor whose token this sandbox has not verified before (a first visit after admission)',
      url: `${room.url}/page`,
      headers: () => ({ cookie: `${COOKIE}=${unseen[nextUnseen++ % unseen.length]}; other=1` }),
      expect: (s, h) => fromOrigin(s, h) && h['set-cookie'] === undefined,
    },
    {
      name: 'bypass',
      app: 'room',
      pid: room.pid,
      what: 'bypassed path (a rule): the room reads its routing and forwards (no token work)',
      url: `${room.url}/static/page`,
      headers: {},
      expect: fromOrigin,
    },
    {
      name: 'admitted-256k',
      app: 'room',
      pid: room.pid,
      what: 'admitted visitor, 256 KB page',
      url: `${room.url}/page`,
      headers: { cookie: `${COOKIE}=${tokens.allow}`, 'x-echo-bytes': bigPage },
      expect: fromOrigin,
    },
  ];
  return scenarios.map((s) => ({ ...s, name: `${prefix}${s.name}` }));
}

/** Every scenario, in the order of the first round and of the report; an older build's last. */
export function benchScenarios(apps: Apps): Scenario[] {
  return [
    ...passthroughScenarios(apps),
    ...roomScenarios(apps, apps.room),
    ...(apps.before ? roomScenarios(apps, apps.before, BEFORE) : []),
  ];
}

/** Each scenario's cost is compared with the pass-through serving the same page. */
export const baselineOf = (name: string): string => (name.endsWith('-256k') ? 'passthrough-256k' : 'passthrough');

/** The room's scenarios as bench/room-time.ts replays them on one timed sandbox (the 256 KB page left out). */
export function timedScenarios(scenarios: Scenario[]): TimedScenario[] {
  return scenarios
    .filter((s) => s.app === 'room' && !s.name.endsWith('-256k') && !s.name.startsWith(BEFORE))
    .map((s) => ({
      name: s.name,
      path: new URL(s.url).pathname,
      headers: () => (typeof s.headers === 'function' ? s.headers() : s.headers),
    }));
}
