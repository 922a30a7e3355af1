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
import { startRoom } from '../lib/room-host.js';
import { buildWasm } from '../lib/wasm-build.js';
import { bundleOptions } from '../scripts/build.js';
import { buildFixture } from './build-fixture.js';
import { get } from './http-load.js';
import { BENCH_COOKIE, BENCH_SETTINGS, BENCH_STORE, issueTokens } from './room-scenarios.js';

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

const settings = BENCH_SETTINGS;
const COOKIE = BENCH_COOKIE;
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

/** Starting a profiled host of one worker: a plain app, or the room with the bench's settings (or letting everyone in). */
function hostStarters(origin: EchoOrigin, keyBytes: Uint8Array, started: Array<{ stop(): Promise<unknown> }>) {
  const manifest = { local_server: { backends: { origin: { url: origin.url } } } };
  return {
    plain: async (wasm: string) => {
      const host = await startHost({ args: HOST_ARGS, wasm, manifest, env: PROFILE });
      started.push(host);
      return host;
    },
    room: async (wasm: string, allowAll = false) => {
      const r = await startRoom({
        origin,
        keyBytes,
        wasm,
        settings: allowAll ? { ...settings, allow_percentage: '100' } : settings,
        store: BENCH_STORE,
        hostArgs: HOST_ARGS,
        env: PROFILE,
      });
      started.push(r);
      return r;
    },
  };
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
  const { plain, room } = hostStarters(origin, keyBytes, started);
  const reusedTimed = await buildFixture('room-timed');
  const freshTimed = await buildFixture('room-timed', { FRESH_SANDBOX: 'true' });
  const issuer = await room(reusedTimed, true);
  const agent = new http.Agent({ keepAlive: false });
  const { allow, wait, unseen } = await issueTokens(issuer, (url, headers) => get(agent, url, headers), 5000);
  agent.destroy();
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
