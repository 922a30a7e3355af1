// A stand-in for the room as seen from a browser tab: Playwright answers the page's own requests
// for https://shop.test/ (no server, no network), so a test decides what each check returns and
// sees every request the page made.
import type { BrowserContext, Page, Route } from 'playwright-core';
import { source as solverSource } from 'waiting-room:solver';
import type { PageLanguage } from '../../src/core/i18n/page-language.js';
import { renderPage, type PageVars } from '../../src/core/pages/pages.js';
import { answerText } from '../../src/core/pages/pages-view.js';
import { SOLVER_PATH } from '../../src/core/pages/solver-asset.js';
import type { PageName } from '../../src/core/types.js';

export const SHOP_URL = 'https://shop.test/tickets';
export const SHOP_HTML =
  '<!doctype html><html lang="en"><title>Shop</title><main><h1>Welcome to the shop</h1></main></html>';

export function pageVars(status: PageName, over: Partial<PageVars> = {}): PageVars {
  const waiting = status !== 'deny';
  return {
    status,
    retryAfterSeconds: 20,
    refreshIntervalSeconds: 25,
    jitterSeconds: 10,
    allowPercentage: waiting ? 20 : 0,
    waitPeriodSeconds: 30,
    hasEstimate: waiting,
    waitTime25PercentileSeconds: waiting ? 65 : null,
    waitTime50PercentileSeconds: waiting ? 140 : null,
    waitTime75PercentileSeconds: waiting ? 230 : null,
    message: '',
    eventStartIso: null,
    startsInSeconds: null,
    visitorsAhead: null,
    turnInSeconds: null,
    closed: false,
    queueingMethod: 'random',
    ...over,
  };
}

/** `more`: template variables PageVars does not name (yet), such as the proof's; `language`: absent, English alone. */
export function render(
  status: PageName,
  over: Partial<PageVars> = {},
  more: Record<string, unknown> = {},
  language?: PageLanguage,
): string {
  const vars = { ...pageVars(status, over), ...more } as PageVars;
  const diag = (m: string) => {
    throw new Error(`unexpected diagnostic: ${m}`);
  };
  return renderPage(status, null, vars, diag, language && { ...language, message: vars.message });
}

/** What the page's next check (a fetch asking for JSON) gets back. */
export type CheckAnswer =
  | {
      kind: 'room';
      status: PageName;
      retryAfter: number;
      estimate?: [number, number, number];
      noHeader?: boolean;
      /** More fields of the JSON answer (a place in line, the message, the countdown). */
      extra?: Record<string, unknown>;
      /** The page a reload shows is rendered with these too. */
      vars?: Partial<PageVars>;
    }
  | { kind: 'origin' }
  | { kind: 'network-error' };

export interface FakeRoom {
  /** Document loads, in order: 'room' (a waiting/deny page) or 'origin'. */
  documents: string[];
  /** Accept headers of the page's background checks, in order. */
  checks: string[];
  /** The `waiting-room-proof` header of each check (null: none sent). */
  proofs: (string | null)[];
  /**
   * Answer to the next checks; also decides what a reload shows: the shop once admitted, the page a
   * room answer names (rendered afresh), or the first page again.
   */
  answer: CheckAnswer;
}

export async function serveRoom(context: BrowserContext, firstPage: string, answer: CheckAnswer): Promise<FakeRoom> {
  const room: FakeRoom = { documents: [], checks: [], proofs: [], answer };
  await context.route('https://shop.test/**', async (route: Route) => {
    const request = route.request();
    // The solver, as the edge serves it (src/core/pages/solver-asset.ts): to the page and to its worker.
    if (new URL(request.url()).pathname === SOLVER_PATH)
      return route.fulfill({ contentType: 'text/javascript', body: solverSource });
    if (request.resourceType() === 'document') {
      const reload = room.documents.length > 0;
      const a = room.answer;
      const admitted = reload && a.kind === 'origin';
      room.documents.push(admitted ? 'origin' : 'room');
      const body = admitted
        ? SHOP_HTML
        : reload && a.kind === 'room'
          ? render(a.status, { retryAfterSeconds: a.retryAfter, ...a.vars })
          : firstPage;
      await route.fulfill({ contentType: 'text/html; charset=utf-8', body });
      return;
    }
    room.checks.push(request.headers().accept ?? '');
    room.proofs.push(request.headers()['waiting-room-proof'] ?? null);
    const a = room.answer;
    if (a.kind === 'network-error') return route.abort('connectionreset');
    if (a.kind === 'origin') return route.fulfill({ contentType: 'text/html', body: SHOP_HTML });
    const [p25, p50, p75] = a.estimate ?? [null, null, null];
    const extra = (a.extra ?? {}) as Partial<
      Record<'visitorsAhead' | 'turnInSeconds' | 'startsInSeconds', number | null>
    > & { message?: string };
    // The live text as the edge writes it (answer-body.ts): the page shows it as it is.
    const text = answerText(
      pageVars(a.status, {
        retryAfterSeconds: a.retryAfter,
        hasEstimate: a.estimate !== undefined,
        waitTime25PercentileSeconds: p25,
        waitTime50PercentileSeconds: p50,
        waitTime75PercentileSeconds: p75,
        visitorsAhead: extra.visitorsAhead ?? null,
        turnInSeconds: extra.turnInSeconds ?? null,
        startsInSeconds: extra.startsInSeconds ?? null,
        message: extra.message ?? '',
      }),
    );
    await route.fulfill({
      contentType: 'application/json',
      headers: a.noHeader
        ? { 'Cache-Control': 'no-store, private' }
        : { 'Retry-After': String(a.retryAfter), 'Cache-Control': 'no-store, private' },
      body: JSON.stringify({
        waitingRoom: {
          inWaitingRoom: true,
          status: a.status,
          retryAfterSeconds: a.retryAfter,
          refreshIntervalSeconds: a.retryAfter + 3,
          waitTime25PercentileSeconds: p25,
          waitTime50PercentileSeconds: p50,
          waitTime75PercentileSeconds: p75,
          language: 'en-US',
          languages: ['en-US'],
          text,
          ...a.extra,
        },
      }),
    });
  });
  return room;
}

/**
 * Pins Math.random, so the jitter the page draws is known, and counts fetch calls the moment the
 * page makes them (before any network round trip), so "not yet" is not a race.
 */
export async function instrument(page: Page, random: number): Promise<void> {
  await page.addInitScript((r: number) => {
    Math.random = () => r;
    const w = window as unknown as { __checks: number };
    w.__checks = 0;
    const real = window.fetch.bind(window);
    window.fetch = (...args: Parameters<typeof fetch>) => {
      w.__checks++;
      return real(...args);
    };
  }, random);
}

export function checksMade(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __checks: number }).__checks);
}
