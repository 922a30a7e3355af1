// What a waiting, countdown or deny answer says, before it is rendered: one estimate for the draw's
// visitors, none where no draw decides the wait, and the status that says whose fault a failure is.
import { describe, expect, it } from 'vitest';
import { answerFacts, type AnsweredResult } from '../../../src/core/answer/answer.js';
import { answerJson, pageVars } from '../../../src/core/pages/answer-body.js';
import { hmacKey } from '../../../src/core/tokens/keys.js';
import { templateView } from '../../../src/core/pages/pages.js';
import { proofChallenge, proofCompact, proofJson } from '../../../src/core/tokens/proof.js';
import { CursorPlanner } from '../../../control/model/index.js';
import { parseConfig } from '../../../src/core/settings/index.js';
import { DENY_PAGE_TIMER } from '../../../src/core/decision/draw.js';
import { cursorAt } from '../../../src/core/decision/position.js';
import { parsedLine } from '../../control/lines.js';
import type { ReasonCode } from '../../../src/core/types.js';

const NOW_MS = Date.UTC(2026, 0, 1, 0, 0, 5);
const NOW = NOW_MS / 1000;
const config = (extra: Record<string, string> = {}) =>
  parseConfig((k) => ({ allow_percentage: '20', wait_period_duration: '30', ...extra })[k] ?? null).config;
const waiting = (reason: ReasonCode, extra: Partial<AnsweredResult> = {}): AnsweredResult => ({
  outcome: 'keepwaiting',
  reason,
  waitDueSec: NOW + 17,
  waitExpirySec: NOW + 5,
  ...extra,
});

describe('answerFacts', () => {
  it("estimates the draw's wait, and none where no draw decides it", () => {
    expect(answerFacts(config(), waiting('draw_lost'), NOW_MS, () => 0)).toMatchObject({
      place: null,
      placeQueue: null,
    });
    expect(answerFacts(config(), waiting('draw_lost'), NOW_MS, () => 0).estimate).not.toBeNull();
    for (const reason of ['queue_all', 'behind_prequeue'] as const) {
      expect(answerFacts(config(), waiting(reason), NOW_MS, () => 0).estimate).toBeNull();
    }
    const inLine = answerFacts(
      config(),
      waiting('queue_waiting', { place: { pos: NOW + 3, cursor: NOW - 10, queue: 'fifo' } }),
      NOW_MS,
      () => 0,
    );
    expect(inLine.estimate).toBeNull();
    expect(inLine.place).toEqual({ ahead: null, turnSeconds: null });
    expect(inLine.placeQueue).toBe('fifo');
    const denied = answerFacts(
      config(),
      { outcome: 'deny', reason: 'deny_all', waitDueSec: null, waitExpirySec: null },
      NOW_MS,
      () => 0,
    );
    expect(denied).toMatchObject({ page: 'deny', estimate: null });
  });

  it('tells an app on the deny page to come back when the page itself does: 300 s plus up to 60', () => {
    const deny = (random: number) =>
      answerFacts(
        config(),
        { outcome: 'deny', reason: 'deny_all', waitDueSec: null, waitExpirySec: null },
        NOW_MS,
        () => random,
      );
    expect(deny(0)).toMatchObject({
      retryAfterSeconds: DENY_PAGE_TIMER.seconds,
      refreshIntervalSeconds: 300,
      jitterSeconds: 60,
    });
    expect(deny(0.5).refreshIntervalSeconds).toBe(330);
    const closed = answerFacts(
      config(),
      { outcome: 'deny', reason: 'event_closed', waitDueSec: null, waitExpirySec: null },
      NOW_MS,
      () => 0.99,
    );
    expect(closed.refreshIntervalSeconds).toBe(359);
  });

  it('tells a winner the ceiling holds the second or two the ceiling takes', () => {
    const held = answerFacts(
      config(),
      waiting('ceiling_held', { waitDueSec: NOW + 1, waitExpirySec: null }),
      NOW_MS,
      () => 0,
    );
    expect(held.estimate).toEqual({ p25: 1, p50: 1, p75: 3 });
  });

  it('counts down to the event on the pre-queue page', () => {
    const start = new Date(NOW_MS + 600_000).toISOString();
    const facts = answerFacts(
      config({ event_start: start }),
      waiting('prequeue_waiting', { outcome: 'prequeue' }),
      NOW_MS,
      () => 0,
    );
    expect(facts).toMatchObject({ page: 'prequeue', estimate: null, eventStart: start, startsInSeconds: 600 });
  });

  it("answers 503 when the room cannot sign, whatever waiting_status says, and adds the jitter's share to the refresh", () => {
    const facts = answerFacts(
      config({ waiting_status: '429' }),
      waiting('no_signing_key', { outcome: 'startwaiting' }),
      NOW_MS,
      () => 0.99,
    );
    expect(facts).toMatchObject({ status: 503, retryAfterSeconds: 17, refreshIntervalSeconds: 19, jitterSeconds: 2 });
    expect(answerFacts(config({ waiting_status: '429' }), waiting('draw_lost'), NOW_MS, () => 0).status).toBe(429);
  });

  it("never tells the only visitor of a pre-queue that more are ahead than the controller's counts hold", () => {
    // The case: an event at a target of 600 a minute, one visitor in the pre-queue. The
    // controller publishes its cursor and counts just after the start; the edge answers from them.
    const start = Math.floor(NOW / 10) * 10 + 600;
    const iso = (sec: number) => new Date(sec * 1000).toISOString();
    const settings: Record<string, string> = {
      allow_percentage: '1',
      wait_period_duration: '10',
      new_users_per_minute: '600',
      event_prequeue_start: iso(start - 300),
      event_start: iso(start),
    };
    const planner = new CursorPlanner(25);
    planner.settings(parseConfig((k) => settings[k] ?? null).config);
    planner.observe(
      parsedLine(
        {
          tsMs: (start - 100) * 1000,
          reason: 'prequeue_joined',
          outcome: 'prequeue',
          newTid: 'T0000001',
          newDec: 'pre',
          newExp: start,
        },
        10,
      ),
    );
    const writes = planner.plan((start + 1) * 1000, 10, 600, start, 0, true)!;
    expect(writes.queue_counts).toMatch(/=1$/);
    const edge = parseConfig((k) => ({ ...settings, ...writes })[k] ?? null).config;
    const nowMs = (start + 2) * 1000;
    const cursor = cursorAt(edge.queueCursor!, start + 2);
    const facts = answerFacts(
      edge,
      {
        outcome: 'keepwaiting',
        reason: 'queue_waiting',
        waitDueSec: start + 13,
        waitExpirySec: start + 10,
        place: { pos: start - 0.1, cursor, queue: 'prequeue' },
      },
      nowMs,
      () => 0,
    );
    expect(facts.place!.ahead).toBe(0);
    expect(facts.placeQueue).toBe('prequeue');
  });
});

