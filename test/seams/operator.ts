// The operator's hands for test/seams/on-sale-day.realtime.test.ts: the real commands (`npm start`, `npm run tune`,
// `npm run control`, ...) run as processes against a scratch copy of the local store files, a visitor
// with a cookie jar, and the readings of what the operator sees (a room's lines in the start banner, a
// room's table in the report). Every process started here is stopped by `stopEverything`, however the
// test ends: by its process group, then by the scratch store path in its environment.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, copyFileSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../lib/paths.js';
import { exampleConfigFile } from '../../lib/local-store.js';

/** A scratch directory holding the day's store files; every command runs with WR_CONFIG_FILE / WR_KEYS_FILE / WR_PAGES_FILE on them. */
export interface Workspace {
  dir: string;
  config: string;
  keys: string;
  env: NodeJS.ProcessEnv;
  file(name: string): string;
}

/** As on a fresh clone: the settings made from the demo settings, no key file yet. */
export function workspace(): Workspace {
  const dir = mkdtempSync(join(tmpdir(), 'wr-on-sale-day-'));
  const config = join(dir, 'config.json');
  const keys = join(dir, 'keys.json');
  copyFileSync(exampleConfigFile, config);
  return {
    dir,
    config,
    keys,
    env: { ...process.env, WR_CONFIG_FILE: config, WR_KEYS_FILE: keys, WR_PAGES_FILE: join(dir, 'pages.json') },
    file: (name) => join(dir, name),
  };
}

const launched = new Set<Launched>();
const watchers = new Set<() => void>();

/** A command the operator left running: `npm start`, `npm run control`, `npm run load`. */
export class Launched {
  private text = '';
  private status: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(
    readonly child: ChildProcess,
    readonly command: string,
  ) {
    // Its own process group, as a terminal gives a command: the group is what cleanup stops.
    child.stdout?.on('data', (d: Buffer) => (this.text += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (this.text += d.toString()));
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.status = { code, signal };
        resolve(this.status);
      }),
    );
    launched.add(this);
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** What it printed so far (stdout and stderr; for `npm start > FILE`, its stderr only). */
  output(): string {
    return this.text;
  }

  running(): boolean {
    return this.status === null;
  }

  /** True once `pattern` shows in `read()` (default: its output); false when it exits first or `ms` pass. */
  async waitFor(pattern: RegExp, ms: number, read: () => string = () => this.text): Promise<boolean> {
    const deadline = Date.now() + ms;
    for (;;) {
      if (pattern.test(read())) return true;
      if (!this.running() || Date.now() > deadline) return pattern.test(read());
      await sleep(250);
    }
  }

  /** `kill -SIGNAL PID` of npm itself, as an operator does from another terminal. */
  kill(signal: NodeJS.Signals): void {
    try {
      process.kill(this.pid, signal);
    } catch {
      // gone already
    }
  }

  /** Ctrl-C in its terminal: the signal to its whole process group. */
  interrupt(): void {
    signalGroup(this.pid, 'SIGINT');
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // gone already
  }
}

/** `npm ARGS` left running; with `stdoutFile`, as `npm ARGS > FILE`. */
export function launch(ws: Workspace, args: readonly string[], stdoutFile?: string): Launched {
  const out = stdoutFile === undefined ? 'pipe' : openSync(stdoutFile, 'a');
  const child = spawn('npm', [...args], { cwd: repoRoot, env: ws.env, detached: true, stdio: ['ignore', out, 'pipe'] });
  if (typeof out === 'number') closeSync(out);
  return new Launched(child, `npm ${args.join(' ')}`);
}

/** `npm run SCRIPT -- ARGS` to its end: its exit code and everything it printed. */
export async function run(
  ws: Workspace,
  script: string,
  args: readonly string[],
  ms = 90_000,
): Promise<{ code: number | null; out: string }> {
  const command = launch(ws, ['run', script, '--', ...args]);
  const timer = setTimeout(() => signalGroup(command.pid, 'SIGKILL'), ms);
  const { code } = await command.exited;
  clearTimeout(timer);
  return { code, out: command.output() };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 250 ms for up to `ms`: true as soon as it holds. */
export async function within(ms: number, check: () => boolean | Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(250);
  }
}

