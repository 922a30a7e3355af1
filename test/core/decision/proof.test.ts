// The proof of work at the draw and the infinite queue, through the real decide() (docs/bots.md):
// a valid proof draws at the full chance, a missing one at proof_free_share of it, a failed or skipped
// one goes to the infinite queue when the room has one, and the infinite queue never wins.
import { describe, expect, it } from 'vitest';
import { solveChallenges } from '../../../lib/proof-solve.js';
import { parseConfig } from '../../../src/core/settings/index.js';
import { decide, type DecideInput } from '../../../src/core/decision/index.js';
import { drawValue, signatureOf } from '../../../src/core/decision/draw.js';
import { identityHash } from '../../../src/core/request/identity.js';
import { createKeyRing, hmacKey } from '../../../src/core/tokens/keys.js';
import { prequeueDraining } from '../../../src/core/decision/queue.js';
import { proofChallenge, proofJson, type ProofChallenge } from '../../../src/core/tokens/proof.js';
import type { DecideResult } from '../../../src/core/decision/result.js';
import type { TokenClaims } from '../../../src/core/types.js';

const KEY_BYTES = Uint8Array.from({ length: 64 }, (_, i) => (i * 37 + 11) & 255);
const KEY = Buffer.from(KEY_BYTES).toString('base64');
const T = Date.UTC(2026, 0, 1) / 1000; // on a 30 s boundary
const claims = (token: string): TokenClaims => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());

function room(settings: Record<string, string>) {
  const all: Record<string, string> = {
    allow_percentage: '50',
    wait_period_duration: '30',
    active_key: 'k1',
    proof_of_work: 'fixed',
    proof_seconds: '0.01',
    ...settings,
  };
  const { config, problems } = parseConfig((k) => all[k] ?? null);
  expect(problems).toEqual([]);
  const at = (
    sec: number,
    identity: string,
    tokens: string[] = [],
    extra: Partial<DecideInput> = {},
  ): Promise<DecideResult> =>
    decide({
      config,
      keys: createKeyRing(
        async (kid) => (kid === 'k1' ? KEY : null),
        () => {},
      ),
      identity,
      tokens,
      nowMs: sec * 1000,
      ...extra,
    });
  return { at, config };
}

const solve = (challenge: ProofChallenge): Promise<string> => solveChallenges(proofJson(challenge).challenges);

/** A new visitor whose first token's draw value lies in [lo, hi) percent, and the second it falls due. */
async function visitorBetween(
  r: ReturnType<typeof room>,
  lo: number,
  hi: number,
): Promise<{ identity: string; token: string; due: number; first: DecideResult }> {
  for (let i = 0; i < 500; i++) {
    const identity = `ip:198.51.100.${i}`;
    const first = await r.at(T, identity);
    const v = drawValue(signatureOf(first.setToken!)) * 100;
    if (v >= lo && v < hi) return { identity, token: first.setToken!, due: first.waitDueSec!, first };
  }
  throw new Error('no such visitor');
}

