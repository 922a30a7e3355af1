// What the solver is given, as ALTCHA v2 challenges: the page's compact form
// ("1.<M>.<salt>.<noncePrefix>.<P_0>…<P_7>", the template's `proofCompact`) or the JSON answer's
// `waitingRoom.proof` ({"challenges": [...], "counters": M}). And the words the page shows for progress,
// in the page's language (its `<html data-t>`).
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

/** The progress sentences, under the page's `data-t` keys (src/core/i18n/catalogs/en-US.ts). */
export interface ProgressWords {
  clientProofStarted: string;
  clientProofQuarter: string;
  clientProofHalf: string;
  clientProofThreeQuarters: string;
  clientProofNearly: string;
  clientProofDone: string;
}

export const WORKING = 'Your browser is doing a short check that keeps automated buyers out';
export const DONE = 'Check done. You are in the draw.';
/** For a page of the operator's own without `data-t`: the English sentences. */
export const ENGLISH: ProgressWords = {
  clientProofStarted: `${WORKING}: just started.`,
  clientProofQuarter: `${WORKING}: about a quarter done.`,
  clientProofHalf: `${WORKING}: about half done.`,
  clientProofThreeQuarters: `${WORKING}: about three quarters done.`,
  clientProofNearly: `${WORKING}: nearly done.`,
  clientProofDone: DONE,
};
const STAGES = ['clientProofStarted', 'clientProofQuarter', 'clientProofHalf', 'clientProofThreeQuarters', 'clientProofNearly'] as const;

/**
 * The page's progress sentences: the ones its `<html data-t>` holds (the built-in pages put the
 * answer's language there), each missing one in English.
 */
export function pageWords(dataT: string | undefined): ProgressWords {
  let given: Record<string, unknown> = {};
  try {
    const parsed: unknown = dataT ? JSON.parse(dataT) : {};
    if (parsed && typeof parsed === 'object') given = parsed as Record<string, unknown>;
  } catch {
    // Not JSON: a page of the operator's own; English it is.
  }
  const out = { ...ENGLISH };
  for (const k of Object.keys(ENGLISH) as (keyof ProgressWords)[]) {
    const v = given[k];
    if (typeof v === 'string' && v !== '') out[k] = v;
  }
  return out;
}

/**
 * The sentence for `parts` sub-challenges done out of `of`, and `counter` of `counters` tried in the
 * current one. Quarters only: the paragraph is a polite live region, and a sentence that changed
 * every second would be read out every second.
 */
export function progressWords(parts: number, of: number, counter: number, counters: number, words: ProgressWords = ENGLISH): string {
  if (parts >= of) return words.clientProofDone;
  const within = counters > 0 ? Math.min(1, counter / counters) : 0;
  const share = (parts + within) / of;
  const stage = share < 0.125 ? 0 : share < 0.375 ? 1 : share < 0.625 ? 2 : share < 0.85 ? 3 : 4;
  return words[STAGES[stage]!];
}
