// Waiting and deny pages: a Mustache template from `waiting_room_pages` (base64, as the Fastly
// solution pattern stores it) or the built-in one from pages/, rendered with the visitor's numbers.
// Pure and runtime-neutral: atob + TextDecoder exist in SpiderMonkey (js-compute) and Node alike.
import Mustache from 'mustache';
import deny from '../../pages/deny.html';
import prequeue from '../../pages/prequeue.html';
import waiting from '../../pages/waiting.html';
import { waitingPage } from './page-variants.js';
import { SOLVER_PATH } from './solver-asset.js';
import type { PageName } from './types.js';

export interface PageVars {
  status: PageName;
  /** Seconds until the visitor's token may be drawn (the Retry-After header). */
  retryAfterSeconds: number;
  /** Seconds after which a page without script reloads (Retry-After plus the server's jitter). */
  refreshIntervalSeconds: number;
  /** The page adds uniform(0, jitterSeconds) to retryAfterSeconds before checking again. */
  jitterSeconds: number;
  allowPercentage: number;
  waitPeriodSeconds: number;
  /** False when no estimate makes sense (deny, or the room admits nobody). */
  hasEstimate: boolean;
  /** The visitor will be drawn, but the room has no forecast yet (answer.ts): the page says it is working the wait out. Absent: false. */
  waitTimePending?: boolean;
  waitTime25PercentileSeconds: number | null;
  waitTime50PercentileSeconds: number | null;
  waitTime75PercentileSeconds: number | null;
  /** The operator's `message`, '' when none (Mustache escapes it). */
  message: string;
  /** Pre-queue page: the event start as ISO 8601 UTC text, and whole seconds until it; null elsewhere. */
  eventStartIso: string | null;
  startsInSeconds: number | null;
  /** A visitor holding a place (fifo, or the shuffled pre-queue after the start): visitors ahead and whole seconds until their turn; each null when unknown or not in such a queue. */
  visitorsAhead: number | null;
  turnInSeconds: number | null;
  /** The deny page shown because the event ended with event_end_action = close. */
  closed: boolean;
  /** `queueing_method`: the pages explain a draw or a line accordingly. */
  queueingMethod: 'random' | 'fifo';
  /** The draw asks for a proof of work (docs/bots.md): the page's solver works it out. Absent: false. */
  proofRequired?: boolean;
  /** Its difficulty, expected seconds on a low-end phone; null (or absent) when none is asked. */
  proofSeconds?: number | null;
  /** The puzzle in its compact form (`1.M.salt.noncePrefix.P0.….P7`) for the page's solver; null (or absent) when none is asked. */
  proofCompact?: string | null;
  /** Where the page loads the proof-of-work solver (the edge serves it: src/core/solver-asset.ts). Absent: the built-in solver's path. */
  solverUrl?: string;
}

export const builtinPages: Record<PageName, string> = {
  startwaiting: waitingPage(waiting, 'startwaiting'),
  keepwaiting: waitingPage(waiting, 'keepwaiting'),
  prequeue,
  deny,
};

/**
 * A wait as people say it. Estimates are rough (a random draw), so round generously rather than
 * show false precision: "about 3 minutes", never "2 minutes 47 seconds".
 */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return 'an unknown time';
  if (seconds < 60) return 'less than a minute';
  const minutes = Math.round(seconds / 60);
  if (minutes <= 1) return 'about a minute';
  if (minutes < 60) return `about ${minutes} minutes`;
  // Half hours are precise enough past an hour.
  const hours = Math.round(seconds / 1800) / 2;
  if (hours === 1) return 'about an hour';
  return `about ${hours} hours`;
}

/**
 * Visitors ahead, as people say it. The count is the controller's estimate of who will still be
 * there, so it is rounded (to 5 under a hundred, 10 under a thousand, then 100): "about 1,200
 * people" promises no more precision than it has.
 */
export function formatPeople(count: number | null): string | null {
  if (count === null || !Number.isFinite(count) || count < 0) return null;
  const n = Math.round(count);
  if (n === 0) return 'nobody';
  if (n < 10) return n === 1 ? '1 person' : `${n} people`;
  const step = n < 100 ? 5 : n < 1000 ? 10 : 100;
  return `about ${(Math.round(n / step) * step).toLocaleString('en-US')} people`;
}

/**
 * A range of waits: "about 2 to 10 minutes" when both ends share a unit, else "less than a minute
 * to about 3 minutes". The built-in pages repeat this in their script to refresh the estimate live.
 */
