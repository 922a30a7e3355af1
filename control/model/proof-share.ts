// The share of the published chance the draws really get (docs/control/model.md#the-difficulty-proof-of-work).
// While a proof of work is asked, a due draw without a valid proof draws at proof_free_share of its
// window's chance (src/core/decision/decide.ts): a crowd that cannot or will not solve (visitors without
// JavaScript, an app that ignores the puzzle, every visitor while the page's solver fails) gets a
// fraction f of what the controller publishes. The plan publishes needed / f so that the draws get
// what it needed (plan.ts).
//
// f is learned from the draw lines that say a proof was asked (`proof` present): the chance each used
// (`pct`) over the chance published for its window, weighted as the ledger weighs lines (`w`). The
// published chance is what the edge drew against: `pct` itself for a valid proof, `pct /
// proof_free_share` otherwise (`missing`, `wrong`, and `failed` or `skipped` without the infinite
// queue). A draw whose proof sent it to the infinite queue (`bot_queued` with `proof`: its line's
// `pct` is the window's full chance) used none of it: the ledger closes its ticket as drawn, so the
// plan counted it in the crowd, and f is what makes up for it. Lines that draw nothing are left out:
// `proof_pending` (the page's proof is on its way), a routing rule's `bot_queued`, and the infinite
// queue's own tokens. Summed per window the draws were made in; read over the last two closed
// windows, reaching further back (up to MAX_WINDOWS) until MIN_DRAWS draws say it. Pure: a Map in the
// model's state, saved with it.
import type { DecisionLine } from '../types.js';

/** One window's draws that were asked a proof: chances used and published, summed (weighted), and how many. */
export interface DrawShare {
  used: number;
  published: number;
  draws: number;
}

/** Window start (the window the draws were made in) -> its draws' sums. */
export type DrawShares = Map<number, DrawShare>;

/** The fewest draws the share is read from, when the windows before hold them. */
export const MIN_DRAWS = 200;
/** The furthest back it reads, in windows. */
export const MAX_WINDOWS = 10;

const DRAWS = new Set(['draw_won', 'draw_lost']);

/** Adds a draw line that was asked a proof; every other line is left out. `freeShare` is proof_free_share as the room has it. */
export function observeDrawShare(shares: DrawShares, line: DecisionLine, freeShare: number): void {
  if (line.proof === undefined || line.pct === null) return;
  const intoBotQueue = line.reason === 'bot_queued';
  if (!intoBotQueue && (!DRAWS.has(line.reason) || line.bot === true)) return;
  if (!(freeShare > 0)) return;
  const published = line.proof === 'valid' || intoBotQueue ? line.pct : line.pct / freeShare;
  if (!(published > 0)) return;
  let s = shares.get(line.win);
  if (s === undefined) shares.set(line.win, (s = { used: 0, published: 0, draws: 0 }));
  s.used += intoBotQueue ? 0 : line.pct * line.weight;
  s.published += Math.min(100, published) * line.weight;
  s.draws += line.weight;
}

/**
 * f, the share of the published chance the draws asked a proof got lately (0..1]: over the windows
 * before `current` (at least two, more until MIN_DRAWS draws, at most MAX_WINDOWS); 1 when none was seen.
 */
export function effectiveShare(shares: ReadonlyMap<number, DrawShare>, current: number, d: number): number {
  let used = 0;
  let published = 0;
  let draws = 0;
  for (let i = 1; i <= MAX_WINDOWS; i++) {
    const s = shares.get(current - i * d);
    if (s !== undefined) (used += s.used), (published += s.published), (draws += s.draws);
    if (i >= 2 && draws >= MIN_DRAWS) break;
  }
  return published > 0 ? Math.min(1, Math.max(0.001, used / published)) : 1;
}

/** Forgets windows older than the share reads. */
export function pruneDrawShares(shares: DrawShares, current: number, d: number): void {
  for (const w of shares.keys()) if (w < current - MAX_WINDOWS * d) shares.delete(w);
}
