// Fakes for the pure handler: a clock you move by hand, the three stores as plain maps, an echo
// origin that records what it was sent, and captured log/diag lines. The e2e suite runs the same
// scenarios against the Wasm on the host; these let them run in-process in milliseconds.
import { handle } from '../../src/core/handler.js';
import { storeFromSettings } from '../../src/core/settings/index.js';
import { mintToken, roomCookies, type MintOptions } from '../../lib/mint.js';
import type { AdmissionCounter, PenaltyBox, RoomDeps, SandboxCache } from '../../src/core/types.js';

export const KID = 'k1';
/** A fixed 64-byte key so failures reproduce. */
export const KEY_BYTES = Uint8Array.from({ length: 64 }, (_, i) => (i * 37 + 11) & 255);
export const KEY_BASE64 = Buffer.from(KEY_BYTES).toString('base64');
export const LOG = 'room_log';
/** 2026-01-01T00:00:00Z: a whole multiple of every window the tests use. */
export const T0 = Date.UTC(2026, 0, 1);

export interface SeenByOrigin {
  method: string;
  url: string;
  cookie: string | null;
  headers: Headers;
  body: string;
}

export interface VisitInit {
  path?: string;
  cookie?: string;
  headers?: Record<string, string>;
  method?: string;
  body?: string;
  ip?: string | null;
  https?: boolean;
}

export interface Answer {
  response: Response;
  body: string;
  fromOrigin: boolean;
  /** The `waiting_room` Set-Cookie lines of the answer. */
  roomCookies: string[];
  /** The decision's log line, parsed. */
  log: Record<string, unknown> | undefined;
  /** Diagnostics written during this request. */
  diags: string[];
}

export interface FakeRoomOptions {
  /** Service-wide settings, one flat set (the store's `settings` value, src/core/settings/layout.ts). */
  settings?: Record<string, string>;
  /** Raw values of `waiting_room_config` besides them: `routing`, `room.ID`, `room.ID.allow_percentage`, ... */
  store?: Record<string, string>;
  keys?: Record<string, string>;
  /** `waiting_room_pages` by key: a page name, `PAGES.NAME`, `NAME.VARIANT`, `strings.TAG`... */
  pages?: Record<string, string>;
  nowMs?: number;
  /** Replaces the echo origin (for dead origins, revoke, own Set-Cookie). */
  origin?: (request: Request) => Promise<Response>;
  /** Makes a store read as missing, as the Fastly adapter reads a store the service lacks. */
  brokenStores?: Array<'config' | 'keys' | 'pages'>;
  /** The POP's rate counter; none when absent, as on a runtime without one. */
  rateCounter?: AdmissionCounter;
  /** The POP's penalty box (hammer_limit); none when absent. */
  penaltyBox?: PenaltyBox;
  /** What a reused sandbox keeps between requests; none when absent, as a fresh sandbox each time. */
  memory?: SandboxCache;
}

/** An exact rate counter on the fake clock: counts of an entry within the last N seconds. */
export class SlidingCounter implements AdmissionCounter {
  private readonly events = new Map<string, number[]>();
  constructor(private readonly nowMs: () => number) {}
  increment(entry: string, delta: number): void {
    const list = this.events.get(entry) ?? [];
    for (let i = 0; i < delta; i++) list.push(this.nowMs());
    this.events.set(entry, list);
  }
  count(entry: string, seconds: number): number {
    const from = this.nowMs() - seconds * 1000;
    return (this.events.get(entry) ?? []).filter((t) => t > from).length;
  }
}

/** A penalty box on the fake clock: entries held for whole minutes. */
export class FakePenaltyBox implements PenaltyBox {
  private readonly until = new Map<string, number>();
  constructor(private readonly nowMs: () => number) {}
  has(entry: string): boolean {
    return (this.until.get(entry) ?? 0) > this.nowMs();
  }
  add(entry: string, minutes: number): void {
    this.until.set(entry, this.nowMs() + minutes * 60_000);
  }
}

export class FakeRoom {
  nowMs: number;
  readonly settings: Map<string, string>;
  /** Raw store values over the settings (`routing`, rooms' values); tests may change them between visits. */
  readonly store: Map<string, string>;
  /** Config Store lookups made, for tests of the lookup budget. */
  lookups = 0;
  readonly keys: Map<string, string>;
  readonly pages: Map<string, string>;
  readonly seen: SeenByOrigin[] = [];
  readonly logs: Array<{ endpoint: string; line: string }> = [];
  readonly diags: string[] = [];
  private readonly origin: (request: Request) => Promise<Response>;
  private readonly broken: Set<string>;
  private readonly rateCounter: AdmissionCounter | undefined;
  private readonly penaltyBox: PenaltyBox | undefined;
  private readonly memory: SandboxCache | undefined;

