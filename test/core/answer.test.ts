// What a waiting, countdown or deny answer says, before it is rendered: one estimate for the draw's
// visitors, none where no draw decides the wait, and the status that says whose fault a failure is.
import { describe, expect, it } from 'vitest';
import { answerFacts, type AnsweredResult } from '../../src/core/answer.js';
import { parseConfig } from '../../src/core/config.js';
import type { ReasonCode } from '../../src/core/types.js';

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
    expect(answerFacts(config(), waiting('draw_lost'), NOW_MS, () => 0).estimate).not.toBeNull();
    for (const reason of ['queue_all', 'behind_prequeue'] as const) {
      expect(answerFacts(config(), waiting(reason), NOW_MS, () => 0).estimate).toBeNull();
    }
    const inLine = answerFacts(config(), waiting('queue_waiting', { place: { pos: NOW + 3, cursor: NOW - 10 } }), NOW_MS, () => 0);
    expect(inLine.estimate).toBeNull();
    expect(inLine.place).toEqual({ ahead: null, turnSeconds: null });
    const denied = answerFacts(config(), { outcome: 'deny', reason: 'deny_all', waitDueSec: null, waitExpirySec: null }, NOW_MS, () => 0);
    expect(denied).toMatchObject({ page: 'deny', estimate: null, retryAfterSeconds: 30 });
  });

  it('tells a winner the ceiling holds the second or two the ceiling takes', () => {
    const held = answerFacts(config(), waiting('ceiling_held', { waitDueSec: NOW + 1, waitExpirySec: null }), NOW_MS, () => 0);
    expect(held.estimate).toEqual({ p25: 1, p50: 1, p75: 3 });
  });

  it('counts down to the event on the pre-queue page', () => {
    const start = new Date(NOW_MS + 600_000).toISOString();
    const facts = answerFacts(config({ event_start: start }), waiting('prequeue_waiting', { outcome: 'prequeue' }), NOW_MS, () => 0);
    expect(facts).toMatchObject({ page: 'prequeue', estimate: null, eventStart: start, startsInSeconds: 600 });
  });

  it("answers 503 when the room cannot sign, whatever waiting_status says, and adds the jitter's share to the refresh", () => {
    const facts = answerFacts(config({ waiting_status: '429' }), waiting('no_signing_key', { outcome: 'startwaiting' }), NOW_MS, () => 0.99);
    expect(facts).toMatchObject({ status: 503, retryAfterSeconds: 17, refreshIntervalSeconds: 19, jitterSeconds: 2 });
    expect(answerFacts(config({ waiting_status: '429' }), waiting('draw_lost'), NOW_MS, () => 0).status).toBe(429);
  });
});
