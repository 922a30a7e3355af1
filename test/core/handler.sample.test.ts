// log_sample_rate at the edge: waiting decisions are logged for a sample of token ids, with the
// weight in the line; admissions, renewals and deny lines always.
import { describe, expect, it } from 'vitest';
import { inLogSample } from '../../src/core/log/log-sample.js';
import { claimsOf, tokenOf } from '../../lib/mint.js';
import { FakeRoom, T0 } from '../support/fakes.js';

const D = 30;

describe('log_sample_rate', () => {
  it('logs new waiting visitors only for ids in the sample, each line weighing 1/rate', async () => {
    const room = new FakeRoom({
      settings: { allow_percentage: '50', wait_period_duration: String(D), log_sample_rate: '0.25' },
      nowMs: T0 + 7000,
    });
    let logged = 0;
    const n = 200;
    for (let i = 0; i < n; i++) {
      const answer = await room.visit({ ip: `198.51.100.${i % 250}`, headers: { 'x-n': String(i) } });
      const newTid = tokenOf(answer.roomCookies[0]!).split('.')[2]!.slice(0, 8);
      if (inLogSample(newTid, 0.25)) {
        expect(answer.log).toMatchObject({ newTid, w: 4 });
        logged++;
      } else {
        expect(answer.log).toBeUndefined();
      }
    }
    expect(logged).toBeGreaterThan(0.15 * n);
    expect(logged).toBeLessThan(0.35 * n);
  });

  it('always logs an admission, without a weight', async () => {
    const room = new FakeRoom({
      settings: { allow_percentage: '100', wait_period_duration: String(D), log_sample_rate: '0.001' },
      nowMs: T0 + 7000,
    });
    for (let i = 0; i < 20; i++) {
      const answer = await room.visit({ ip: `198.51.100.${i}` });
      expect(answer.fromOrigin).toBe(true);
      expect(answer.log).toMatchObject({ newDec: 'allow' });
      expect(answer.log).not.toHaveProperty('w');
    }
  });

  it('always logs a deny line', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: '0', log_sample_rate: '0.001' } });
    for (let i = 0; i < 10; i++)
      expect((await room.visit({ ip: `198.51.100.${i}` })).log).toMatchObject({ decision: 'deny' });
  });

  it('logs a held ticket the same way each time: its draw and its loss when in the sample, nothing when not', async () => {
    const room = new FakeRoom({
      settings: { allow_percentage: '50', wait_period_duration: String(D), log_sample_rate: '0.5' },
      nowMs: T0 + 7000,
    });
    let seenIn = 0;
    let seenOut = 0;
    for (let i = 0; i < 40 && (seenIn === 0 || seenOut === 0); i++) {
      room.nowMs = T0 + 7000;
      room.settings.delete('allow_schedule');
      const first = await room.visit({ ip: `198.51.100.${i}` });
      const token = tokenOf(first.roomCookies[0]!);
      const tid = token.split('.')[2]!.slice(0, 8);
      // Chance 0: the holder loses their draw; the line names the old ticket and its successor.
      room.settings.set('allow_schedule', `${claimsOf(token).exp}=0`);
      room.nowMs = (claimsOf(token).exp + D - 1) * 1000;
      const lost = await room.visit({ ip: `198.51.100.${i}`, cookie: `waiting_room_default=${token}` });
      const next = tokenOf(lost.roomCookies[0]!).split('.')[2]!.slice(0, 8);
      if (inLogSample(tid, 0.5)) {
        seenIn++;
        expect(first.log).toMatchObject({ newTid: tid, w: 2 });
        expect(lost.log).toMatchObject({ tid, reason: 'draw_lost', w: 2 });
      } else if (!inLogSample(next, 0.5)) {
        seenOut++;
        expect(first.log).toBeUndefined();
        expect(lost.log).toBeUndefined();
      }
    }
    expect(seenIn).toBeGreaterThan(0);
    expect(seenOut).toBeGreaterThan(0);
  });

  it('logs every waiting decision without a weight at the default rate', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: '50' } });
    const answer = await room.visit();
    expect(answer.log).toMatchObject({ outcome: 'startwaiting' });
    expect(answer.log).not.toHaveProperty('w');
  });
});
