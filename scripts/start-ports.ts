// The ports `npm start` uses, and the manifest that points the room at them.
//
// One option moves them all: `--addr HOST:PORT` sets the room's port, and the demo shop and the
// controller's dashboard sit at fixed offsets below it, so the defaults stay as documented (room 7676,
// shop 7070, dashboard 7373) and `--addr 127.0.0.1:7677` moves the three together (7677, 7071, 7374).
// fastly.toml names the shop at 7070; the room runs against a copy of it in a temporary directory
// with the shop's port and the absolute paths of the local store files.
import { UsageError } from '../lib/cli.js';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readFileSync } from 'node:fs';
import { parse, stringify } from 'smol-toml';
import { canConnect } from '../lib/host-process.js';
import { repoRoot } from '../lib/paths.js';

export const DEFAULT_ROOM_PORT = 7676;
const ORIGIN_OFFSET = 606; // 7676 -> 7070
const DASHBOARD_OFFSET = 303; // 7676 -> 7373

export interface StartPorts {
  host: string;
  room: number;
  origin: number;
  dashboard: number;
}

export function splitAddr(addr: string): { host: string; port: number } {
  const m = /^(.*):(\d+)$/.exec(addr);
  if (!m) throw new UsageError(`--addr "${addr}" must be HOST:PORT, e.g. --addr 127.0.0.1:${DEFAULT_ROOM_PORT}`);
  return { host: m[1]!.replace(/^\[|\]$/g, ''), port: Number(m[2]) };
}

/** The three ports for a room at `addr`; throws when the port leaves no room for the other two. */
export function startPorts(addr: string): StartPorts {
  const { host, port } = splitAddr(addr);
  if (!(port > ORIGIN_OFFSET && port <= 65535)) {
    throw new UsageError(
      `--addr port ${port}: npm start puts the shop ${ORIGIN_OFFSET} below the room's port, so pick one from ${ORIGIN_OFFSET + 1} to 65535`,
    );
  }
  return { host, room: port, origin: port - ORIGIN_OFFSET, dashboard: port - DASHBOARD_OFFSET };
}

/** The ports of `ports` something already listens on, each with what npm start wanted it for. */
export async function busyPorts(ports: StartPorts, control: boolean): Promise<string[]> {
  const wanted: [string, string, number][] = [
    ['the room', ports.host, ports.room],
    ['the demo shop', '127.0.0.1', ports.origin],
    ...(control ? [['the dashboard', '127.0.0.1', ports.dashboard] as [string, string, number]] : []),
  ];
  const busy: string[] = [];
  for (const [what, host, port] of wanted) if (await canConnect(port, host)) busy.push(`${host}:${port} (${what})`);
  return busy;
}

/** The next room port above `ports.room` whose three ports are all free; null if none in 100. */
export async function freeAddr(ports: StartPorts, control: boolean): Promise<string | null> {
  for (let port = ports.room + 1; port <= Math.min(65535, ports.room + 100); port++) {
    const next = startPorts(`${ports.host}:${port}`);
    if ((await busyPorts(next, control)).length === 0)
      return `${ports.host.includes(':') ? `[${ports.host}]` : ports.host}:${port}`;
  }
  return null;
}

/** The operator's message when a port is taken: which, and the --addr that moves all of them. */
export async function portsInUse(ports: StartPorts, control: boolean): Promise<string | null> {
  const busy = await busyPorts(ports, control);
  if (busy.length === 0) return null;
  const next = await freeAddr(ports, control);
  const move =
    next === null
      ? 'stop what listens there, or pass --addr with another port'
      : `stop what listens there (another npm start?), or run: npm start -- --addr ${next}${control ? ' --control' : ''}`;
  return `something already listens on ${busy.join(' and ')}; ${move} (it moves the room, the shop and the dashboard together)`;
}

export interface RunManifest {
  /** The directory holding the manifest, for `fastly compute serve -C`. */
  dir: string;
  file: string;
}

/**
 * fastly.toml with the shop at `originPort` and the store files at absolute paths (the room then
 * reads the files `npm run tune` and `npm run keys` change), written to a new temporary directory.
 */
export async function writeRunManifest(
  originPort: number,
  stores: { config: string; keys: string; pages: string },
): Promise<RunManifest> {
  const manifest = parse(await readFile(join(repoRoot, 'fastly.toml'), 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const local = manifest.local_server;
  local.backends.origin.url = `http://127.0.0.1:${originPort}`;
  local.backends.origin.override_host = `127.0.0.1:${originPort}`;
  local.config_stores.waiting_room_config.file = stores.config;
  local.config_stores.waiting_room_pages.file = stores.pages;
  local.secret_stores.waiting_room_keys.file = stores.keys;
  const dir = await mkdtemp(join(tmpdir(), 'wr-start-'));
  const file = join(dir, 'fastly.toml');
  await writeFile(
    file,
    `# Written by npm start from fastly.toml: the shop on port ${originPort}, the local store files.\n${stringify(manifest)}`,
  );
  return { dir, file };
}

/** Beside the settings store: where npm start last served the room (local/room-address.json), for the tools that print links. */
const addressFile = (configPath: string): string => join(dirname(configPath), 'room-address.json');

export async function recordRoomAddress(configPath: string, url: string): Promise<void> {
  await writeFile(addressFile(configPath), `${JSON.stringify({ url })}\n`);
}

/** The room's URL as npm start last recorded it, or null. */
export function recordedRoomUrl(configPath: string): string | null {
  try {
    const url = (JSON.parse(readFileSync(addressFile(configPath), 'utf8')) as { url?: unknown }).url;
    return typeof url === 'string' ? url : null;
  } catch {
    return null;
  }
}
