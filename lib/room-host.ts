// The waiting room as a visitor meets it: bin/main.wasm on the local host, in front of an echo origin,
// with its three stores as JSON files a test can rewrite while the host runs.
import { randomBytes } from 'node:crypto';
import { base64url } from 'jose';
import { drawValue } from '../src/core/decision/index.js';
import { storeFromSettings } from '../src/core/settings/index.js';
import { startEchoOrigin, type EchoOrigin } from './echo-origin.js';
import { startHost, type RunningHost } from './host-process.js';
import { mintToken as mintWith, type MintOptions } from './mint.js';
import { ensureRoomWasm } from './room-wasm.js';

export const LOG_ENDPOINT = 'wr_e2e';
export const TEST_KID = 'e2e1';

export type Settings = Record<string, string>;

export interface Room {
  /** Base URL of the room on the host. */
  url: string;
  /** The host's process id (for CPU accounting in benchmarks). */
  pid: number;
  /** The host's project directory: its store files (storeFiles) are here, for a tool that reads them as the host does. */
  dir: string;
  origin: EchoOrigin;
  /** The signing key the room starts with (id TEST_KID, 64 random bytes unless given). */
  key: { kid: string; bytes: Uint8Array; base64: string };
  /**
   * Replaces `waiting_room_config` with `settings` as service-wide settings (plus `log_endpoint` and
   * `active_key` unless given) and the raw store values `store` (the routing, rooms' own values:
   * src/core/settings/layout.ts), and returns once the host has reloaded it: the next request sees them.
   */
  setConfig(settings: Settings, store?: Record<string, string>): Promise<void>;
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
  /** Service-wide settings, one flat set (written as the store's `settings` value). */
  settings?: Settings;
  /** Raw values of `waiting_room_config` besides them: `routing`, `room.ID`, ... */
  store?: Record<string, string>;
  /** Path of the Wasm app; default bin/main.wasm (built on demand). */
  wasm?: string;
  /** An origin to share (e.g. with a baseline app in a benchmark); it outlives the room. */
  origin?: EchoOrigin;
  /** More of the `origin` backend's keys in `[local_server]`, e.g. `first_byte_timeout_ms`. */
  backend?: Record<string, unknown>;
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
  const withDefaults = (settings: Settings, store: Record<string, string> = {}): Record<string, string> => ({
    ...storeFromSettings({ log_endpoint: LOG_ENDPOINT, active_key: TEST_KID, ...settings }),
    ...store,
  });

  let host: RunningHost;
  try {
    host = await startHost({
      wasm,
      ...(options.env ? { env: options.env } : {}),
      ...(options.address ? { address: options.address } : {}),
      ...(options.hostArgs ? { args: options.hostArgs } : {}),
      ...(options.nodeArgs ? { nodeArgs: options.nodeArgs } : {}),
      manifest: roomManifest(origin.url, options.backend),
      files: {
        [storeFiles.config]: JSON.stringify(withDefaults(options.settings ?? {}, options.store)),
        [storeFiles.keys]: JSON.stringify({ [TEST_KID]: key.base64 }),
        [storeFiles.pages]: JSON.stringify({}),
      },
    });
  } catch (error) {
    if (ownOrigin) await origin.close();
    throw error;
  }

  const writeStore = storeWriter(host);
  const room: Room = {
    url: host.url,
    pid: host.pid,
    dir: host.dir,
    origin,
    key,
    setConfig: (settings, store) => writeStore(storeFiles.config, withDefaults(settings, store)),
    setKeys: (keys) => writeStore(storeFiles.keys, keys),
    setPages: (pages) => writeStore(storeFiles.pages, pages),
    logs: () => [...host.logs(), ...host.errors()],
    errors: () => host.errors(),
    decisions: () => decisionLines(host),
    waitForLog: (pattern, timeoutMs) => host.waitForLog(pattern, timeoutMs),
    async stop() {
      await host.stop();
      if (ownOrigin) await origin.close();
    },
  };
  return room;
}

/** The JSON lines the room sent to its log endpoint, oldest first. */
function decisionLines(host: RunningHost): Array<Record<string, unknown>> {
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
}

/**
 * Rewrites a store file and returns once the host says it reloaded it. The host polls its files and
 * tells versions apart by mtime, size and inode; a same-size version that reuses a freed inode
 * within one tick of the file system's clock looks unchanged. So after a second without a reload
 * the file is written again with one more byte, which always differs.
 */
function storeWriter(host: RunningHost): (file: string, content: Record<string, string>) => Promise<void> {
  return async (file, content) => {
    const reloaded = (): number =>
      host.logs().filter((line) => line.includes('reloaded') && line.includes(file)).length;
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

/** `[local_server]` with the room's stores as JSON files and the `origin` backend at `originUrl` (with `backend`'s keys). */
export function roomManifest(originUrl: string, backend: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    local_server: {
      backends: { origin: { ...backend, url: originUrl } },
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
