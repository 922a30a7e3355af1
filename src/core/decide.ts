// The decision table (docs/design.md), for one visitor at one moment. Pure: everything it needs is
// in its input, so the handler, the tests and the simulator all run exactly this code.
import type { Ceiling } from './ceiling.js';
import { drawProof, pageWithoutProof, withChallenge, type ProofInput } from './decide-proof.js';
import { chanceFor, dueAt, drawWins, staleAt } from './draw.js';
import {
  eventPhase,
  holdsPlace,
  placeLostAt,
  placeOf,
  prequeueDraining,
  prequeueRecheck,
  type Place,
} from './queue.js';
import { resultWith, type DecideResult, type TokenRef } from './result.js';
import { signToken } from './token.js';
import type { ReasonCode, SandboxCache, TokenClaims } from './types.js';
import { boundary, catchUp, firstUsable, roomOf, subjectOf, type TokenInput, type Usable } from './usable-token.js';

export interface DecideInput extends TokenInput {
  nowMs: number;
  /** The POP's admissions ceiling, null when none (ceiling.ts). */
  ceiling?: Ceiling | null;
  /**
   * Sign each new wait token's successor too (the token this identity gets if it loses its draw on
   * time), for the decision log: one more HMAC, so only when something reads the log.
   */
  successors?: boolean;
  /** Operator diagnostics (a missing event seed); ignored when absent. */
  diag?: (message: string) => void;
  /** What a reused sandbox kept from its earlier requests (sandbox-memory.ts); absent, nothing is kept. */
  memory?: SandboxCache;
  /** The request carries a valid invitation for this room and identity (invite.ts): in without queueing. */
  invited?: boolean;
  /** The request's `waiting-room-proof` header and whether it asked for JSON (docs/bots.md); absent: no proof. */
  proof?: ProofInput;
  /** A routing rule marked the request a bot (`"then": "bot"`): with `bot_queue` on, it waits in the infinite queue. */
  bot?: boolean;
}

interface Issued {
  token: string;
  kid: string;
  key: CryptoKey;
  claims: TokenClaims;
  set: { dec: TokenClaims['dec']; exp: number };
  nextToken: string | null;
}

/**
 * Sign a new token for the visitor: with the active key, or, to renew a place in line, with the key
 * that signed the place (`signer`), so its `sub` and with it the place do not move when keys rotate.
 */
async function issue(
  input: DecideInput,
  dec: TokenClaims['dec'],
  exp: number,
  arr?: number,
  signer?: Usable,
  bot = false,
): Promise<Issued | null> {
  const kid = signer?.kid ?? input.config.activeKey;
  const key = signer?.key ?? (await input.keys.signingKey(kid));
  if (key === null) return null;
  const sub = signer?.claims.sub ?? (await subjectOf(input, key, bot));
  const room = roomOf(input.config);
  const claims: TokenClaims = arr === undefined ? { dec, exp, sub, room } : { dec, exp, sub, room, arr };
  const token = await signToken(claims, kid, key);
  // Successors are the draw's: the controller counts next window's tickets by them.
  const successor = dec === 'wait' && arr === undefined && input.successors === true;
  const nextToken = successor
    ? await signToken({ dec, exp: exp + input.config.waitPeriodSeconds, sub, room }, kid, key)
    : null;
  return { token, kid, key, claims, set: { dec, exp }, nextToken };
}

/** What an issued token adds to a result. */
const issuedParts = (issued: Issued) => ({
  kid: issued.kid,
  setToken: issued.token,
  set: issued.set,
  nextToken: issued.nextToken,
});

/** No key to sign with: the visitor sees the waiting page (503, no cookie) and is never admitted. */
const noSigningKey = (kid: string): DecideResult =>
  resultWith({ decision: 'start', outcome: 'startwaiting', reason: 'no_signing_key', kid });

/** How long a held winner's `won` token lasts: as long as the cookie, so a held win is never lost. */
const wonUntil = (nowSec: number, config: DecideInput['config']): number => nowSec + config.cookieLifetimeSeconds;

export async function decide(input: DecideInput): Promise<DecideResult> {
  return withChallenge(input, await decideRoom(input));
}

