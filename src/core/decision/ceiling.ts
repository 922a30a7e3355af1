// The per-POP ceiling on admissions (`pop_admissions_per_second`): a safety net under the controller,
// for the seconds before a new chance reaches every POP and for a controller that stopped. Counted
// with the POP's own rate counter, so it costs no network round trip and knows nothing of other POPs.
//
// A winner the ceiling holds back keeps the win: they get a `won` token and come back in a second or
// two, and while anyone at this POP is held, fresh winners are held too, so the held go first.
import type { AdmissionCounter } from '../types.js';

/** Rate counter entries: admissions let through, and winners held back. */
const ADMITTED = 'admitted';
const HELD = 'held';
/** The ceiling is a 10-second average: Fastly's rate counters count over 10 to 60 seconds. */
const SPAN_SECONDS = 10;

export interface Ceiling {
  /** Room for one more admission now? If so it is counted. */
  tryAdmit(): boolean;
  /** Was a winner held back at this POP in the last 10 seconds? Fresh winners then queue behind. */
  heldRecently(): boolean;
  /** Count a held winner. */
  noteHeld(): void;
}

/** What the operator is told when there is a ceiling but no rate counter to keep it with. */
export const CEILING_DIAG =
  'pop_admissions_per_second is skipped: this service has no edge rate limiter. ' +
  'Add Edge Rate Limiting to the service, or remove the ceiling: npm run tune -- pop_admissions_per_second=';

/**
 * Null when there is no ceiling, or no counter to keep it with (said through `diag`, which the handler
 * gives once per sandbox: a ceiling that cannot be counted is skipped, never guessed). A counter call that throws
 * skips the ceiling for the rest of the request: the visitor is admitted as if there were none, and
 * the failure is reported once.
 */
export function createCeiling(
  perSecond: number | null,
  counter: AdmissionCounter | null | undefined,
  diag: (message: string) => void,
): Ceiling | null {
  if (perSecond === null) return null;
  if (!counter) {
    diag(CEILING_DIAG);
    return null;
  }
  let broken = false;
  const safely = <T>(what: string, fallback: T, run: () => T): T => {
    if (broken) return fallback;
    try {
      return run();
    } catch (error) {
      broken = true;
      diag(`pop_admissions_per_second: the rate counter failed to ${what} (${String(error)}); the ceiling is skipped`);
      return fallback;
    }
  };
  return {
    tryAdmit() {
      const recent = safely('count', 0, () => counter.count(ADMITTED, SPAN_SECONDS));
      if (recent >= perSecond * SPAN_SECONDS) return false;
      safely('increment', undefined, () => counter.increment(ADMITTED, 1));
      return true;
    },
    heldRecently() {
      return safely('count', 0, () => counter.count(HELD, SPAN_SECONDS)) > 0;
    },
    noteHeld() {
      safely('increment', undefined, () => counter.increment(HELD, 1));
    },
  };
}
