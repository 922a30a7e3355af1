// The waiting room as a visitor meets it: bin/main.wasm on the local host, in front of an echo origin,
// with its three stores as JSON files a test can rewrite while the host runs.
import { mintToken as mintWith, type MintOptions } from './mint.js';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, readdir, stat, unlink } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { base64url } from 'jose';
import { drawValue } from '../../src/core/draw.js';
import { startHost, type RunningHost } from './host-process.js';
import { repoRoot } from './wasm-build.js';

export const roomWasm = path.join(repoRoot, 'bin', 'main.wasm');

// ---------------------------------------------------------------------------------------------
// Building bin/main.wasm once per run

async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const info = await stat(path.join(entry.parentPath, entry.name));
    newest = Math.max(newest, info.mtimeMs);
  }
  return newest;
}

async function wasmIsFresh(): Promise<boolean> {
  let built: number;
  try {
    built = (await stat(roomWasm)).mtimeMs;
  } catch {
    return false;
  }
  const sources = Math.max(
    await newestMtime(path.join(repoRoot, 'src')),
    await newestMtime(path.join(repoRoot, 'pages')),
    await newestMtime(path.join(repoRoot, 'scripts', 'build.ts')),
  );
  return built >= sources;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const lockFile = path.join(repoRoot, 'bin', '.main.wasm.lock');

/** Takes the build lock; a lock left by a process that has died is broken, not waited on. */
async function acquireBuildLock(deadline: number): Promise<void> {
  await mkdir(path.dirname(lockFile), { recursive: true });
  for (;;) {
    try {
      const handle = await open(lockFile, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number(await readFile(lockFile, 'utf8').catch(() => ''));
    if (Number.isInteger(holder) && holder > 0 && !pidAlive(holder)) {
      await unlink(lockFile).catch(() => undefined);
      continue;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for the build lock ${lockFile} (held by pid ${holder})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

let built: Promise<string> | undefined;

/**
 * Makes sure bin/main.wasm is built from the current sources and returns its path. `npm run build`
 * runs only when the module is missing or older than src/, pages/ or the build script; vitest runs
 * files in several workers, so a lock file keeps two of them from compiling over each other.
 */
export function ensureRoomWasm(): Promise<string> {
  built ??= (async () => {
    if (await wasmIsFresh()) return roomWasm;
    await acquireBuildLock(Date.now() + 5 * 60_000);
    try {
      // Another worker may have finished the build while this one waited for the lock.
      if (await wasmIsFresh()) return roomWasm;
      await new Promise<void>((resolve, reject) => {
        const child = spawn('npm', ['run', 'build'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.on('error', reject);
        child.on('exit', (code) =>
          code === 0 ? resolve() : reject(new Error(`npm run build failed (exit ${code}):\n${output.slice(-4000)}`)),
        );
      });
      return roomWasm;
    } finally {
      await unlink(lockFile).catch(() => undefined);
    }
  })();
  return built;
}

// ---------------------------------------------------------------------------------------------
// The echo origin

/** What the origin received, as it tells it back in its JSON body. */
export interface EchoedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface EchoOrigin {
  url: string;
  /** Every request the origin has received, oldest first. */
  requests: EchoedRequest[];
  close(): Promise<void>;
}

/**
 * An origin that answers with what it received. The request steers its answer, so one origin serves
 * every test: `x-echo-command: V` answers with `waiting-room-command: V`, `x-echo-set-cookie: C`
 * answers with its own `Set-Cookie: C`, `x-echo-bytes: N` answers N bytes instead of the echo (a page
 * of a realistic size), and `x-echo-die: 1` drops the connection without answering (a dead origin as
 * the room sees it). An HTML-accepting client (a browser) gets a small HTML page.
 */
export async function startEchoOrigin(): Promise<EchoOrigin> {
  const requests: EchoedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const echoed: EchoedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(echoed);
      if (req.headers['x-echo-die']) {
        req.socket.destroy();
        return;
      }
      const headers: http.OutgoingHttpHeaders = { 'x-echo': '1' };
      const command = req.headers['x-echo-command'];
      if (typeof command === 'string') headers['waiting-room-command'] = command;
      const cookie = req.headers['x-echo-set-cookie'];
      if (typeof cookie === 'string') headers['set-cookie'] = [cookie];
      const size = Number(req.headers['x-echo-bytes']);
      if (Number.isSafeInteger(size) && size > 0) {
        headers['content-type'] = 'application/octet-stream';
        res.writeHead(200, headers);
        res.end(Buffer.alloc(size, 'x'));
        return;
      }
      const json = JSON.stringify({ echo: echoed });
      if ((req.headers.accept ?? '').includes('text/html')) {
        headers['content-type'] = 'text/html; charset=utf-8';
        res.writeHead(200, headers);
        res.end(`<!doctype html><title>Origin</title><h1 id="origin">The origin page</h1><pre>${escapeHtml(json)}</pre>`);
      } else {
        headers['content-type'] = 'application/json';
        res.writeHead(200, headers);
        res.end(json);
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

// ---------------------------------------------------------------------------------------------
// The room on the host

export const LOG_ENDPOINT = 'wr_e2e';
export const TEST_KID = 'e2e1';

export type Settings = Record<string, string>;

export interface Room {
  /** Base URL of the room on the host. */
  url: string;
  /** The host's process id (for CPU accounting in benchmarks). */
  pid: number;
  origin: EchoOrigin;
  /** The signing key the room starts with (id TEST_KID, 64 random bytes unless given). */
  key: { kid: string; bytes: Uint8Array; base64: string };
  /**
   * Replaces `waiting_room_config` with `settings` (plus `log_endpoint` and `active_key` unless given)
   * and returns once the host has reloaded it: the next request sees the new settings.
   */
  setConfig(settings: Settings): Promise<void>;
  /** Replaces `waiting_room_keys` (key id -> base64). */
  setKeys(keys: Record<string, string>): Promise<void>;
  /** Replaces `waiting_room_pages` (page name -> base64 template). */
  setPages(pages: Record<string, string>): Promise<void>;
  /** Every line the host has printed so far (stdout, then stderr). */
  logs(): string[];
  /** stderr lines so far (the room's diagnostics). */
  errors(): string[];
  /** The JSON lines the room sent to its log endpoint, oldest first. */
  decisions(): Array<Record<string, unknown>>;
  /** Waits until a host line matches (bounded); returns it. */
  waitForLog(pattern: RegExp, timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
}

export interface RoomOptions {
  settings?: Settings;
  /** Path of the Wasm app; default bin/main.wasm (built on demand). */
  wasm?: string;
  /** An origin to share (e.g. with a baseline app in a benchmark); it outlives the room. */
  origin?: EchoOrigin;
  /** Extra environment for the host (e.g. COMPUTE_HOST_PROFILE=1). */
  env?: Record<string, string>;
  /** The signing key's bytes (default: 64 random bytes), so rooms can share tokens. */
  keyBytes?: Uint8Array;
  /** Where the host listens; `::1` makes every visitor an IPv6 client. */
  address?: '127.0.0.1' | '::1';
  /** Extra host options, e.g. `['--workers', '1']` so every request meets the same sandbox. */
  hostArgs?: string[];
  /** Options for the host's Node (e.g. `['--cpu-prof']` to profile it). */
  nodeArgs?: string[];
}

/** Starts the room on the host: echo origin, temp store files, the built Wasm. */
export async function startRoom(options: RoomOptions = {}): Promise<Room> {
  const wasm = options.wasm ?? (await ensureRoomWasm());
  const ownOrigin = options.origin === undefined;
  const origin = options.origin ?? (await startEchoOrigin());
  const bytes = options.keyBytes ?? new Uint8Array(randomBytes(64));
  const key = { kid: TEST_KID, bytes, base64: Buffer.from(bytes).toString('base64') };
  const withDefaults = (settings: Settings): Settings => ({
    log_endpoint: LOG_ENDPOINT,
    active_key: TEST_KID,
    ...settings,
  });

  let host: RunningHost;
  try {
    host = await startHost({
      wasm,
      ...(options.env ? { env: options.env } : {}),
      ...(options.address ? { address: options.address } : {}),
      ...(options.hostArgs ? { args: options.hostArgs } : {}),
      ...(options.nodeArgs ? { nodeArgs: options.nodeArgs } : {}),
      manifest: roomManifest(origin.url),
      files: {
        [storeFiles.config]: JSON.stringify(withDefaults(options.settings ?? {})),
        [storeFiles.keys]: JSON.stringify({ [TEST_KID]: key.base64 }),
        [storeFiles.pages]: JSON.stringify({}),
      },
    });
  } catch (error) {
    if (ownOrigin) await origin.close();
    throw error;
  }

  const decisions = (): Array<Record<string, unknown>> => {
    const prefix = `${LOG_ENDPOINT} :: `;
    const lines: Array<Record<string, unknown>> = [];
    for (const line of host.logs()) {
      const at = line.indexOf(prefix);
      if (at < 0) continue;
      try {
        lines.push(JSON.parse(line.slice(at + prefix.length)) as Record<string, unknown>);
      } catch {
        lines.push({ unparsable: line });
      }
    }
    return lines;
  };

  /**
   * Rewrites a store file and returns once the host says it reloaded it. The host polls its files and
   * tells versions apart by mtime, size and inode; a same-size version that reuses a freed inode
   * within one tick of the file system's clock looks unchanged. So after a second without a reload
   * the file is written again with one more byte, which always differs.
   */
  const writeStore = async (file: string, content: Record<string, string>): Promise<void> => {
    const reloaded = (): number => host.logs().filter((line) => line.includes('reloaded') && line.includes(file)).length;
    const deadline = Date.now() + 10_000;
    const json = JSON.stringify(content);
    for (let attempt = 0; ; attempt++) {
      const before = reloaded();
      await host.writeFile(file, attempt % 2 === 0 ? json : `${json}\n`);
      const seen = await waitFor(() => (reloaded() > before ? true : undefined), 1_000).catch(() => false);
      if (seen) return;
      if (Date.now() > deadline) {
        throw new Error(
          `the host did not reload ${file} within 10 s (live store changes need a host that re-reads store files and ` +
            `says so, as host/bin/compute-host does; WR_HOST_BIN=${process.env.WR_HOST_BIN ?? '(unset)'}):\n${host.logs().slice(-10).join('\n')}`,
        );
      }
    }
  };

  const room: Room = {
    url: host.url,
    pid: host.pid,
    origin,
    key,
    setConfig: (settings) => writeStore(storeFiles.config, withDefaults(settings)),
    setKeys: (keys) => writeStore(storeFiles.keys, keys),
    setPages: (pages) => writeStore(storeFiles.pages, pages),
    logs: () => [...host.logs(), ...host.errors()],
    errors: () => host.errors(),
    decisions,
    waitForLog: (pattern, timeoutMs) => host.waitForLog(pattern, timeoutMs),
    async stop() {
      await host.stop();
      if (ownOrigin) await origin.close();
    },
  };
  return room;
}

/** Polls `probe` until it returns a value (bounded). */
export async function waitFor<T>(probe: () => T | undefined, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Store files, relative to the host's project directory (the manifest sits next to them). */
export const storeFiles = { config: 'config.json', keys: 'keys.json', pages: 'pages.json' } as const;

/** `[local_server]` with the room's stores as JSON files and the `origin` backend at `originUrl`. */
export function roomManifest(originUrl: string): Record<string, unknown> {
  return {
    local_server: {
      backends: { origin: { url: originUrl } },
      config_stores: {
        waiting_room_config: { format: 'json', file: storeFiles.config },
        waiting_room_pages: { format: 'json', file: storeFiles.pages },
      },
      secret_stores: {
        waiting_room_keys: { format: 'json', file: storeFiles.keys },
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Tokens, made with the core's own code and the room's test key

/** The identity the room sees for a request from this machine with `identity=ip`. */
export const LOOPBACK_IDENTITY = 'ip:127.0.0.1';


/** A token the room would have issued (or, with another key/kid, one it must refuse). */
export async function mintToken(room: Pick<Room, 'key'>, options: MintOptions): Promise<string> {
  return mintWith({ key: room.key.bytes, kid: room.key.kid, identity: LOOPBACK_IDENTITY }, options);
}

/** The token's draw number in [0, 1), as the room computes it from the signature. */
export function tokenDraw(token: string): number {
  return drawValue(base64url.decode(token.slice(token.lastIndexOf('.') + 1)));
}