describe('the proof at the draw', () => {
  it('every waiting answer of a draw token carries the puzzle of the token the visitor now holds', async () => {
    const r = room({});
    const first = await r.at(T, 'ip:1');
    const key = await hmacKey(KEY_BYTES);
    expect(first.proof).toEqual(await proofChallenge(first.setToken!, key, 0.01));
    const again = await r.at(T + 1, 'ip:1', [first.setToken!]);
    expect(again.reason).toBe('wait_not_due');
    expect(again.proof).toEqual(first.proof);
    // No proof asked: nothing in the answer.
    expect((await room({ proof_of_work: 'off' }).at(T, 'ip:1')).proof).toBeNull();
  });

  it('a valid proof draws at the full chance; none (a page without JavaScript) at proof_free_share of it', async () => {
    const r = room({});
    // A ticket between 10 and 50: a winner at 50%, a loser at 50% x 0.2.
    const v = await visitorBetween(r, 10, 50);
    const solution = await solve(v.first.proof!);
    const proved = await r.at(v.due, v.identity, [v.token], { proof: { header: solution, json: false } });
    expect(proved).toMatchObject({ outcome: 'origin', reason: 'draw_won', pct: 50, proofCheck: 'valid' });
    const without = await r.at(v.due, v.identity, [v.token], { proof: { header: 'none', json: false } });
    expect(without).toMatchObject({
      outcome: 'startwaiting',
      reason: 'draw_lost',
      pct: 10,
      proofCheck: 'missing',
      bot: false,
    });
    // No proof asked, no check: the draw as it always was, and nothing in the line.
    const off = room({ proof_of_work: 'off' });
    const w = await visitorBetween(off, 10, 50);
    expect(await off.at(w.due, w.identity, [w.token])).toMatchObject({ reason: 'draw_won', pct: 50, proofCheck: null });
  });

  it('a failed or skipped proof draws at the reduced share without bot_queue, and goes to the infinite queue with it', async () => {
    const open = room({});
    const v = await visitorBetween(open, 10, 50);
    expect(
      await open.at(v.due, v.identity, [v.token], { proof: { header: '1.2.3.4.5.6.7.x', json: false } }),
    ).toMatchObject({ reason: 'draw_lost', pct: 10, proofCheck: 'failed' });
    expect(await open.at(v.due, v.identity, [v.token], { proof: { header: null, json: true } })).toMatchObject({
      reason: 'draw_lost',
      pct: 10,
      proofCheck: 'skipped',
    });

    const guarded = room({ bot_queue: 'on' });
    const b = await visitorBetween(guarded, 0, 10);
    // Even a ticket that would win at the reduced share.
    for (const proof of [
      { header: '1.2.3.4.5.6.7.x', json: false },
      { header: null, json: true },
    ]) {
      const r = await guarded.at(b.due, b.identity, [b.token], { proof });
      expect(r).toMatchObject({
        decision: 'start',
        outcome: 'startwaiting',
        reason: 'bot_queued',
        bot: true,
        proofCheck: proof.header === null ? 'skipped' : 'failed',
      });
      // The same claims as a loser's successor; only the `sub` differs, and only the key holder can tell.
      const c = claims(r.setToken!);
      expect(Object.keys(c)).toEqual(['dec', 'exp', 'sub', 'room']);
      expect(c).toMatchObject({ dec: 'wait', exp: claims(b.token).exp + 30 });
      expect(c.sub).toBe(await identityHash(KEY_BYTES, b.identity, true));
    }
    // A page without JavaScript ('none', or nothing on an HTML request) is never sent there.
    expect(await guarded.at(b.due, b.identity, [b.token], { proof: { header: 'none', json: true } })).toMatchObject({
      reason: 'draw_won',
      proofCheck: 'missing',
    });
  });
});

