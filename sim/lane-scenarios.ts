// Priority lanes (docs/lanes.md) with the controller: crowds of different sizes per lane, one of them
// smaller than its share, so the figures show each lane's share of the admissions minute by minute
// against its setting, and what a lane's unused share does for the others.
import { browsing, MINUTE, spread } from './arrivals.js';
import { controlledRoom, controlSpec } from './control-scenarios.js';
import type { Scenario } from './scenario-types.js';
import type { Arrival } from './visitors.js';
/** `arrivals` with each given the lane `lane`. */
const inLane = (arrivals: Arrival[], lane: string): Arrival[] => arrivals.map((a) => ({ ...a, lane }));

export const heldLanes: Scenario = {
  name: 'held-lanes',
  title: 'Priority lanes held to the target',
  summary:
    "A sale held to 300 a minute on five POPs with two lanes, `members:30,presale:20` (the general lane gets the other 50%). In the first two minutes 4,000 visitors arrive in the general lane and 700 with a presale invitation (15% of the crowd, under their 20%); members come with theirs over fifteen minutes, 25 a minute, fewer than their share (90 a minute). The controller should hold 300 a minute, let members in at once (their lane's chance at 100%), hand the share members leave to presale and general by their shares (20:50), and, once presale runs dry, its share to the general lane.",
  settings: controlledRoom(300, { allow_percentage: '1', lanes: 'members:30,presale:20' }),
  changes: [],
  durationMs: 20 * MINUTE,
  behaviour: browsing,
  visitors: 5_075,
  arrivals: (rng, n) => {
    const members = Math.round((n * 375) / 5_075);
    const presale = Math.round((n * 700) / 5_075);
    return [
      ...spread(rng, n - members - presale, 0, 2 * MINUTE),
      ...inLane(spread(rng, presale, 0, 2 * MINUTE), 'presale'),
      ...inLane(spread(rng, members, 0, 15 * MINUTE), 'members'),
    ].sort((a, b) => a.atMs - b.atMs);
  },
  control: controlSpec,
};

/** The same crowd without lanes: what the lanes changed, every invitation ignored (no lane declared). */
export const heldLanesNone: Scenario = {
  ...heldLanes,
  name: 'held-lanes-none',
  title: "The lanes' crowd without lanes",
  summary:
    "`held-lanes`'s crowd, its invitations and all, in a room that declares no lanes: every visitor draws at the room's chance. The comparison for the lanes' waits.",
  settings: controlledRoom(300, { allow_percentage: '1' }),
};
