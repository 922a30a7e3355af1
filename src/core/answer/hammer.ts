// Hammering costs the hammerer (setting `hammer_limit`): a wait token that checks far more often than
// its page would (the page comes back once, when the token falls due) is answered 429 with the seconds
// until it is due, before any signature is checked. The cheap path: the token's claims and signature
// are read, never verified (no HMAC), and counted with the POP's own rate counter and penalty box, so
// it costs no network round trip and knows nothing of other POPs.
//
// Keyed by the token's signature text, never by address: an office or a carrier puts thousands behind
// one. Nobody loses a draw or a place to it: a token that is due is always decided as ever, boxed or
// not, and a forged token gains nothing here that the decision would not refuse anyway.
import { decodeBase64url } from '../tokens/index.js';
import { dueAt, retryAfterSeconds, resultWith, type DecideResult, MAX_TOKEN_CHARS, roomOf } from '../decision/index.js';
import { escapeHtml, htmlOpen } from './html-text.js';
import type { Strings } from '../i18n/index.js';
import type { Config, RoomDeps } from '../types.js';

/**
 * What the operator is told, once per sandbox and in these very words, when the limit cannot be
 * counted (no rate counter, or a call to it failed): the limit is on by default, so it must read true
 * to an operator who set nothing, and say the command that settles it.
 */
export const HAMMER_DIAG =
  'hammer_limit (on unless set to 0) is skipped: this service has no working edge rate limiter. ' +
  'Add Edge Rate Limiting to the service, or turn the limit off: npm run tune -- hammer_limit=0';

/** The counter's span (Fastly counts over 10 to 60 s) and the box's time (whole minutes, 1 to 60). */
const SPAN_SECONDS = 60;
const BOX_MINUTES = 1;
/** HS512: a signature is 64 bytes. */
const SIGNATURE_BYTES = 64;

/** A wait token as the cheap path reads it: unverified. */
export interface WaitTokenSeen {
  token: string;
  exp: number;
  signature: Uint8Array;
  /** The counter's and the box's entry: the signature's text. */
  entry: string;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** A room cookie whose payload reads as a `wait` token of room `room`, with a signature of the right size; else null. */
export function readWaitToken(token: string, room: string): WaitTokenSeen | null {
  if (token.length > MAX_TOKEN_CHARS) return null;
  const first = token.indexOf('.');
  const last = token.lastIndexOf('.');
  if (first < 0 || first === last || token.indexOf('.', first + 1) !== last) return null;
  try {
    const claims: unknown = JSON.parse(decoder.decode(decodeBase64url(token.slice(first + 1, last))));
    if (typeof claims !== 'object' || claims === null) return null;
    const { dec, exp, room: of } = claims as Record<string, unknown>;
    if (dec !== 'wait' || of !== room || typeof exp !== 'number' || !Number.isSafeInteger(exp)) return null;
    const entry = token.slice(last + 1);
    const signature = decodeBase64url(entry);
    if (signature.length !== SIGNATURE_BYTES) return null;
    return { token, exp, signature, entry };
  } catch {
    return null;
  }
}

/** A check answered 429: the token, and when it falls due (epoch s). */
export interface Hammered {
  seen: WaitTokenSeen;
  dueSec: number;
  retryAfterSeconds: number;
}

export interface HammerInput {
  config: Pick<Config, 'hammerLimit' | 'waitPeriodSeconds' | 'room'>;
  /** The room's cookie values, in order. */
  tokens: readonly string[];
  nowMs: number;
  /** The POP's rate counter and penalty box, read only once a wait token is found (a paid product: opened when needed). */
  deps: Pick<RoomDeps, 'rateCounter' | 'penaltyBox'>;
  /** A diagnostic told once per sandbox. */
  note(message: string): void;
}

/** The room cookies counted on one request: more than this is garbage, and only the first ones count. */
export const MAX_COUNTED_TOKENS = 4;

/**
 * Counts the check of every wait token of the room's cookie (the first four, each once) and answers
 * whether the request is to be refused: any of them over the limit in the last minute or in the box
 * (either boxes it for a minute) and not yet due. Counting them all keeps a forged token sent first
 * from starting the count afresh while the decision reads the real one behind it. The answer waits
 * for the latest of the refused tokens' due times. Null for everything else: no limit, no counter
 * (told once), no wait token, or only due ones over the limit.
 */
export function checkHammering(input: HammerInput): Hammered | null {
  const { config } = input;
  if (config.hammerLimit <= 0) return null;
  const room = roomOf(config);
  const seen = new Map<string, WaitTokenSeen>();
  for (const token of input.tokens.slice(0, MAX_COUNTED_TOKENS)) {
    const one = readWaitToken(token, room);
    if (one !== null && !seen.has(one.entry)) seen.set(one.entry, one);
  }
  if (seen.size === 0) return null;
  const counter = input.deps.rateCounter;
  if (!counter) {
    input.note(HAMMER_DIAG);
    return null;
  }
  let refused: Hammered | null = null;
  try {
    const box = input.deps.penaltyBox;
    for (const one of seen.values()) {
      counter.increment(one.entry, 1);
      const boxed = counter.count(one.entry, SPAN_SECONDS) > config.hammerLimit || box?.has(one.entry) === true;
      if (!boxed) continue;
      box?.add(one.entry, BOX_MINUTES);
      const dueSec = dueAt(one.signature, one.exp, config);
      if (input.nowMs >= dueSec * 1000 || (refused !== null && refused.dueSec >= dueSec)) continue;
      refused = {
        seen: one,
        dueSec,
        retryAfterSeconds: retryAfterSeconds(dueSec, input.nowMs, config.waitPeriodSeconds),
      };
    }
  } catch {
    input.note(HAMMER_DIAG);
    return null;
  }
  return refused;
}

/** The decision's shape for the log line: a waiting decision about the token, sampled like one. */
export function hammeringResult(h: Hammered): DecideResult {
  return resultWith({
    decision: 'wait',
    outcome: 'keepwaiting',
    reason: 'hammering',
    waitDueSec: h.dueSec,
    waitExpirySec: h.seen.exp,
    used: { token: h.seen.token, dec: 'wait', exp: h.seen.exp },
  });
}

/** The 429's page: it reloads itself when the token is due (`refresh`; a preview's does not). */
export function hammerHtml(strings: Strings, seconds: number, refresh = true): string {
  const reload = refresh ? `<meta http-equiv="refresh" content="${seconds}">` : '';
  return (
    `${htmlOpen(strings)}<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `${reload}<title>${escapeHtml(strings.text('hammerTitle'))}</title></head><body><main><h1>${escapeHtml(strings.text('hammerHeading'))}</h1>` +
    `<p>${escapeHtml(strings.text('hammerBody', { seconds }))}</p></main></body></html>`
  );
}

/** The 429: short, uncached, no cookie change, in the visitor's language; the page comes back by itself when the token is due. */
export function hammeringResponse(h: Hammered, json: boolean, head: boolean, strings: Strings): Response {
  const n = h.retryAfterSeconds;
  const body = json
    ? JSON.stringify({
        waitingRoom: {
          inWaitingRoom: true,
          status: 'keepwaiting',
          retryAfterSeconds: n,
          hammering: true,
          language: strings.tag,
        },
      })
    : hammerHtml(strings, n);
  return new Response(head ? null : body, {
    status: 429,
    headers: {
      'Cache-Control': 'no-store, private',
      'Retry-After': String(n),
      'Content-Type': json ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8',
    },
  });
}
