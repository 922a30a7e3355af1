// What the solver is given, as ALTCHA v2 challenges: the page's compact form
// ("1.<M>.<salt>.<noncePrefix>.<P_0>…<P_7>", the template's `proofCompact`) or the JSON answer's
// `waitingRoom.proof` ({"challenges": [...], "counters": M}). And the words the page shows for progress.
import type { Challenge } from 'altcha-lib/types';

export interface Work {
  /** Counters per sub-challenge: the solution of each is below it. */
  counters: number;
  challenges: Challenge[];
}

const HEX32 = /^[0-9a-f]{32}$/;

function fromCompact(text: string): Work | null {
  const parts = text.split('.');
  const [version, m, salt, noncePrefix, ...prefixes] = parts;
  const counters = Number(m);
  if (version !== '1' || !(counters >= 1 && Number.isInteger(counters)) || !HEX32.test(salt ?? '') || !/^[0-9a-f]{30}$/.test(noncePrefix ?? '')) return null;
  if (prefixes.length !== 8 || !prefixes.every((p) => HEX32.test(p))) return null;
  return {
    counters,
    challenges: prefixes.map((keyPrefix, i) => ({
      parameters: { algorithm: 'SHA-256', cost: 1, keyLength: 32, keyPrefix, nonce: noncePrefix + (i < 16 ? '0' : '') + i.toString(16), salt: salt! },
    })),
  };
}

function fromJson(proof: { counters?: unknown; challenges?: unknown }): Work | null {
  const counters = Number(proof.counters);
  const list = proof.challenges;
  if (!Array.isArray(list) || list.length === 0 || !list.every((c) => c && typeof c === 'object' && (c as Challenge).parameters)) return null;
  return { counters: counters >= 1 ? counters : 0, challenges: list as Challenge[] };
}

/** The challenges in a compact text, a JSON text (of either) or the JSON answer's object; null when it is none of them. */
export function workFrom(input: unknown): Work | null {
  if (typeof input === 'string') {
    if (/^[{"]/.test(input)) {
      try {
        return workFrom(JSON.parse(input));
      } catch {
        return null;
      }
    }
    return fromCompact(input);
  }
  return input !== null && typeof input === 'object' ? fromJson(input as { counters?: unknown }) : null;
}

/** One key per puzzle: the same challenge handed again keeps its solution. */
export function workKey(work: Work): string {
  return work.challenges.map((c) => c.parameters.nonce + c.parameters.keyPrefix).join();
}

export const WORKING = 'Your browser is doing a short check that keeps automated buyers out';
export const DONE = 'Check done. You are in the draw.';
const STAGES = ['just started', 'about a quarter done', 'about half done', 'about three quarters done', 'nearly done'];

/**
 * The sentence for `parts` sub-challenges done out of `of`, and `counter` of `counters` tried in the
 * current one. Quarters only: the paragraph is a polite live region, and a sentence that changed
 * every second would be read out every second.
 */
export function progressWords(parts: number, of: number, counter: number, counters: number): string {
  if (parts >= of) return DONE;
  const within = counters > 0 ? Math.min(1, counter / counters) : 0;
  const share = (parts + within) / of;
  const stage = share < 0.125 ? 0 : share < 0.375 ? 1 : share < 0.625 ? 2 : share < 0.85 ? 3 : 4;
  return `${WORKING}: ${STAGES[stage]}.`;
}