/** The live processes whose command line or environment names `text` (a scratch path: only this day's). */
export function processesNaming(text: string, where: 'cmdline' | 'environ' = 'cmdline'): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z') continue;
      if (readFileSync(`/proc/${entry}/${where}`, 'utf8').includes(text)) found.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/**
 * Stops every command launched here and anything they left behind (a controller orphaned by a kill -9
 * keeps its npm's process group; the room's host is found by the scratch store path in its
 * environment), then removes the scratch directory.
 */
export async function stopEverything(ws: Workspace | undefined): Promise<void> {
  for (const stop of watchers) stop();
  for (const command of launched) if (command.running()) signalGroup(command.pid, 'SIGTERM');
  await within(5000, () => [...launched].every((c) => !c.running()));
  for (const command of launched) signalGroup(command.pid, 'SIGKILL');
  launched.clear();
  if (ws === undefined) return;
  await within(5000, () => processesNaming(`WR_CONFIG_FILE=${ws.config}`, 'environ').length === 0);
  for (const pid of processesNaming(`WR_CONFIG_FILE=${ws.config}`, 'environ')) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  rmSync(ws.dir, { recursive: true, force: true });
}

/** One visitor: their own identity header and cookie jar, as a browser keeps it. */
export class Visitor {
  private jar = new Map<string, string>();