describe('the infinite queue', () => {
  it('never wins, window after window at a 99.999% chance, and says bot_waiting only in the line', async () => {
    const r = room({ bot_queue: 'on', allow_percentage: '99.999', proof_of_work: 'off' });
    let token = (await r.at(T, 'ip:7', [], { bot: true })).setToken!;
    expect(claims(token).sub).toBe(await identityHash(KEY_BYTES, 'ip:7', true));
    let now = T;
    for (let window = 0; window < 40; window++) {
      const due = (await r.at(now, 'ip:7', [token])).waitDueSec!;
      const early = await r.at(Math.max(now, due - 1), 'ip:7', [token]);
      if (due - 1 >= now) expect(early).toMatchObject({ reason: 'wait_not_due', bot: true, setToken: null });
      const drawn = await r.at(due, 'ip:7', [token]);
      expect(drawn).toMatchObject({
        decision: 'start',
        outcome: 'startwaiting',
        reason: 'bot_waiting',
        bot: true,
        pct: 99.999,
      });
      expect(claims(drawn.setToken!).exp).toBe(claims(token).exp + 30);
      token = drawn.setToken!;
      now = due + 1;
    }
  });

  it('is entered by a rule mark only with bot_queue on, never while everyone is admitted, and an allow token is kept', async () => {
    const off = await room({}).at(T, 'ip:8', [], { bot: true });
    expect(off).toMatchObject({ reason: 'no_token', bot: false });
    const on = room({ bot_queue: 'on' });
    const marked = await on.at(T, 'ip:8', [], { bot: true });
    expect(marked).toMatchObject({ decision: 'start', reason: 'bot_queued', bot: true });
    // The puzzle too: a bot-queued answer is a waiting answer like any other.
    expect(marked.proof).not.toBeNull();
    const inside = await room({ allow_percentage: '100' }).at(T, 'ip:8');
    expect(await on.at(T + 1, 'ip:8', [inside.setToken!], { bot: true })).toMatchObject({
      outcome: 'origin',
      reason: 'allow_valid',
    });
    // An open room lets a marked visitor without a token through, as it lets everyone...
    expect(await room({ allow_percentage: '100', bot_queue: 'on' }).at(T, 'ip:8', [], { bot: true })).toMatchObject({
      outcome: 'origin',
      reason: 'allow_all',
    });
  });

  it('keeps its tokens when the room opens: the infinite queue does not empty into the origin with the real one', async () => {
    const queued = (await room({ bot_queue: 'on' }).at(T, 'ip:11', [], { bot: true })).setToken!;
    const open = room({ allow_percentage: '100', bot_queue: 'on' });
    for (const sec of [T + 1, T + 40, T + 65]) {
      const answer = await open.at(sec, 'ip:11', [queued], { bot: true });
      expect(answer.outcome).not.toBe('origin');
      expect(answer.bot).toBe(true);
    }
    // With the infinite queue turned off, its tokens are ordinary ones again: the open room lets them in.
    expect(await room({ allow_percentage: '100' }).at(T + 1, 'ip:11', [queued])).toMatchObject({
      outcome: 'origin',
      reason: 'allow_all',
    });
  });

  it('is left by dropping the cookie when the signal stops: a fresh token of the real queue', async () => {
    const r = room({ bot_queue: 'on' });
    const marked = await r.at(T, 'ip:9', [], { bot: true });
    expect((await r.at(T + 1, 'ip:9', [marked.setToken!])).bot).toBe(true);
    const fresh = await r.at(T + 2, 'ip:9', []);
    expect(fresh).toMatchObject({ reason: 'no_token', bot: false });
    expect(claims(fresh.setToken!).sub).toBe(await identityHash(KEY_BYTES, 'ip:9'));
    // Another identity's bot token is still another identity's.
    expect((await r.at(T + 2, 'ip:10', [marked.setToken!])).reason).toBe('token_other_identity');
  });

  it("keeps a first-come room's line out: a bot holds no place", async () => {
    const r = room({ bot_queue: 'on', queueing_method: 'fifo', queue_cursor: `${T}:0:1` });
    const marked = await r.at(T, 'ip:11', [], { bot: true });
    expect(claims(marked.setToken!).arr).toBeUndefined();
    const due = marked.waitDueSec!;
    expect(await r.at(due, 'ip:11', [marked.setToken!])).toMatchObject({
      reason: 'bot_waiting',
      bot: true,
      place: null,
    });
  });
});

