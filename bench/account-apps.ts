// The hosts bench/room-account.ts feeds: one per (app, visitor), each with one worker and the host's
// per-request profile on, so every thread's CPU time belongs to one kind of request. Beside the room:
// the bare pass-through (what any Compute app pays), the room's code and warm-up passing every request
// through untouched (what the room's heap costs a request without the room doing anything), and the
// same apps asking for no sandbox reuse (every request a fresh sandbox's first).
import http from 'node:http';
import path from 'node:path';
import { mkdir, writeFile } from 'node:fs/promises';
import { build } from 'esbuild';
import type { EchoOrigin } from '../lib/echo-origin.js';
import { startHost, type RunningHost } from '../lib/host-process.js';
import { repoRoot } from '../lib/paths.js';
import { mintToken, type Room, startRoom, type Settings } from '../lib/room-host.js';
import { buildWasm } from '../lib/wasm-build.js';
import { bundleOptions } from '../scripts/build.js';
import { cookieName } from '../src/core/request/index.js';
import { DEFAULT_ROOM, ROUTING_KEY } from '../src/core/settings/index.js';
import { buildFixture } from './build-fixture.js';
import { get } from './http-load.js';

/** One host serving one kind of request, again and again. */
export interface AccountedApp {
  name: string;
  what: string;
  host: Pick<RunningHost, 'url' | 'pid' | 'errors'>;
  path: string;
  headers: () => Record<string, string>;
  /** Whether each request is a fresh sandbox's first. */
  fresh: boolean;
  /** Whether its answers carry the room's own time (x-room-time-us). */
  timed: boolean;
}

const settings: Settings = {
  allow_percentage: '50',
  wait_period_duration: '3600',
  allow_period_duration: '86400',
  hammer_limit: '0',
};
const store = {
  [ROUTING_KEY]: JSON.stringify({
    rooms: [{ id: DEFAULT_ROOM, routes: ['/'] }],
    rules: [{ id: 'static', if: { path: { prefix: '/static' } }, then: 'bypass' }],
  }),
};
const COOKIE = cookieName(DEFAULT_ROOM);
const HOST_ARGS = ['--workers', '1', '--max-workers', '1'];
const PROFILE = { COMPUTE_HOST_PROFILE: '1' };

/** The pass-through, or the room's code passing through, as a Compute app; `reuse` false asks for a fresh sandbox a request. */
async function passApp(kind: 'bare' | 'room-code', reuse: boolean): Promise<string> {
  const source = path.join(repoRoot, 'build', `bench-account-${kind}-${reuse ? 'reused' : 'fresh'}.ts`);
  await mkdir(path.dirname(source), { recursive: true });
  const lines = [
    "import { setReusableSandboxOptions } from 'fastly:experimental';",
    ...(kind === 'room-code'
      ? [
          `import { handle } from ${JSON.stringify(path.join(repoRoot, 'src/core/handler.js'))};`,
          `import { warmUp } from ${JSON.stringify(path.join(repoRoot, 'src/core/warm.js'))};`,
          // The room's code and what its warm-up keeps, alive as in the room; never called by a request.
          '(globalThis as { kept?: unknown }).kept = handle;',
          'void warmUp();',
        ]
      : []),
    reuse ? 'setReusableSandboxOptions({ maxRequests: 1000 });' : '',
    "addEventListener('fetch', (event) => event.respondWith(fetch(event.request, { backend: 'origin' })));",
    '',
  ];
  await writeFile(source, lines.join('\n'));
  const bundle = source.replace(/\.ts$/, '.js');
  await build({ ...bundleOptions, entryPoints: [source], outfile: bundle });
  return buildWasm(bundle);
}

/** One accounted app: a host, the request it is fed again and again, and whether each is a fresh sandbox's first. */
function app(
  name: string,
  what: string,
  host: AccountedApp['host'],
  headers: AccountedApp['headers'],
  options: { fresh?: boolean; timed?: boolean; path?: string } = {},
): AccountedApp {
  return {
    name,
    what,
    host,
    path: options.path ?? '/page',
    headers,
    fresh: options.fresh ?? false,
    timed: options.timed ?? true,
  };
}

/**
 * The visitors' tokens, as the room issues them: an allow token (the room lets everyone in), a wait
 * token that is not due (after the room is set back to its settings), and allow tokens no sandbox
 * has seen, each with its own expiry.
 */