  constructor(
    private readonly base: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  /** GET `path` (following redirects, as a browser does); `json` asks for the room's JSON answer. */
  async get(
    path: string,
    options: { json?: boolean; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; text: string; json: Record<string, unknown> | null }> {
    let url = new URL(path, this.base);
    for (let hop = 0; ; hop++) {
      const cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
      const response = await fetch(url, {
        redirect: 'manual',
        headers: {
          ...this.headers,
          ...options.headers,
          ...(options.json ? { accept: 'application/json' } : {}),
          ...(cookie === '' ? {} : { cookie }),
        },
      });
      for (const line of response.headers.getSetCookie()) this.keep(line);
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location !== null && hop < 5) {
        url = new URL(location, url);
        continue;
      }
      const text = await response.text();
      let json: Record<string, unknown> | null = null;
      try {
        json = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // a page, not the JSON answer
      }
      return { status: response.status, text, json };
    }
  }

  private keep(line: string): void {
    const [pair = '', ...attributes] = line.split(';');
    const eq = pair.indexOf('=');
    if (eq <= 0) return;
    const name = pair.slice(0, eq).trim();
    const gone = attributes.some((a) => /^\s*max-age\s*=\s*0\s*$/i.test(a));
    if (gone) this.jar.delete(name);
    else this.jar.set(name, pair.slice(eq + 1).trim());
  }
}

/**
 * A visitor who keeps a waiting page open: it checks with the JSON answer when the page would (at most
 * every 10 s) until the origin answers. What each check saw is in `seen`: the answer's status, or
 * `origin` with the origin's page, or `unreachable`.
 */
export function keepOpen(
  visitor: Visitor,
  path: string,
): { seen: { status: string; text: string; atMs: number }[]; stop(): Promise<void> } {
  const seen: { status: string; text: string; atMs: number }[] = [];
  let stopped = false;
  const stop = () => void (stopped = true);
  watchers.add(stop);
  const done = (async () => {
    while (!stopped) {
      let wait = 5;
      try {
        const { json, text } = await visitor.get(path, { json: true });
        const answer = roomAnswer(json);
        seen.push({
          status: answer === null ? 'origin' : String(answer.status),
          text: answer === null ? text : '',
          atMs: Date.now(),
        });
        if (answer === null) return;
        wait = Math.min(10, Math.max(1, Number(answer.retryAfterSeconds)));
      } catch {
        seen.push({ status: 'unreachable', text: '', atMs: Date.now() });
      }
      await sleep(wait * 1000);
    }
  })();
  return {
    seen,
    async stop() {
      stop();
      await done;
    },
  };
}

/** The room's JSON answer (`{"waitingRoom": {...}}`), or null when the origin answered. */
export const roomAnswer = (json: Record<string, unknown> | null): Record<string, unknown> | null =>
  json !== null && typeof json.waitingRoom === 'object' && json.waitingRoom !== null
    ? (json.waitingRoom as Record<string, unknown>)
    : null;

/** The banner's text for one room: its line (and any lines under it) up to the next address. */
export function bannerRoom(banner: string, room: string): string {
  const lines = banner.split('\n');
  const at = lines.findIndex((l) => l.includes(`room ${room} `) || l.includes(`room ${room}(`));
  if (at < 0) return '';
  const rest = lines.slice(at + 1);
  const end = rest.findIndex((l) => /^\s*http:\/\//.test(l) || l.trim() === '');
  return [lines[at]!, ...rest.slice(0, end < 0 ? rest.length : end)].join('\n');
}

/** Every "N%" in a text, as numbers. */
export const percentages = (text: string): number[] =>
  [...text.matchAll(/(\d+(?:[.,]\d+)?)\s?%/g)].map((m) => Number(m[1]!.replace(',', '.')));

/**
 * The chances a draw of room `room` uses for the windows that open between `fromSec` and `toSec`, as
 * docs/control/settings.md says the edge picks them: the schedule's entry for the window (in a gap the entry
 * before it, past its end its last entry), else `allow_percentage`.
 */
export function chancesInEffect(
  store: Record<string, string>,
  room: string,
  fromSec: number,
  toSec: number,
): { chances: number[]; scheduled: boolean } {
  const own = parseObject(store[`room.${room}`]);
  const wide = parseObject(store.settings);
  const window = Number(own.wait_period_duration ?? wide.wait_period_duration ?? 20);
  const allow = Number(store[`room.${room}.allow_percentage`] ?? own.allow_percentage ?? wide.allow_percentage ?? 100);
  const text =
    parseObject(store[`room.${room}.live`]).allow_schedule ?? own.allow_schedule ?? wide.allow_schedule ?? '';
  const entries = text
    .split(',')
    .map((e) => e.split('=').map(Number) as [number, number])
    .filter(([at, pct]) => Number.isFinite(at) && Number.isFinite(pct))
    .sort((a, b) => a[0] - b[0]);
  const chances: number[] = [];
  for (let w = Math.floor(fromSec / window) * window; w <= toSec + window; w += window) {
    const entry = [...entries].reverse().find(([at]) => at <= w);
    chances.push(entry === undefined ? allow : entry[1]);
  }
  return { chances, scheduled: entries.length > 0 };
}

function parseObject(text: string | undefined): Record<string, string> {
  if (text === undefined) return {};
  try {
    return JSON.parse(text) as Record<string, string>;
  } catch {
    return {};
  }
}

/** A room's section of the report: its summary sentence and its minute-by-minute table, as text. */
export function reportRoom(html: string, room: string): { summary: string; rows: Record<string, string>[] } {
  const start = html.indexOf(`<section aria-labelledby="room-${room}">`);
  if (start < 0) return { summary: '', rows: [] };
  const section = html.slice(start, html.indexOf('</section>', start));
  const text = (s: string) =>
    s
      .replace(/<[^>]+>/g, '')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&')
      .trim();
  const summary = text(/<p>([\s\S]*?)<\/p>/.exec(section)?.[1] ?? '');
  const table = /<table>([\s\S]*?)<\/table>/.exec(section)?.[1] ?? '';
  const head = [...(/<thead>([\s\S]*?)<\/thead>/.exec(table)?.[1] ?? '').matchAll(/<th[^>]*>([\s\S]*?)<\/th>/g)].map(
    (m) => text(m[1]!),
  );
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(table)?.[1] ?? '';
  const rows = [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) => {
    const cells = [...row[1]!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((m) => text(m[1]!));
    return Object.fromEntries(head.map((h, i) => [h, cells[i] ?? '']));
  });
  return { summary, rows };
}

/** "1,006" -> 1006; "–" -> NaN. */
export const count = (text: string | undefined): number => Number((text ?? '').replace(/,/g, ''));
