// A room's public status (docs/status.md): what a visitor arriving now would meet, worked out from the
// room's settings as the decision's steps read them (decision/decide.ts), in the same order, and the
// wait the waiting page would promise them (answer/answer.ts). Pure: the handler, the tests and the
// tools all take a status from this one function.
import { answerFacts, type WaitEstimate } from '../answer/index.js';
import { type ChanceSource, cursorAt, eventPhase, prequeueDraining } from '../decision/index.js';
import type { Config, EventSchedule } from '../types.js';

/** `open`: nobody waits; `queueing`: a visitor arriving now waits; `closed`: nobody new gets in; `countdown`: a sale's pre-queue. */
export type StatusState = 'open' | 'queueing' | 'closed' | 'countdown';

/** Why the room is in its state (docs/status.md lists each); the decision's reason codes where they mean the same. */
export type StatusReason =
  | 'disabled'
  | 'allow_all'
  | 'event_passed'
  | 'deny_all'
  | 'event_closed'
  | 'invite_only'
  | 'prequeue'
  | 'draw'
  | 'fifo'
  | 'queue_all'
  | 'behind_prequeue';

export interface RoomStatus {
  state: StatusState;
  reason: StatusReason;
  /** The wait of a visitor arriving now, seconds (p25, p50, p75): 0 when open; null when none is promised. */
  estimate: WaitEstimate | null;
  /** The room cannot estimate the wait yet (the waiting page says it is working it out). */
  pending: boolean;
  /** The chance of a draw now, and where it comes from (decision/chance-now.ts). */
  chancePercentage: number;
  chanceSource: ChanceSource;
  queueingMethod: Config['queueingMethod'];
  /** The scheduled event, until it ends; null without one, or once ended. */
  event: EventSchedule | null;
  /** Whole seconds until the event starts; null without an event to come. */
  startsInSeconds: number | null;
}

const NONE: WaitEstimate | null = null;
const ZERO: WaitEstimate = { p25: 0, p50: 0, p75: 0 };

/** The status of the room `config` describes, for a visitor arriving at `nowMs`. */
export function roomStatus(config: Config, nowMs: number): RoomStatus {
  const nowSec = Math.floor(nowMs / 1000);
  const phase = eventPhase(config, nowSec);
  const facts = answerFacts(config, newVisitor(config, nowSec), nowMs, () => 0);
  const event = phase === 'none' || phase === 'ended' ? null : config.event;
  const base = {
    chancePercentage: facts.chancePercentage,
    chanceSource: facts.chanceSource,
    queueingMethod: config.queueingMethod,
    event,
    startsInSeconds: event !== null && event.start > nowSec ? event.start - nowSec : null,
  };
  const is = (state: StatusState, reason: StatusReason, estimate = NONE, pending = false): RoomStatus => ({
    state,
    reason,
    estimate,
    pending,
    ...base,
  });
  const endAction = config.event?.endAction;
  // The handler passes a disabled room's requests to the origin before any step is asked.
  if (!config.enabled) return is('open', 'disabled', ZERO);
  if (config.allowPercentage <= 0) return is('closed', 'deny_all');
  if (phase === 'ended' && endAction === 'close') return is('closed', 'event_closed');
  if (config.inviteOnly) return is('closed', 'invite_only');
  if (phase === 'ended' && endAction === 'pass') return is('open', 'event_passed', ZERO);
  if (phase === 'prequeue') return is('countdown', 'prequeue');
  const draining = prequeueDraining(config, phase, nowSec);
  if (config.allowPercentage >= 100 && !config.queueAll && !draining) return is('open', 'allow_all', ZERO);
  if (config.queueAll) return is('queueing', 'queue_all');
  if (draining) return is('queueing', 'behind_prequeue', NONE, true);
  const turn = facts.place?.turnSeconds ?? null;
  if (config.queueingMethod === 'fifo' && turn !== null)
    return is('queueing', 'fifo', { p25: turn, p50: turn, p75: turn });
  return is('queueing', config.queueingMethod === 'fifo' ? 'fifo' : 'draw', facts.estimate, facts.estimatePending);
}

/** A visitor with no token, as the first answer sees them: a first-come place when a cursor moves the line. */
function newVisitor(config: Config, nowSec: number): Parameters<typeof answerFacts>[1] {
  const cursor = config.queueingMethod === 'fifo' ? config.queueCursor : null;
  return {
    outcome: 'startwaiting',
    reason: 'no_token',
    waitDueSec: null,
    waitExpirySec: null,
    // Half a second into the second of arrival: the mean of a first-come position's tie-break.
    place: cursor === null ? null : { pos: nowSec + 0.5, cursor: cursorAt(cursor, nowSec), queue: 'fifo' },
  };
}
