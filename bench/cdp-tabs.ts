// A full Chromium driven over the DevTools protocol alone, for what Playwright cannot show: a tab in
// the background. Playwright keeps every page it drives visible (it emulates focus on each), and the
// headless shell the tests use (@sparticuz/chromium) has no tabs, so every page in it stays
// 'visible' whatever is opened over it. Here a page opened over another in the same window hides it,
// as in a visitor's browser, and Chromium throttles its timers as it would a real background tab.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

type Json = Record<string, unknown>;
type Listener = (params: Json, sessionId: string | undefined) => void;

/** One WebSocket to the browser; page sessions are flattened onto it (Target.attachToTarget). */
export class Cdp {
  #ws: WebSocket;
  #next = 1;
  #pending = new Map<number, { resolve: (v: Json) => void; reject: (e: Error) => void }>();
  #listeners = new Map<string, Listener[]>();

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.onmessage = (event) => {
      const m = JSON.parse(String(event.data)) as {
        id?: number;
        result?: Json;
        error?: { message: string };
        method?: string;
        params?: Json;
        sessionId?: string;
      };
      if (m.id !== undefined) {
        const p = this.#pending.get(m.id);
        this.#pending.delete(m.id);
        if (m.error) p?.reject(new Error(m.error.message));
        else p?.resolve(m.result ?? {});
      } else if (m.method) {
        for (const l of this.#listeners.get(m.method) ?? []) l(m.params ?? {}, m.sessionId);
      }
    };
  }

  static async connect(url: string): Promise<Cdp> {
    if (typeof WebSocket === 'undefined')
      throw new Error('this needs a WebSocket client: Node.js 22 or later, or NODE_OPTIONS=--experimental-websocket');
    const ws = new WebSocket(url);
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = () => reject(new Error(`cannot connect to ${url}`));
    });
    return new Cdp(ws);
  }

  send<T = Json>(method: string, params: Json = {}, sessionId?: string): Promise<T> {
    const id = this.#next++;
    this.#ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    return new Promise((resolve, reject) => this.#pending.set(id, { resolve: resolve as (v: Json) => void, reject }));
  }

  on(method: string, listener: Listener): void {
    this.#listeners.set(method, [...(this.#listeners.get(method) ?? []), listener]);
  }

  close(): void {
    this.#ws.close();
  }
}

/** A page target and its session. */
export interface Tab {
  targetId: string;
  session: string;
  context: string;
}

export interface FullChromium {
  cdp: Cdp;
  process: ChildProcess;
  /** A fresh browser context (its own cookies: one visitor), with its first tab. */
  newVisitor(): Promise<Tab>;
  /** Another tab in the same window, in front: the one it covers is hidden. */
  openOver(tab: Tab): Promise<Tab>;
  evaluate<T>(tab: Tab, expression: string): Promise<T>;
  close(): Promise<void>;
}

const FULL_CHROMIUM_PATHS = ['/usr/bin/chromium', '/usr/lib/chromium/chromium', '/usr/bin/google-chrome'];

/** CHROMIUM_PATH, else a system Chromium; null without one (the packaged headless shell has no tabs). */
export function fullChromiumPath(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH;
  return FULL_CHROMIUM_PATHS.find((p) => existsSync(p)) ?? null;
}

/** Starts Chromium (new headless mode, no Playwright and none of its flags that stop background throttling). */
export async function startFullChromium(executable: string): Promise<FullChromium> {
  const profile = await mkdtemp(path.join(tmpdir(), 'wr-tabs-'));
  const child = spawn(
    executable,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  const portFile = path.join(profile, 'DevToolsActivePort');
  let lines: string[] = [];
  for (let i = 0; i < 200 && lines.length < 2; i++) {
    await new Promise((r) => setTimeout(r, 100));
    lines = (await readFile(portFile, 'utf8').catch(() => '')).split('\n').filter(Boolean);
  }
  if (lines.length < 2) {
    child.kill();
    throw new Error(`${executable} did not open its DevTools port`);
  }
  const cdp = await Cdp.connect(`ws://127.0.0.1:${lines[0]}${lines[1]}`);
  const attach = async (targetId: string, context: string): Promise<Tab> => {
    const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
    return { targetId, session: sessionId, context };
  };
  return {
    cdp,
    process: child,
    async newVisitor() {
      const { browserContextId } = await cdp.send<{ browserContextId: string }>('Target.createBrowserContext');
      const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', {
        url: 'about:blank',
        browserContextId,
      });
      return attach(targetId, browserContextId);
    },
    async openOver(tab) {
      const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', {
        url: 'about:blank',
        browserContextId: tab.context,
        newWindow: false,
      });
      return attach(targetId, tab.context);
    },
    async evaluate<T>(tab: Tab, expression: string) {
      const r = await cdp.send<{ result: { value: T } }>(
        'Runtime.evaluate',
        { expression, returnByValue: true },
        tab.session,
      );
      return r.result.value;
    },
    async close() {
      await cdp.send('Browser.close').catch(() => undefined);
      cdp.close();
      await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)));
      await rm(profile, { recursive: true, force: true });
    },
  };
}