async function decideRoom(input: DecideInput): Promise<DecideResult> {
  const { config } = input;
  const nowSec = Math.floor(input.nowMs / 1000);
  const d = config.waitPeriodSeconds;
  const A = config.allowPeriodSeconds;
  const ceiling = input.ceiling ?? null;
  const phase = eventPhase(config, nowSec);
  const diag = input.diag ?? (() => {});

  if (config.allowPercentage <= 0) {
    return resultWith({ decision: 'deny', outcome: 'deny', reason: 'deny_all', clearCookie: true });
  }
  const found = await firstUsable(input, nowSec);
  const presented = 'claims' in found ? found : null;
  const usable = presented === null ? null : await catchUp(presented, config, nowSec);
  const used: TokenRef | null =
    usable === null ? null : { token: usable.token, dec: usable.claims.dec, exp: usable.claims.exp };
  const failure = usable === null ? (found as { reason: ReasonCode; kid: string | null }) : null;
  // The infinite queue's tokens stay in it: every token they renew to is the bot's too. With
  // `bot_queue` off they are ordinary tokens again, and draw.
  const stillBot = usable?.bot === true && config.botQueue;

  // A closed event lets those inside finish on their allow token (checking out, say), but never
  // renews it: everyone is out within two allow periods. Nobody else gets in.
  // (`allow_percentage = 0` is the way to turn everyone out at once.)
  if (phase === 'ended' && config.event?.endAction === 'close') {
    if (usable !== null && usable.claims.dec === 'allow') {
      return resultWith({
        decision: 'allow',
        outcome: 'origin',
        reason: 'allow_valid',
        kid: usable.kid,
        allowExpirySec: usable.claims.exp,
        used,
      });
    }
    return resultWith({ decision: 'deny', outcome: 'deny', reason: 'event_closed', clearCookie: true });
  }

  // Admit with an allow token, renewing the visitor's own once fewer than A seconds remain (past half
  // its longest life). Null when there is neither an allow token presented nor a key to sign a new one.
  const admit = async (
    reason: ReasonCode,
    allowToken: Usable | null,
    pct: number | null = null,
    place: Place | null = null,
  ): Promise<DecideResult | null> => {
    const at = place === null ? null : { pos: place.pos, cursor: place.cursor, queue: place.queue };
    const keep =
      allowToken === null
        ? null
        : resultWith({
            decision: 'allow',
            outcome: 'origin',
            reason,
            kid: allowToken.kid,
            allowExpirySec: allowToken.claims.exp,
            used,
            pct,
            place: at,
          });
    if (allowToken !== null && allowToken.claims.exp - nowSec >= A) return keep;
    const exp = boundary(nowSec, A, 2);
    const issued = await issue(input, 'allow', exp);
    // A still-valid allow token keeps working while no new one can be signed.
    if (issued === null) return keep;
    const renewed = allowToken !== null && reason === 'allow_valid';
    return resultWith({
      decision: 'allow',
      outcome: 'origin',
      reason: renewed ? 'allow_renewed' : reason,
      ...issuedParts(issued),
      allowExpirySec: exp,
      used,
      pct,
      place: at,
    });
  };

  // An invitation lets its holder in at once; in an invite-only room nobody else gets in, though
  // those already inside finish on their allow token.
  if (input.invited === true) {
    const allowToken = usable?.claims.dec === 'allow' ? usable : null;
    return (await admit(allowToken === null ? 'invite' : 'allow_valid', allowToken)) ?? noSigningKey(config.activeKey);
  }
  if (config.inviteOnly && usable?.claims.dec !== 'allow') {
    return resultWith({ decision: 'deny', outcome: 'deny', reason: 'invite_only', kid: failure?.kid ?? null, used });
  }

  // A winner held back by the POP's ceiling: a `won` token (or the one they hold) and a second or two.
  const holdWinner = async (pct: number | null): Promise<DecideResult> => {
    ceiling?.noteHeld();
    const heldByCeiling = {
      decision: 'wait',
      outcome: 'keepwaiting',
      reason: 'ceiling_held',
      waitDueSec: nowSec + 1,
      used,
      pct,
    } as const;
    if (usable?.claims.dec === 'won') return resultWith({ ...heldByCeiling, kid: usable.kid });
    const issued = await issue(input, 'won', wonUntil(nowSec, config));
    // Without a key the win cannot be kept in a cookie; the ceiling gives way rather than lose it.
    if (issued === null) return (await admit('draw_won', null, pct)) ?? noSigningKey(config.activeKey);
    return resultWith({ ...heldByCeiling, ...issuedParts(issued) });
  };

  // A new admission (no allow token presented): through the ceiling, if there is one. Those already held
  // at this POP go first: a fresh winner waits behind them.
  const admitNew = async (
    reason: ReasonCode,
    pct: number | null,
    place: Place | null = null,
  ): Promise<DecideResult | null> => {
    if (ceiling !== null) {
      const behindOthers = reason !== 'won_admitted' && ceiling.heldRecently();
      if (behindOthers || !ceiling.tryAdmit()) return holdWinner(pct);
    }
    return admit(reason, null, pct, place);
  };

  // Everyone in: the operator's 100, or an event that ended with `pass`. The pre-queue, its draining
  // after the start, and `queue_all` queue everyone who is not inside, whatever the percentage.
  const passAll = phase === 'ended' && config.event?.endAction === 'pass';
  const everyoneQueues = phase === 'prequeue' || config.queueAll || prequeueDraining(config, phase, nowSec);
  // A token of the infinite queue stays in it when the room opens: else it would empty into the
  // origin the moment the real queue does (the controller opens a room nobody else waits in).
  if ((passAll || (config.allowPercentage >= 100 && !everyoneQueues)) && !stillBot) {
    const allowToken = usable?.claims.dec === 'allow' ? usable : null;
    const reason: ReasonCode = usable?.claims.dec === 'won' ? 'won_admitted' : passAll ? 'event_passed' : 'allow_all';
    // Everyone is admitted anyway, so a missing key costs only the cookie; the log says why.
    return (
      (allowToken !== null
        ? await admit(reason === 'won_admitted' ? 'allow_all' : reason, allowToken)
        : await admitNew(reason, null)) ??
      resultWith({ decision: 'allow', outcome: 'origin', reason: 'no_signing_key', kid: config.activeKey })
    );
  }

  if (usable !== null && usable.claims.dec === 'allow') {
    return (await admit('allow_valid', usable))!; // never null: a presented allow token is kept
  }
  if (usable !== null && usable.claims.dec === 'won') {
    // A win the ceiling held is kept, not spent, while `queue_all` is on.
    if (config.queueAll)
      return resultWith({
        decision: 'wait',
        outcome: 'keepwaiting',
        reason: 'queue_all',
        kid: usable.kid,
        waitDueSec: nowSec + d,
        used,
      });
    return (await admitNew('won_admitted', null)) ?? noSigningKey(config.activeKey);
  }

  // Before the start nobody computes a rank: a pre-queue token kept from a pre-queue the operator has
  // since moved later keeps its countdown.
  // A bot (a token of the infinite queue, or a rule's mark with `bot_queue` on) gets no place in it.
  const markedBot = stillBot || (input.bot === true && config.botQueue);
  if (phase === 'prequeue' || (phase === 'before' && usable?.claims.dec === 'pre'))
    return prequeue(input, usable, failure, used, nowSec, markedBot);

  // Where a token that holds a place stands, for the page and the log (never before the start).
  const placeFor = async (claims: TokenClaims, key: CryptoKey): Promise<Place | null> =>
    claims.arr === undefined || !holdsPlace(claims)
      ? null
      : placeOf({ ...claims, arr: claims.arr }, key, input.keys, config, nowSec, diag);
  const at = (place: Place | null) =>
    place === null ? null : { pos: place.pos, cursor: place.cursor, queue: place.queue };

  // A new token for the visitor: a place at the back in `fifo`, else the draw's; due at its own offset
  // into the window that starts at `exp`.
  const waitFrom = async (
    exp: number,
    reason: ReasonCode,
    pct: number | null = null,
    keep?: Usable,
    bot = stillBot,
  ): Promise<DecideResult> => {
    const dec = keep?.claims.dec ?? 'wait';
    // The infinite queue holds no place: its tokens are the draw's, and never win it.
    const arr = keep !== undefined ? keep.claims.arr : config.queueingMethod === 'fifo' && !bot ? nowSec : undefined;
    const issued = await issue(input, dec, exp, arr, keep, bot);
    if (issued === null) return noSigningKey(config.activeKey);
    const renewed = keep !== undefined;
    return resultWith({
      decision: renewed ? 'wait' : 'start',
      outcome: renewed ? 'keepwaiting' : 'startwaiting',
      reason,
      ...issuedParts(issued),
      waitDueSec: dueAt(issued.token, exp, config),
      waitExpirySec: exp,
      used,
      pct,
      place: at(await placeFor(issued.claims, issued.key)),
      bot,
    });
  };

  // A visitor a routing rule marks a bot, in a room with the infinite queue: a token of it, unless they
  // hold one already (or an allow token, kept above). Without `bot_queue` the mark is only logged.
  if (input.bot === true && config.botQueue && !stillBot)
    return waitFrom(boundary(nowSec, d, 2), 'bot_queued', null, undefined, true);

  // A place its holder stopped checking on is lost: a new token, at the back.
  if (usable !== null && holdsPlace(usable.claims) && nowSec >= placeLostAt(usable.claims.exp, config)) {
    return waitFrom(boundary(nowSec, d, 1), 'token_stale');
  }

  if (config.queueAll) {
    if (usable === null) return waitFrom(boundary(nowSec, d, 2), 'queue_all');
    const due = dueAt(usable.signature, usable.claims.exp, config);
    const place = at(await placeFor(usable.claims, usable.key));
    if (nowSec < due)
      return resultWith({
        decision: 'wait',
        outcome: 'keepwaiting',
        reason: 'queue_all',
        kid: usable.kid,
        waitDueSec: due,
        waitExpirySec: usable.claims.exp,
        used,
        place,
        bot: stillBot,
      });
    // Renewed so that `queue_all` never costs a visitor their place (or their token's freshness).
    return waitFrom(boundary(nowSec, d, 1), 'queue_all', null, holdsPlace(usable.claims) ? usable : undefined);
  }

  if (
    usable !== null &&
    usable.claims.dec === 'wait' &&
    usable.claims.arr === undefined &&
    config.queueingMethod === 'fifo' &&
    !stillBot
  ) {
    // A draw's token when the room is first-come: it joins the line now.
    return waitFrom(boundary(nowSec, d, 1), 'queue_waiting');
  }

  if (
    usable !== null &&
    holdsPlace(usable.claims) &&
    (usable.claims.dec === 'pre' || config.queueingMethod === 'fifo')
  ) {
    const place = (await placeFor(usable.claims, usable.key))!;
    const { exp } = usable.claims;
    if (place.byCursor || usable.claims.dec === 'pre') {
      // Due first, as for a draw: coming back every second must not get anyone in sooner.
      const due = dueAt(usable.signature, exp, config);
      if (nowSec < due)
        return resultWith({
          decision: 'wait',
          outcome: 'keepwaiting',
          reason: 'wait_not_due',
          kid: usable.kid,
          waitDueSec: due,
          waitExpirySec: exp,
          used,
          place: at(place),
        });
      const behind = usable.claims.dec !== 'pre' && prequeueDraining(config, phase, nowSec);
      // Checked in its own window only: a copy kept from an earlier window (another cookie jar, an
      // old tab) is renewed first, into the very token the visitor's current one renews to, so
      // holding several copies never gets anyone in sooner.
      const inWindow = nowSec < exp + d;
      if (place.pos < place.cursor && !behind && inWindow)
        return (await admitNew('cursor_passed', null, place)) ?? noSigningKey(config.activeKey);
      return waitFrom(boundary(nowSec, d, 1), behind ? 'behind_prequeue' : 'queue_waiting', null, usable);
    }
    // First-come with no cursor published: the token draws as the draw's do, and keeps its place.
    diag('queue_cursor is not set: first-come tokens draw at allow_percentage until the controller publishes a cursor');
    return drawOrRenew(usable, place);
  }

  if (usable !== null && (usable.claims.dec === 'wait' || usable.claims.dec === 'pre')) {
    if (prequeueDraining(config, phase, nowSec)) {
      const due = dueAt(usable.signature, usable.claims.exp, config);
      if (nowSec < due)
        return resultWith({
          decision: 'wait',
          outcome: 'keepwaiting',
          reason: 'wait_not_due',
          kid: usable.kid,
          waitDueSec: due,
          waitExpirySec: usable.claims.exp,
          used,
          bot: stillBot,
        });
      // The pre-queue goes first: no draw, and the next window's token, as a loser gets.
      return waitFrom(boundary(nowSec, d, 1), 'behind_prequeue');
    }
    return drawOrRenew(usable, null);
  }

  return waitFrom(boundary(nowSec, d, 2), failure!.reason);

  /** The draw of a due token: admitted on a win; on a loss, the next window's token (with the same place, if any). */
  async function drawOrRenew(token: Usable, place: Place | null): Promise<DecideResult> {
    const { exp } = token.claims;
    const due = dueAt(token.signature, exp, config);
    if (nowSec < due) {
      return resultWith({
        decision: 'wait',
        outcome: 'keepwaiting',
        reason: 'wait_not_due',
        kid: token.kid,
        waitDueSec: due,
        waitExpirySec: exp,
        used,
        place: at(place),
        bot: stillBot,
      });
    }
    const keep = holdsPlace(token.claims) ? token : undefined;
    // Past its window and the one of grace: no draw, or a kept pile of old tickets would all be drawn
    // at once when the operator raises allow_percentage. Like a loser: the next boundary.
    if (nowSec >= staleAt(exp, config)) return waitFrom(boundary(nowSec, d, 1), 'token_stale', null, keep);
    const chance = chanceFor(config, exp);
    // The infinite queue's token "loses", as a loser of the real queue does, whatever the chance.
    if (stillBot) return waitFrom(exp + d, 'bot_waiting', chance);
    // A proof asked and not brought: a failed or skipped one sends the visitor to the infinite queue
    // when the room has one; else (a wrong one, a visitor without JavaScript) a share of the chance.
    const proof = presented === null ? null : await drawProof(config, presented, token, input.proof);
    // A page that sent nothing may not have solved yet: not drawn in its own window, its puzzle given.
    if (proof === 'missing' && presented?.token === token.token && pageWithoutProof(input.proof) && nowSec < exp + d) {
      return resultWith({
        decision: 'wait',
        outcome: 'keepwaiting',
        reason: 'proof_pending',
        kid: token.kid,
        waitDueSec: exp + d,
        waitExpirySec: exp,
        used,
        place: at(place),
      });
    }
    const proofCheck = proof === null ? {} : { proofCheck: proof };
    if ((proof === 'failed' || proof === 'skipped') && config.botQueue)
      return { ...(await waitFrom(exp + d, 'bot_queued', chance, undefined, true)), ...proofCheck };
    const pct = proof === null || proof === 'valid' ? chance : chance * config.proofFreeShare;
    if (drawWins(token.signature, pct)) {
      return { ...((await admitNew('draw_won', pct)) ?? noSigningKey(config.activeKey)), ...proofCheck };
    }
    // Lost: the next token expires at the NEXT boundary (docs/design.md: one draw per window per identity).
    // One window after its own, even when drawn in the window of grace: the successor the log named
    // when the token was issued, so the controller knows it; a holder who came late draws it on time.
    return { ...(await waitFrom(exp + d, 'draw_lost', pct, keep)), ...proofCheck };
  }
}