describe('the review of the proof (issue 23)', () => {
  it('a solution replayed with a stale token is worth nothing: the caught-up token was never solved', async () => {
    const r = room({});
    const v = await visitorBetween(r, 10, 50);
    const solution = await solve(v.first.proof!);
    const exp = claims(v.token).exp;
    // Five windows on, the same token and its solution: the token is caught up, and that one is drawn.
    for (const json of [false, true]) {
      const replay = await r.at(v.due + 150, v.identity, [v.token], { proof: { header: solution, json } });
      expect(replay).toMatchObject({ proofCheck: 'missing', pct: 10 });
    }
    // In auto mode the presented token's old window asks nothing; the caught-up one's does.
    const caughtExp = Math.floor((v.due + 150) / 30) * 30 - 30;
    const auto = room({ proof_of_work: 'auto', proof_schedule: `${caughtExp}=0.01` });
    expect(caughtExp).toBeGreaterThan(exp);
    expect(
      await auto.at(v.due + 150, v.identity, [v.token], { proof: { header: solution, json: true } }),
    ).toMatchObject({ proofCheck: 'missing', pct: 10 });
  });

  it('a well-formed wrong solution is `wrong`: the reduced share, never the infinite queue; only a malformed one is `failed`', async () => {
    const guarded = room({ bot_queue: 'on' });
    const b = await visitorBetween(guarded, 0, 10);
    const wrong = await guarded.at(b.due, b.identity, [b.token], { proof: { header: '1.2.3.4.5.6.7.8', json: true } });
    expect(wrong).toMatchObject({ reason: 'draw_won', pct: 10, proofCheck: 'wrong', bot: false });
    // Solved at 0.01 s, checked after the operator changed the difficulty: an honest page, not a bot.
    const solution = await solve(b.first.proof!);
    const harder = room({ bot_queue: 'on', proof_seconds: '0.02' });
    expect(await harder.at(b.due, b.identity, [b.token], { proof: { header: solution, json: true } })).toMatchObject({
      proofCheck: 'wrong',
      bot: false,
    });
    expect(await guarded.at(b.due, b.identity, [b.token], { proof: { header: 'nonsense', json: true } })).toMatchObject(
      { reason: 'bot_queued', proofCheck: 'failed', bot: true },
    );
  });

  it('a page request with no header at its due time is not drawn yet in its own window: the page gets its puzzle and time to solve', async () => {
    const r = room({});
    const v = await visitorBetween(r, 10, 50);
    const exp = claims(v.token).exp;
    const pending = await r.at(v.due, v.identity, [v.token], { proof: { header: null, json: false } });
    expect(pending).toMatchObject({
      decision: 'wait',
      outcome: 'keepwaiting',
      reason: 'proof_pending',
      setToken: null,
      waitDueSec: exp + 30,
      pct: null,
      proofCheck: null,
    });
    expect(pending.proof).toEqual(v.first.proof);
    // The page then brings the solution, in the window of grace: the full chance.
    const solution = await solve(pending.proof!);
    expect(await r.at(exp + 30, v.identity, [v.token], { proof: { header: solution, json: false } })).toMatchObject({
      reason: 'draw_won',
      pct: 50,
      proofCheck: 'valid',
    });
    // A browser without JavaScript draws in the window of grace, at the reduced share.
    expect(await r.at(exp + 30, v.identity, [v.token], { proof: { header: null, json: false } })).toMatchObject({
      reason: 'draw_lost',
      pct: 10,
      proofCheck: 'missing',
    });
  });

  it("turning bot_queue off makes the infinite queue's tokens ordinary ones: they draw", async () => {
    const queued = (await room({ bot_queue: 'on', proof_of_work: 'off' }).at(T, 'ip:12', [], { bot: true })).setToken!;
    const off = room({ allow_percentage: '99.999', proof_of_work: 'off' });
    const due = (await off.at(T, 'ip:12', [queued])).waitDueSec!;
    expect(await off.at(due, 'ip:12', [queued])).toMatchObject({ reason: 'draw_won', bot: false });
  });

  it('gives no puzzle where no draw happens: under queue_all and while the pre-queue drains', async () => {
    expect((await room({ queue_all: 'true' }).at(T, 'ip:13')).proof).toBeNull();
    const iso = (sec: number) => new Date(sec * 1000).toISOString();
    const event = room({ event_prequeue_start: iso(T - 3600), event_start: iso(T), allow_percentage: '10' });
    // Just after the start, the pre-queue goes first: a newcomer's token is not drawn while it drains.
    const newcomer = await event.at(T + 1, 'ip:13');
    expect(prequeueDraining(event.config, 'running', T + 1)).toBe(true);
    expect(newcomer).toMatchObject({ outcome: 'startwaiting', proof: null });
  });

  it("keeps a marked bot out of the pre-queue's places: the countdown with a token of the infinite queue", async () => {
    const iso = (sec: number) => new Date(sec * 1000).toISOString();
    const r = room({
      event_prequeue_start: iso(T - 3600),
      event_start: iso(T),
      bot_queue: 'on',
      proof_of_work: 'off',
      allow_percentage: '99.999',
    });
    const marked = await r.at(T - 600, 'ip:14', [], { bot: true });
    expect(marked).toMatchObject({ outcome: 'prequeue', bot: true });
    const c = claims(marked.setToken!);
    expect(c).toMatchObject({ dec: 'wait', exp: T });
    expect(c.arr).toBeUndefined();
    expect(c.sub).toBe(await identityHash(KEY_BYTES, 'ip:14', true));
    const kept = await r.at(T - 300, 'ip:14', [marked.setToken!]);
    expect(kept).toMatchObject({ outcome: 'prequeue', bot: true, setToken: null });
    // After the start it waits in the infinite queue, never let in.
    let token = marked.setToken!;
    let now = T;
    for (let i = 0; i < 6; i++) {
      const due = (await r.at(now, 'ip:14', [token])).waitDueSec!;
      const drawn = await r.at(Math.max(due, now), 'ip:14', [token]);
      expect(drawn.outcome).not.toBe('origin');
      expect(drawn.bot).toBe(true);
      token = drawn.setToken ?? token;
      now = Math.max(due, now) + 1;
    }
  });
});
