// Who the simulated visitors are: the groups (honest, and each adversary), when each arrives, and how
// they browse. Plain data shared by the crowds (arrivals.ts, the scenarios) and the population that
// plays them (population.ts).

/** How a visitor behaves. Every group but `honest` and `holder` is an adversary the room must not reward. */
export type Group =
  | 'honest'
  | 'devices5' // five devices behind one identity, arriving at different moments
  | 'clearer' // clears cookies before every visit
  | 'refresher' // reloads every second instead of waiting for Retry-After
  | 'holder' // honest, but hands its allow token to a friend once admitted
  | 'friend' // another identity presenting the holder's token
  | 'twojars' // one identity, two cookie jars used in turn, twice a window
  | 'hoarder' // takes a fresh token every window without drawing, then presents them all after a raise
  | 'sharer' // honest, but hands its pre-queue token to a friend at an event's start
  | 'replayer' // another identity presenting the sharer's pre-queue token after the start
  | 'hopper' // admitted in one room, copies that room's token into another room's cookie
  // The proof of work (bot-farm.ts): honest visitors by device, and a bot farm's identities.
  | 'phone' // honest on a low-end phone: the page solves at PHONE_RATE before it checks
  | 'laptop' // honest on a laptop: the page solves faster
  | 'nojs' // honest without JavaScript: never a proof, drawn at the reduced share
  | 'farm' // one identity of a bot farm: an app on Retry-After exactly, solving from the farm's shared CPU, `none` when not ready
  | 'farm-naive'; // the same farm sending no proof header when not ready (`skipped`)

/** The groups of the proof of work's scenarios that are honest people. */
export const honestDevices: readonly Group[] = ['phone', 'laptop', 'nojs'];
export const farmGroups: readonly Group[] = ['farm', 'farm-naive'];

export const adversaryGroups: readonly Group[] = ['devices5', 'clearer', 'refresher', 'friend', 'twojars'];

export interface Arrival {
  atMs: number;
  group: Group;
  /** How long this visitor waits once queued before giving up (ms); Infinity = never. */
  patienceMs: number;
  /** A visitor already known on the service (from another room): their identity and POP. New when absent. */
  identity?: string;
  pop?: number;
  /** The priority lane a valid lane invitation gives this visitor on their first request (docs/lanes.md); absent: the general lane. */
  lane?: string;
}

export interface Behaviour {
  /** Browsing once admitted: mean seconds between requests and the session length. */
  thinkSeconds: number;
  sessionSecondsMedian: number;
  /** Whether the page adds its jitter (false: the counterfactual "everyone returns on Retry-After"). */
  jitter: boolean;
  /** What-if: a jitter range other than the room's J (seconds), to measure a proposed change. */
  jitterSeconds?: number;
  /** Stop an actor this many windows after its arrival window (adversary comparisons); null = never. */
  horizonWindows: number | null;
  /** When hoarders present every token they kept (ms); they know when the sale opens. */
  cashInMs?: number;
  /** A scheduled event's start (ms): sharers hand their pre-queue token on just after it. */
  eventStartMs?: number;
  /** Visitors who come back late (honest ones only): null or absent = everyone on time. */
  lateReturns?: LateReturns;
  /**
   * The built-in page reloads once its check is let in (pages/README.md: the winning check is the
   * origin's answer, then the page itself), a request of its own. Only the cost runs send it
   * (cost-scenarios.ts); the report's scenarios were measured without it.
   */
  reloadAfterWin?: boolean;
}

/**
 * Late returns, as in the field: a share of the waiting pages are background tabs, whose timers the
 * browser fires at most once a minute (each tab on its own phase, so a check waits up to 60 s past
 * its due time); the rest come back on time plus a network delay of up to `delayMs`.
 */
export interface LateReturns {
  /** Share of honest visitors whose page is a background tab (0..1). */
  backgroundShare: number;
  /** Extra delay of every other check: uniform in [0, delayMs). */
  delayMs: number;
}