export function formatDurationRange(fromSeconds: number, toSeconds: number): string {
  const from = formatDuration(fromSeconds);
  const to = formatDuration(toSeconds);
  if (from === to) return from;
  const sameUnit = /^about ([\d.]+) (minutes|hours)$/;
  const a = sameUnit.exec(from);
  const b = sameUnit.exec(to);
  if (a && b && a[2] === b[2]) return `about ${a[1]} to ${b[1]} ${a[2]}`;
  return `${from} to ${to}`;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * A moment as people read it, in UTC and saying so: "Tuesday 1 December 2026, 10:00 UTC". The
 * runtime has no Intl, so no local zone here: the countdown's script shows the visitor's own time and
 * zone, and this is what a page without script shows. Null for what is not a time.
 */
export function formatUtc(iso: string | null): string | null {
  const t = iso === null ? NaN : Date.parse(iso);
  if (!Number.isFinite(t)) return null;
  const d = new Date(t);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`;
}

/** What the page says while the room has no forecast of the wait (docs/how-it-works.md). */
export const WAIT_PENDING_TEXT = 'We are still working it out. This page shows it as soon as it is known.';

/** Everything a template can use: the numbers as given plus ready-made text for people. */
export function templateView(vars: PageVars): Record<string, unknown> {
  const p25 = vars.waitTime25PercentileSeconds;
  const p50 = vars.waitTime50PercentileSeconds;
  const p75 = vars.waitTime75PercentileSeconds;
  // A half-filled estimate is a caller's bug; showing nothing beats showing "null minutes".
  const estimate = vars.hasEstimate && p25 !== null && p50 !== null && p75 !== null ? { p25, p50, p75 } : null;
  const coincide = estimate !== null && formatDuration(estimate.p25) === formatDuration(estimate.p50) && formatDuration(estimate.p50) === formatDuration(estimate.p75);
  const pending = estimate === null && vars.waitTimePending === true;
  return {
    ...vars,
    proofRequired: vars.proofRequired === true,
    proofSeconds: vars.proofSeconds ?? null,
    proofCompact: vars.proofCompact ?? null,
    solverUrl: vars.solverUrl ?? SOLVER_PATH,
    hasEstimate: estimate !== null,
    waitTimePending: pending,
    // The wait's section: the estimate, or the words saying it is being worked out (the page's script
    // fills in the figures when a later check brings them).
    showWait: estimate !== null || pending,
    waitTimesList: estimate !== null && !coincide,
    isStartWaiting: vars.status === 'startwaiting',
    isKeepWaiting: vars.status === 'keepwaiting',
    isDeny: vars.status === 'deny',
    isPrequeue: vars.status === 'prequeue',
    isClosed: vars.closed,
    isFifo: vars.queueingMethod === 'fifo',
    hasMessage: vars.message !== '',
    startsInFormatted: vars.startsInSeconds === null ? null : formatDuration(vars.startsInSeconds),
    eventStartFormatted: formatUtc(vars.eventStartIso),
    hasPlace: vars.visitorsAhead !== null || vars.turnInSeconds !== null,
    visitorsAheadFormatted: formatPeople(vars.visitorsAhead),
    turnInFormatted: vars.turnInSeconds === null ? null : formatDuration(vars.turnInSeconds),
    retryAfterFormatted: formatDuration(vars.retryAfterSeconds),
    waitTime25Formatted: estimate && formatDuration(estimate.p25),
    waitTime50Formatted: estimate && formatDuration(estimate.p50),
    waitTime75Formatted: estimate && formatDuration(estimate.p75),
    // The middle half of visitors in one phrase, as Cloudflare's `waitTimeFormatted` ("5 minutes to 15 minutes").
    waitTimeFormatted: estimate && formatDurationRange(estimate.p25, estimate.p75),
    // When the three figures read the same, one sentence says it instead of the same words three times.
    waitTimesCoincide: coincide,
    waitTimeSummary: estimate
      ? coincide
        ? `Most visitors get in within ${estimate.p75 < 60 ? 'a minute' : formatDuration(estimate.p75)}`
        : formatDurationRange(estimate.p25, estimate.p75)
      : pending
        ? WAIT_PENDING_TEXT
        : null,
  };
}

/**
 * UTF-8 text from bytes, or null when the bytes are not UTF-8. js-compute's TextDecoder has no
 * `fatal` mode (it always replaces bad bytes with U+FFFD), so validity is checked by re-encoding:
 * only valid UTF-8 survives the round trip byte for byte.
 */
function decodeUtf8(bytes: Uint8Array): string | null {
  const text = new TextDecoder().decode(bytes);
  if (!text.includes('\uFFFD')) return text;
  const again = new TextEncoder().encode(text);
  const hasBom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);
  return same(again, bytes) || (hasBom && same(again, bytes.subarray(3))) ? text : null;
}

/** The stored value as template text, or a reason it cannot be one. */
function decodeStored(storedBase64: string): { text: string } | { problem: string } {
  const compact = storedBase64.replace(/\s+/g, '');
  if (compact === '') return { problem: 'is empty' };
  let binary: string;
  try {
    binary = atob(compact);
  } catch {
    return { problem: 'is not valid base64' };
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const text = decodeUtf8(bytes);
  return text === null ? { problem: 'is not UTF-8 text once decoded from base64' } : { text };
}

/**
 * The page for `name`: the stored template when there is a usable one, else the built-in page.
 * A broken stored page must never cost the visitor their page, so every failure falls back and
 * tells the operator through `diag` which store entry to fix.
 */
export function renderPage(
  name: PageName,
  storedBase64: string | null,
  vars: PageVars,
  diag: (m: string) => void,
): string {
  const view = templateView(vars);
  if (storedBase64 !== null) {
    const decoded = decodeStored(storedBase64);
    if ('problem' in decoded) {
      diag(`waiting_room_pages.${name} ${decoded.problem}; serving the built-in page`);
    } else {
      try {
        return Mustache.render(decoded.text, view);
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        diag(`waiting_room_pages.${name} is not a valid Mustache template (${why}); serving the built-in page`);
      }
    }
  }
  return Mustache.render(builtinPages[name], view);
}
