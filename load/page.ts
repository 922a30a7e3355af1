// What a browser running the room's page does, without the browser: which answers are the room's own
// (waiting page, deny page, the JSON check) and when the page's script checks again. The rules are the
// ones in pages/parts/waiting.js (both waiting pages) and deny.js; keep them in step with those files.
//
//   waiting page  first check after S + uniform(0, J), S and J written into the page's script
//                 (Retry-After and the room's jitter); each JSON check that still says "waiting" sets the
//                 next one Retry-After (else the JSON's retryAfterSeconds, else S) + uniform(0, J) later;
//                 a check that fails to connect tries again S + uniform(0, J) later; any other answer
//                 reloads the page
//   deny page     the same, with S at least 300 s and J at least 60 s, so a closed room is not stormed
//                 when it opens; a check that no longer says "deny" reloads

export type PageKind = 'wait' | 'deny';

/** The numbers a page's script runs on. */
export interface PageTiming {
  kind: PageKind;
  /** Seconds before the first check (and after a failed one). */
  S: number;
  /** Width of the uniform jitter added to every wait, seconds. */
  J: number;
}

/** The `waitingRoom` object of the room's JSON answer, the fields the page reads. */
export interface RoomJson {
  inWaitingRoom?: unknown;
  status?: unknown;
  retryAfterSeconds?: unknown;
  jitterSeconds?: unknown;
}

/** Without a recognisable script (an operator's own page): Retry-After, and the room's largest J. */
export const FALLBACK_JITTER_SECONDS = 2;

const num = (text: string | undefined): number => Number(text ?? '') || 0;

/**
 * The timing written into a room page, or null when the HTML is not one of the built-in pages. The
 * template's `+"{{retryAfterSeconds}}"||30` reads as "the number, or 30 when it is empty or 0".
 */
export function timingFromHtml(html: string): PageTiming | null {
  const deny = /S=Math\.max\(\+"(\d*)"\|\|0,(\d+)\),J=Math\.max\(\+"(\d*)"\|\|0,(\d+)\)/.exec(html);
  if (deny) return { kind: 'deny', S: Math.max(num(deny[1]), num(deny[2])), J: Math.max(num(deny[3]), num(deny[4])) };
  const wait = /var S=\+"(\d*)"\|\|(\d+),J=\+"(\d*)"\|\|(\d+)/.exec(html);
  if (wait) return { kind: 'wait', S: num(wait[1]) || num(wait[2]), J: num(wait[3]) || num(wait[4]) };
  return null;
}

/** The room's JSON answer, or null when the body is anything else (the origin's answer). */
export function roomJson(body: string): RoomJson | null {
  if (!body.trimStart().startsWith('{')) return null;
  try {
    const parsed = JSON.parse(body) as { waitingRoom?: unknown };
    const w = parsed?.waitingRoom;
    return typeof w === 'object' && w !== null ? (w as RoomJson) : null;
  } catch {
    return null;
  }
}

/** `Retry-After` as the page reads it (`parseInt`), or NaN. */
export function retryAfter(header: string | null): number {
  return header === null ? Number.NaN : Number.parseInt(header, 10);
}

/** What a page does after one of its JSON checks. */
export type CheckStep = { next: 'wait'; seconds: number } | { next: 'reload' };

/**
 * The page's reaction to a check's answer: `json` is the parsed `waitingRoom` (null when the answer was
 * not the room's JSON), `retryAfterHeader` the answer's header, `u` a uniform [0, 1) for the jitter.
 */
export function afterCheck(
  page: PageTiming,
  json: RoomJson | null,
  retryAfterHeader: string | null,
  u: number,
): CheckStep {
  if (page.kind === 'deny') {
    return json !== null && json.status === 'deny'
      ? { next: 'wait', seconds: page.S + u * page.J }
      : { next: 'reload' };
  }
  if (json === null || json.inWaitingRoom !== true || json.status === 'deny') return { next: 'reload' };
  const ra = retryAfter(retryAfterHeader);
  const fromJson = typeof json.retryAfterSeconds === 'number' ? json.retryAfterSeconds : 0;
  const base = ra > 0 ? ra : fromJson > 0 ? fromJson : page.S;
  return { next: 'wait', seconds: base + u * page.J };
}

/** The wait before the first check, and after a check that could not connect. */
export function firstWait(page: PageTiming, u: number): number {
  return page.S + u * page.J;
}
