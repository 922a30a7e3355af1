// One virtual browser: one visitor with their own identity and cookie jar, following the room's page
// as its script does (load/page.ts), then browsing the site for a session once let in. Everything
// outside (the clock, the network, the random stream, the bookkeeping) comes in through BrowserDeps,
// so the tests run a browser on a fake clock against a fake room.
import type { Clock } from './clock.js';
import { CookieJar } from './jar.js';
import {
  afterCheck,
  FALLBACK_JITTER_SECONDS,
  firstWait,
  retryAfter,
  roomJson,
  timingFromHtml,
  type PageTiming,
  type RoomJson,
} from './page.js';
import type { EventKind } from './tally.js';

export interface LoadRequest {
  path: string;
  /** The page's own check (Accept: application/json) rather than a page load. */
  json: boolean;
  cookie: string | null;
  visitor: string;
}

export interface LoadAnswer {
  status: number;
  retryAfter: string | null;
  setCookies: string[];
  body: string;
}

/** Sends one request; rejects when no answer came (refused, reset, timed out), with the cause as message. */
export type Send = (request: LoadRequest) => Promise<LoadAnswer>;

export interface BrowserDeps {
  clock: Clock;
  send: Send;
  /** Uniform [0, 1). */
  random: () => number;
  report: (kind: EventKind, atMs: number, cause?: string) => void;
}

export interface BrowserProfile {
  /** How long they wait once on a waiting page before giving up (ms). */
  patienceMs: number;
  /** How long they browse once let in (ms). */
  sessionMs: number;
  /** Mean seconds between two pages while browsing (exponential, at least 2 s). */
  thinkMeanSeconds: number;
}

type Answer =
  | { kind: 'page'; timing: PageTiming }
  | { kind: 'json'; json: RoomJson; retryAfter: string | null }
  | { kind: 'origin' }
  | { kind: 'failed' };

/** A person whose page load failed tries again after this long (ms), while their patience lasts. */
const RELOAD_AFTER_ERROR_MS: readonly [number, number] = [5_000, 15_000];
const BROWSE_PATHS = ['/products', '/'];

export class VirtualBrowser {
  readonly jar = new CookieJar();
  state: 'new' | 'waiting' | 'browsing' | 'gone' = 'new';
  arrivedMs: number | null = null;
  /** First waiting page: patience counts from here (a deny page does not use it up). */
  queuedMs: number | null = null;
  admittedMs: number | null = null;
  private sessionEndMs = 0;
  private pages = 0;
  private cancel: (() => void) | null = null;

  constructor(
    readonly id: string,
    private readonly deps: BrowserDeps,
    private readonly profile: BrowserProfile,
  ) {}

  start(): void {
    this.arrivedMs = this.deps.clock.now();
    this.state = 'waiting';
    this.deps.report('arrival', this.arrivedMs);
    void this.navigate('/');
  }

  /** The run is over: no more requests, and answers still on their way are ignored. */
  stop(): void {
    this.cancel?.();
    this.cancel = null;
    this.state = 'gone';
  }

  private later(ms: number, fn: () => void): void {
    this.cancel?.();
    this.cancel = this.deps.clock.after(ms, () => {
      this.cancel = null;
      if (this.state !== 'gone') fn();
    });
  }

