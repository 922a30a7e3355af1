// What a fuzz run (fuzz/run.ts) reports: the counts that decide whether `npm run fuzz` passes, and the
// first notes worth reading when it does not.
import type { ProofVerdict } from './proof-oracle.js';

export interface FuzzReport {
  requests: number;
  attacks: number;
  /** Attack requests the origin received without a right in the room they were for (fuzz/oracle.ts). */
  reachedOrigin: number;
  /** Attack requests that reached the origin with a right (their own token or invite, a bypass rule, an open room). */
  reachedWithRight: number;
  /** Of those, by kind: the controls (own token in own room, a valid invite) show the room lets rights through. */
  withRightByKind: Record<string, number>;
  /** Requests the origin received with a room's cookie still in them. */
  roomCookieAtOrigin: number;
  /** 5xx answers docs/decisions.md does not document for the situation (503 only while no key can sign: a broken key store or an active_key it lacks). */
  undocumented5xx: number;
  byStatus: Record<string, number>;
  byKind: Record<string, number>;
  settingsWritten: number;
  /** Attack phases judged on a routing with a broken rule in it (the rule skipped, nothing opened). */
  phasesOnBrokenRules: number;
  /**
   * The proof room's requests (fuzz/proof-attacks.ts) as its decision lines judged them: `accepted`
   * counts lines calling a forged, replayed or borrowed proof valid (must be 0); `controlsValid` the
   * controls' right solutions logged valid (must be above 0 when controls were sent, or the check is blind).
   */
  proof: Omit<ProofVerdict, 'accepted'> & { accepted: number };
  /** Whether the room applies the routing's rules (false: a build whose routing ignores rules; the oracle then does too). */
  rulesApplied: boolean;
  hostUp: boolean;
  examples: string[];
}

/** A report with nothing counted yet. */
export function emptyReport(): FuzzReport {
  return {
    requests: 0,
    attacks: 0,
    reachedOrigin: 0,
    reachedWithRight: 0,
    withRightByKind: {},
    roomCookieAtOrigin: 0,
    undocumented5xx: 0,
    byStatus: {},
    byKind: {},
    settingsWritten: 0,
    phasesOnBrokenRules: 0,
    rulesApplied: false,
    hostUp: false,
    examples: [],
    proof: { attacksByKind: {}, linesByKind: {}, accepted: 0, controls: 0, controlsValid: 0, unlogged: 0 },
  };
}