describe('the estimate before the controller has planned', () => {
  const fresh = (extra: Partial<AnsweredResult> = {}): AnsweredResult => ({
    outcome: 'startwaiting',
    reason: 'no_token',
    waitDueSec: NOW + 70,
    waitExpirySec: NOW + 55,
    ...extra,
  });

  it('promises no minutes from the placeholder chance a controller starts from: it says it is working the wait out', () => {
    // allow_percentage=1 with a target: the controller will publish each window's chance; 1% is not it.
    const facts = answerFacts(config({ allow_percentage: '1', new_users_per_minute: '600' }), fresh(), NOW_MS, () => 0);
    expect(facts.estimate).toBeNull();
    expect(facts.estimatePending).toBe(true);
    const json = JSON.parse(answerJson(facts)).waitingRoom;
    expect(json).toMatchObject({ waitTime50PercentileSeconds: null, waitTimePending: true });
  });

  it('estimates from the forecast once the controller publishes one, and from allow_percentage without a target', () => {
    const start = Math.floor(NOW / 30) * 30;
    const schedule = [0, 1, 2, 3].map((k) => `${start + k * 30}=60`).join(',');
    const planned = answerFacts(
      config({ allow_percentage: '1', new_users_per_minute: '600', allow_schedule: schedule }),
      fresh(),
      NOW_MS,
      () => 0,
    );
    expect(planned.estimatePending).toBe(false);
    expect(planned.estimate!.p75).toBeLessThan(200);
    const byHand = answerFacts(config({ allow_percentage: '20' }), fresh(), NOW_MS, () => 0);
    expect(byHand).toMatchObject({ estimatePending: false });
    expect(byHand.estimate).not.toBeNull();
  });

  it('gives figures from any other chance with a target set: a room with a target and no controller is not left pending for ever', () => {
    const facts = answerFacts(
      config({ allow_percentage: '10', wait_period_duration: '20', new_users_per_minute: '120' }),
      fresh(),
      NOW_MS,
      () => 0,
    );
    expect(facts.estimatePending).toBe(false);
    expect(facts.estimate).not.toBeNull();
  });

  it("promises a newcomer no draw's minutes while a sale's pre-queue still goes first", () => {
    const start = Math.floor(NOW / 30) * 30 - 60;
    const iso = (sec: number) => new Date(sec * 1000).toISOString();
    const draining = config({
      allow_percentage: '1',
      event_prequeue_start: iso(start - 600),
      event_start: iso(start),
      queue_cursor: `${start}:${start - 1}:0.001`,
    });
    for (const reason of ['no_token', 'behind_prequeue'] as const) {
      const facts = answerFacts(draining, fresh({ reason }), NOW_MS, () => 0);
      expect(facts).toMatchObject({ estimate: null, estimatePending: true });
    }
    // queue_all is a pause, not a wait being worked out.
    expect(
      answerFacts(config({ queue_all: 'true' }), fresh({ reason: 'queue_all' }), NOW_MS, () => 0).estimatePending,
    ).toBe(false);
  });
});

describe('the proof in the answer', () => {
  it("is the JSON answer's waitingRoom.proof and the page's proof variables, null and false without one", async () => {
    const proof = await proofChallenge('a.b.c', await hmacKey(new Uint8Array(64).fill(7)), 3);
    const facts = answerFacts(config(), waiting('draw_lost', { proof }), NOW_MS, () => 0);
    expect(JSON.parse(answerJson(facts)).waitingRoom.proof).toEqual(proofJson(proof));
    expect(templateView(pageVars(facts))).toMatchObject({
      proofRequired: true,
      proofSeconds: 3,
      proofCompact: proofCompact(proof),
    });
    const none = answerFacts(config(), waiting('draw_lost'), NOW_MS, () => 0);
    expect(JSON.parse(answerJson(none)).waitingRoom.proof).toBeNull();
    expect(templateView(pageVars(none))).toMatchObject({
      proofRequired: false,
      proofSeconds: null,
      proofCompact: null,
    });
  });
});
