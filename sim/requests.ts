// What each simulated visitor asks of the service, request by request, by kind: what a sale costs on
// Fastly, which bills Compute by the request (costs.ts makes the table, docs/production.md explains it).
// Population.send counts every request the room decides here; the page's solver, which the room serves
// before any decision, is counted here too, from the answer that handed the page its first puzzle.
import type { RoomAnswer } from './room.js';
import type { Group } from './visitors.js';

export const requestKinds = ['first', 'check', 'deny', 'countdown', 'win', 'reload', 'origin', 'solver'] as const;

/**
 * - `first`: the visitor's first request, whatever the answer (a waiting page, or the origin's page);
 * - `check`: a later request the room answered with the waiting page or its JSON (a lost draw, a
 *   token not due yet, a proof awaited);
 * - `deny`, `countdown`: a later request answered with the deny page or a sale's countdown;
 * - `win`: the check that let the visitor in, answered by the origin (its page, to the page's fetch);
 * - `reload`: the built-in page's reload after its winning check (pages/README.md): to the origin too;
 * - `origin`: every other request the room passed to the origin: the pages of the visit;
 * - `solver`: the proof of work's script, fetched once by a page that solves, answered by the room.
 */
export type RequestKind = (typeof requestKinds)[number];

export interface RequestTally {
  kinds: Record<RequestKind, number>;
  /** Requests the room answered itself: they never reached the origin. */
  edge: number;
  total: number;
}

export function emptyTally(): RequestTally {
  const kinds = Object.fromEntries(requestKinds.map((k) => [k, 0])) as Record<RequestKind, number>;
  return { kinds, edge: 0, total: 0 };
}

/** Groups whose page is the built-in one with its script: it checks with `fetch` and reloads once let in. */
const PAGE_GROUPS: ReadonlySet<Group> = new Set<Group>(['honest', 'holder', 'sharer', 'phone', 'laptop']);

/** Pages that run the solver (bot-farm.ts's phones and laptops): they fetch it with their first puzzle. */
const SOLVING_GROUPS: ReadonlySet<Group> = new Set<Group>(['phone', 'laptop']);

/**
 * Whether a visitor's page reloads after the check that let it in: a built-in page whose winning
 * request was a check (its first visit going straight to the origin is the origin's own page).
 */
export function reloadsAfterWin(group: Group, tally: RequestTally): boolean {
  return PAGE_GROUPS.has(group) && tally.total > 1;
}

function add(tally: RequestTally, kind: RequestKind, atEdge: boolean): void {
  tally.kinds[kind]++;
  tally.total++;
  if (atEdge) tally.edge++;
}

/** One request the room decided for a visitor of `group`, and the solver its answer makes the page fetch. */
export function countRequest(tally: RequestTally, group: Group, answer: RoomAnswer, reload: boolean): void {
  const toOrigin = answer.outcome === 'origin';
  let kind: RequestKind;
  if (tally.total === 0) kind = 'first';
  else if (reload) kind = 'reload';
  else if (toOrigin) kind = tally.edge === tally.total ? 'win' : 'origin';
  else if (answer.outcome === 'deny') kind = 'deny';
  else if (answer.outcome === 'prequeue') kind = 'countdown';
  else kind = 'check';
  add(tally, kind, !toOrigin);
  // The solver is cached for a year under a name that changes with it: one fetch a visitor.
  if (answer.puzzle !== null && tally.kinds.solver === 0 && SOLVING_GROUPS.has(group)) add(tally, 'solver', true);
}