  constructor(options: FakeRoomOptions = {}) {
    this.nowMs = options.nowMs ?? T0;
    this.settings = new Map(
      Object.entries({ allow_percentage: '50', active_key: KID, log_endpoint: LOG, ...options.settings }),
    );
    this.store = new Map(Object.entries(options.store ?? {}));
    this.keys = new Map(Object.entries(options.keys ?? { [KID]: KEY_BASE64 }));
    this.pages = new Map(Object.entries(options.pages ?? {}) as Array<[string, string]>);
    this.broken = new Set(options.brokenStores ?? []);
    this.rateCounter = options.rateCounter;
    this.penaltyBox = options.penaltyBox;
    this.memory = options.memory;
    this.origin =
      options.origin ??
      (async () =>
        new Response('hello from origin', { status: 200, headers: { 'x-echo': '1', 'content-type': 'text/plain' } }));
  }

  advance(seconds: number): void {
    this.nowMs += seconds * 1000;
  }

  get nowSec(): number {
    return Math.floor(this.nowMs / 1000);
  }

  deps(ip: string | null = '192.0.2.10'): RoomDeps {
    // As the Fastly adapter answers for a store the service lacks: reported, and read as absent.
    const missing = (what: string): null => {
      this.diags.push(`store ${what} does not exist`);
      return null;
    };
    return {
      stores: {
        setting: (key) => {
          this.lookups++;
          if (this.broken.has('config')) return missing('config');
          return this.store.get(key) ?? storeFromSettings(Object.fromEntries(this.settings))[key] ?? null;
        },
        settingFailure: () => (this.broken.has('config') ? 'store config does not exist' : null),
        key: async (kid) => (this.broken.has('keys') ? missing('keys') : (this.keys.get(kid) ?? null)),
        page: (name) => {
          this.lookups++;
          return this.broken.has('pages') ? missing('pages') : (this.pages.get(name) ?? null);
        },
      },
      clientIp: ip,
      now: () => this.nowMs,
      log: (endpoint, line) => this.logs.push({ endpoint, line }),
      diag: (message) => this.diags.push(message),
      origin: async (request) => {
        this.seen.push({
          method: request.method,
          url: request.url,
          cookie: request.headers.get('cookie'),
          headers: new Headers(request.headers),
          body: await request.clone().text(),
        });
        return this.origin(request);
      },
      random: () => 0.5,
      pop: 'TST',
      rateCounter: this.rateCounter ?? null,
      penaltyBox: this.penaltyBox ?? null,
      ...(this.memory ? { memory: this.memory } : {}),
    };
  }

  async visit(init: VisitInit = {}): Promise<Answer> {
    const headers = new Headers(init.headers);
    if (init.cookie !== undefined) headers.set('cookie', init.cookie);
    const url = `${init.https ? 'https' : 'http'}://shop.example${init.path ?? '/'}`;
    const request = new Request(url, {
      method: init.method ?? 'GET',
      headers,
      ...(init.body !== undefined ? { body: init.body } : {}),
    });
    const seenBefore = this.seen.length;
    const logsBefore = this.logs.length;
    const diagsBefore = this.diags.length;
    const response = await handle(request, this.deps(init.ip === undefined ? '192.0.2.10' : init.ip));
    const body = await response.text();
    const line = this.logs.slice(logsBefore).find((l) => l.endpoint === this.settings.get('log_endpoint'));
    return {
      response,
      body,
      fromOrigin: this.seen.length > seenBefore && response.status !== 502,
      roomCookies: roomCookies(response),
      log: line ? (JSON.parse(line.line) as Record<string, unknown>) : undefined,
      diags: this.diags.slice(diagsBefore),
    };
  }
}

/** The identity the core derives for the default test address. */
export const DEFAULT_IDENTITY = 'ip:192.0.2.10';

/** A token exactly as the room would sign it. */
export async function mint(options: MintOptions): Promise<string> {
  return mintToken({ key: KEY_BYTES, kid: KID, identity: DEFAULT_IDENTITY }, options);
}