/**
 * The pre-queue: everyone not inside holds a pre-queue token for this event's start and sees the
 * countdown. The token is the same for an identity on every device, so more tabs or devices get
 * nothing; its rank is computed only from the start.
 */
async function prequeue(
  input: DecideInput,
  usable: Usable | null,
  failure: { reason: ReasonCode } | null,
  used: TokenRef | null,
  nowSec: number,
  bot: boolean,
): Promise<DecideResult> {
  const { config } = input;
  const start = config.event!.start;
  // A bot sees the countdown with a token of the infinite queue for the start: no place, and from the
  // start it waits there (docs/bots.md).
  if (bot) {
    const kept = usable?.bot && usable.claims.dec === 'wait' ? usable : null;
    const issued = kept === null ? await issue(input, 'wait', start, undefined, undefined, true) : null;
    if (kept === null && issued === null) return noSigningKey(config.activeKey);
    const signature = kept?.signature ?? issued!.token;
    return resultWith({
      decision: kept === null ? 'start' : 'wait',
      outcome: 'prequeue',
      reason: kept === null ? 'bot_queued' : 'prequeue_waiting',
      ...(issued === null ? { kid: kept!.kid } : issuedParts(issued)),
      waitDueSec: prequeueRecheck(signature, start, nowSec, config),
      waitExpirySec: start,
      used,
      bot: true,
    });
  }
  if (usable !== null && usable.claims.dec === 'pre') {
    return resultWith({
      decision: 'wait',
      outcome: 'prequeue',
      reason: 'prequeue_waiting',
      kid: usable.kid,
      waitDueSec: prequeueRecheck(usable.signature, start, nowSec, config),
      waitExpirySec: start,
      used,
    });
  }
  const issued = await issue(input, 'pre', start, start);
  if (issued === null) return noSigningKey(config.activeKey);
  return resultWith({
    decision: 'start',
    outcome: 'prequeue',
    reason: failure?.reason === 'token_other_event' ? 'token_other_event' : 'prequeue_joined',
    ...issuedParts(issued),
    waitDueSec: prequeueRecheck(issued.token, start, nowSec, config),
    waitExpirySec: start,
    used,
  });
}