async function issueTokens(issuer: Room): Promise<{ allow: string; wait: string; unseen: string[] }> {
  const agent = new http.Agent({ keepAlive: false });
  const cookieOf = async (): Promise<string> => {
    const line = (await get(agent, `${issuer.url}/`)).headers['set-cookie']?.find((c) => c.startsWith(`${COOKIE}=`));
    if (!line) throw new Error('the room set no cookie');
    return line.slice(COOKIE.length + 1).split(';')[0]!;
  };
  const allow = await cookieOf();
  await issuer.setConfig(settings, store);
  const wait = await cookieOf();
  agent.destroy();
  const firstExp = Math.floor(Date.now() / 1000) + Number(settings.allow_period_duration) + 3600;
  const unseen: string[] = [];
  for (let i = 0; i < 5000; i++) unseen.push(await mintToken(issuer, { dec: 'allow', exp: firstExp + i }));
  return { allow, wait, unseen };
}

/**
 * Starts every host the accounting measures; each is pushed onto `started` as it starts, so the
 * caller stops them all whatever fails on the way.
 */
export async function startAccountedApps(
  origin: EchoOrigin,
  keyBytes: Uint8Array,
  started: Array<{ stop(): Promise<unknown> }>,
): Promise<AccountedApp[]> {
  const manifest = { local_server: { backends: { origin: { url: origin.url } } } };
  const plain = async (wasm: string) => {
    const host = await startHost({ args: HOST_ARGS, wasm, manifest, env: PROFILE });
    started.push(host);
    return host;
  };
  const reusedTimed = await buildFixture('room-timed');
  const freshTimed = await buildFixture('room-timed', { FRESH_SANDBOX: 'true' });
  const room = async (wasm: string, allowAll = false) => {
    const r = await startRoom({
      origin,
      keyBytes,
      wasm,
      settings: allowAll ? { ...settings, allow_percentage: '100' } : settings,
      store,
      hostArgs: HOST_ARGS,
      env: PROFILE,
    });
    started.push(r);
    return r;
  };
  const issuer = await room(reusedTimed, true);
  const { allow, wait, unseen } = await issueTokens(issuer);
  let next = 0;
  const fixed = (h: Record<string, string>) => () => h;
  const admitted = fixed({ cookie: `${COOKIE}=${allow}; other=1` });
  const waiting = fixed({ cookie: `${COOKIE}=${wait}` });
  const none = fixed({});
  return [
    app('passthrough', 'bare pass-through app', await plain(await passApp('bare', true)), none, { timed: false }),
    app(
      'room code, passing',
      "the room's code and warm-up loaded, every request forwarded untouched",
      await plain(await passApp('room-code', true)),
      none,
      { timed: false },
    ),
    app('admitted', 'admitted visitor, the same token again', issuer, admitted),
    app('admitted-unseen', 'admitted visitor, a token this sandbox has not seen', await room(reusedTimed), () => ({
      cookie: `${COOKIE}=${unseen[next++ % unseen.length]}; other=1`,
    })),
    app('waiting', 'waiting visitor, waiting page (English)', await room(reusedTimed), waiting),
    app('waiting fr', 'waiting visitor, waiting page in French', await room(reusedTimed), () => ({
      ...waiting(),
      'accept-language': 'fr-FR,fr;q=0.9,en;q=0.5',
    })),
    app('new', 'new visitor: a token signed, waiting page', await room(reusedTimed), none),
    app('bypass', 'a path a rule sends past the room', await room(reusedTimed), none, { path: '/static/page' }),
    app(
      'fresh: passthrough',
      'bare pass-through, a fresh sandbox a request',
      await plain(await passApp('bare', false)),
      none,
      {
        fresh: true,
        timed: false,
      },
    ),
    app('fresh: admitted', 'admitted visitor, a fresh sandbox a request', await room(freshTimed), admitted, {
      fresh: true,
    }),
    app('fresh: waiting', 'waiting page (English), a fresh sandbox a request', await room(freshTimed), waiting, {
      fresh: true,
    }),
    app(
      'fresh: waiting fr',
      'waiting page in French, a fresh sandbox a request',
      await room(freshTimed),
      () => ({
        ...waiting(),
        'accept-language': 'fr-FR,fr;q=0.9,en;q=0.5',
      }),
      { fresh: true },
    ),
  ];
}
