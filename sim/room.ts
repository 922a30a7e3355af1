// The only file of the simulator that touches the room's core. Everything else talks to `Room`, so an
// API change in src/core is absorbed here. The simulator drives the REAL decision code: the same
// token signing, identity hashing, draw and estimate a Fastly edge runs.
import { createHash } from 'node:crypto';
import { parseConfig } from '../src/core/config.js';
import { decide } from '../src/core/decide.js';
import { jitterSeconds, retryAfterSeconds } from '../src/core/draw.js';
import { estimateFor } from '../src/core/estimate.js';
import { createKeyRing } from '../src/core/keys.js';
import type { Config, Outcome, ReasonCode } from '../src/core/types.js';

export interface RoomAnswer {
  outcome: Outcome;
  reason: ReasonCode;
  /** The cookie the response sets, if any. */
  setToken: string | null;
  clearCookie: boolean;
  /** Whole seconds the response's Retry-After header carries (waiting and deny pages), else null. */
  retryAfterSeconds: number | null;
  /** When the visitor's wait token falls due, i.e. can be drawn (ms), when known. */
  waitUntilMs: number | null;
  /** That token's expiry: the window boundary its due time is an offset into (ms). */
  waitExpiryMs: number | null;
}

export interface PageEstimate {
  p25: number;
  p50: number;
  p75: number;
}

export interface Room {
  /** Change a setting, as an operator editing `waiting_room_config` does; the next request sees it. */
  set(key: string, value: string): void;
  /** One request at virtual time `nowMs` (ms since the run began). */
  request(identity: string, tokens: readonly string[], nowMs: number): Promise<RoomAnswer>;
  /** The percentiles the waiting page shows along with this answer. */
  estimate(nowMs: number, answer: RoomAnswer): PageEstimate | null;
  /** J: the page's uniform jitter range, seconds. */
  readonly jitterSeconds: number;
  readonly waitPeriodSeconds: number;
  readonly allowPercentage: number;
  /** Number of decide() calls made, for the run's speed figure. */
  readonly decisions: number;
}

/**
 * Virtual time 0 is this instant (2026-01-01T00:00:00Z): a real-looking epoch for the tokens, and a
 * multiple of every window length the scenarios use, so simulated minute 0 starts a window.
 */
export const EPOCH_MS = Date.UTC(2026, 0, 1);

/**
 * Key bytes derived from the seed: a run's tokens (and so its draws) are reproducible, and a new seed
 * is a new key, i.e. an independent lottery.
 */
function keyFor(seed: string): string {
  return createHash('sha512').update(`waiting-room-sim-key:${seed}`).digest('base64');
}

export function createRoom(settings: Record<string, string>, seed: string): Room {
  const values = new Map(Object.entries(settings));
  if (!values.has('active_key')) values.set('active_key', 'sim');
  const keyStore = new Map([[values.get('active_key')!, keyFor(seed)]]);
  const diag = (message: string): void => {
    throw new Error(`simulated room reported a problem: ${message}`);
  };
  let config: Config = load();
  // A key ring memoises per request on the edge; the simulated store never changes, so one is reused.
  const keys = createKeyRing(async (kid) => keyStore.get(kid) ?? null, diag);
  let decisions = 0;

  function load(): Config {
    const { config: parsed, problems } = parseConfig((key) => values.get(key) ?? null);
    if (problems.length > 0) throw new Error(`bad simulated setting: ${problems.map((p) => `${p.key}: ${p.message}`).join('; ')}`);
    return parsed;
  }

  return {
    set(key, value) {
      values.set(key, value);
      config = load();
    },
    async request(identity, tokens, nowMs) {
      decisions++;
      const result = await decide({ config, keys, identity, tokens: [...tokens], nowMs: EPOCH_MS + nowMs });
      // The core speaks whole epoch seconds; the simulator, milliseconds since the run began.
      const toMs = (sec: number | null): number | null => (sec === null ? null : sec * 1000 - EPOCH_MS);
      const waitUntilMs = toMs(result.waitUntil);
      // Waiting and deny pages carry Retry-After; the handler's own rule, so the simulated page times as the real one.
      const held = result.outcome !== 'origin';
      const retryAfter = held ? retryAfterSeconds(result.waitUntil, EPOCH_MS + nowMs, config.waitPeriodSeconds) : null;
      return {
        outcome: result.outcome,
        reason: result.reason,
        setToken: result.setToken,
        clearCookie: result.clearCookie,
        retryAfterSeconds: retryAfter,
        waitUntilMs,
        waitExpiryMs: toMs(result.waitExpiry),
      };
    },
    estimate(nowMs, answer) {
      // What the handler's page shows for an answer that carries a wait token.
      if (answer.waitUntilMs === null || answer.waitExpiryMs === null) return null;
      const epochSec = (ms: number): number => (EPOCH_MS + ms) / 1000;
      return estimateFor(config, epochSec(answer.waitUntilMs), epochSec(answer.waitExpiryMs), EPOCH_MS + nowMs);
    },
    get jitterSeconds() {
      return jitterSeconds(config);
    },
    get waitPeriodSeconds() {
      return config.waitPeriodSeconds;
    },
    get allowPercentage() {
      return config.allowPercentage;
    },
    get decisions() {
      return decisions;
    },
  };
}