  /** One request through the jar; the answer read the way the page (or the browser) would read it. */
  private async exchange(path: string, json: boolean): Promise<Answer> {
    const { clock, report } = this.deps;
    report('request', clock.now());
    let answer: LoadAnswer;
    try {
      answer = await this.deps.send({ path, json, cookie: this.jar.header(clock.now()), visitor: this.id });
    } catch (error) {
      if (this.state !== 'gone') report('error', clock.now(), error instanceof Error ? error.message : String(error));
      return { kind: 'failed' };
    }
    const now = clock.now();
    this.jar.store(answer.setCookies, now);
    if (json) {
      const w = roomJson(answer.body);
      if (w !== null) return { kind: 'json', json: w, retryAfter: answer.retryAfter };
    } else {
      const timing = timingFromHtml(answer.body);
      if (timing !== null) return { kind: 'page', timing };
      // An operator's own page carries no script we know: it is the room's when the jar holds a wait
      // token and the answer says when to come back.
      const kind = this.jar.roomTokenKind(now);
      const ra = retryAfter(answer.retryAfter);
      if ((kind === 'wait' || kind === 'won') && ra > 0)
        return { kind: 'page', timing: { kind: 'wait', S: ra, J: FALLBACK_JITTER_SECONDS } };
    }
    if (answer.status >= 500) {
      if (this.state !== 'gone') report('error', now, `HTTP ${answer.status}`);
      return { kind: 'failed' };
    }
    return { kind: 'origin' };
  }

  private async navigate(path: string): Promise<void> {
    const answer = await this.exchange(path, false);
    if (this.state === 'gone') return;
    const now = this.deps.clock.now();
    switch (answer.kind) {
      case 'page':
        if (answer.timing.kind === 'wait' && this.queuedMs === null) this.queuedMs = now;
        this.waitThen(firstWait(answer.timing, this.deps.random()), () => void this.check(path, answer.timing));
        return;
      case 'origin':
        this.admitted(now);
        this.browseNext();
        return;
      case 'json':
      case 'failed':
        if (this.admittedMs !== null) this.browseNext();
        else
          this.waitThen(
            this.uniform(RELOAD_AFTER_ERROR_MS) / 1000,
            () => void this.navigate(path),
            this.queuedMs ?? this.arrivedMs,
          );
        return;
    }
  }

  /** The page's JSON check, and what its script does with the answer. */
  private async check(path: string, page: PageTiming): Promise<void> {
    const answer = await this.exchange(path, true);
    if (this.state === 'gone') return;
    if (answer.kind === 'failed') {
      this.waitThen(firstWait(page, this.deps.random()), () => void this.check(path, page));
      return;
    }
    if (answer.kind === 'origin') {
      // The room let this check through to the origin: that is the admission; the page then reloads.
      this.admitted(this.deps.clock.now());
      void this.navigate(path);
      return;
    }
    const json = answer.kind === 'json' ? answer.json : null;
    const step = afterCheck(page, json, answer.kind === 'json' ? answer.retryAfter : null, this.deps.random());
    if (step.next === 'reload') void this.navigate(path);
    else this.waitThen(step.seconds, () => void this.check(path, page));
  }

  /** Waits `seconds`, then `fn`; or gives up at the end of their patience if that comes first. */
  private waitThen(seconds: number, fn: () => void, patienceFrom: number | null = this.queuedMs): void {
    const now = this.deps.clock.now();
    const giveUpAt = patienceFrom === null ? Number.POSITIVE_INFINITY : patienceFrom + this.profile.patienceMs;
    if (now + seconds * 1000 > giveUpAt) {
      this.later(giveUpAt - now, () => {
        this.state = 'gone';
        this.deps.report('gaveUp', this.deps.clock.now());
      });
      return;
    }
    this.later(seconds * 1000, fn);
  }

  private admitted(now: number): void {
    if (this.admittedMs !== null) return;
    this.admittedMs = now;
    this.state = 'browsing';
    this.sessionEndMs = now + this.profile.sessionMs;
    this.deps.report('admission', now);
  }

  /** The next page of the session after a think time, or leave when the session is over. */
  private browseNext(): void {
    const now = this.deps.clock.now();
    const think = Math.max(2, -this.profile.thinkMeanSeconds * Math.log(1 - this.deps.random())) * 1000;
    if (now + think > this.sessionEndMs) {
      this.state = 'gone';
      this.deps.report('left', now);
      return;
    }
    const path = BROWSE_PATHS[this.pages++ % BROWSE_PATHS.length]!;
    this.later(think, () => void this.navigate(path));
  }

  private uniform([lo, hi]: readonly [number, number]): number {
    return lo + (hi - lo) * this.deps.random();
  }
}
