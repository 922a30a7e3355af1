// A room's public status from its settings (src/core/status/room-status.ts): each state and its reason,
// the wait promised to a visitor arriving now, and the event's times, as a status page would read them.
import { describe, expect, it } from 'vitest';
import { roomStatus } from '../../../src/core/status/index.js';
import { parseConfig } from '../../../src/core/settings/index.js';
import { T0 } from '../../support/fakes.js';

const nowSec = T0 / 1000;
const iso = (sec: number): string => new Date(sec * 1000).toISOString();
const status = (settings: Record<string, string>, atMs = T0) =>
  roomStatus(parseConfig((k) => settings[k] ?? null, 'shop').config, atMs);

describe('the state of a room', () => {
  it('open at 100: nobody waits, a wait of 0', () => {
    expect(status({ allow_percentage: '100' })).toMatchObject({
      state: 'open',
      reason: 'allow_all',
      estimate: { p25: 0, p50: 0, p75: 0 },
    });
  });

  it('open when disabled: the room passes every request to the origin untouched', () => {
    expect(status({ enabled: 'false', allow_percentage: '0' })).toMatchObject({ state: 'open', reason: 'disabled' });
  });

  it('queueing below 100, with the wait the waiting page would promise a new visitor', () => {
    const s = status({ allow_percentage: '20', wait_period_duration: '20' });
    expect(s).toMatchObject({ state: 'queueing', reason: 'draw', pending: false, chancePercentage: 20 });
    expect(s.estimate!.p25).toBeGreaterThan(0);
    expect(s.estimate!.p75).toBeGreaterThan(s.estimate!.p25);
    // A lower chance, a longer wait.
    expect(status({ allow_percentage: '5', wait_period_duration: '20' }).estimate!.p50).toBeGreaterThan(
      s.estimate!.p50,
    );
  });

  it('queueing with the estimate pending while a target is set and no chance is published yet', () => {
    expect(status({ allow_percentage: '1', new_users_per_minute: '60' })).toMatchObject({
      state: 'queueing',
      estimate: null,
      pending: true,
    });
  });

  it("queueing first-come with the controller's cursor: the turn of someone arriving now", () => {
    // The cursor stands 120 s of arrivals behind now, and moves a second of arrivals a second.
    const s = status({ allow_percentage: '20', queueing_method: 'fifo', queue_cursor: `${nowSec}:${nowSec - 120}:1` });
    expect(s).toMatchObject({ state: 'queueing', reason: 'fifo' });
    expect(s.estimate!.p50).toBeGreaterThanOrEqual(120);
    expect(s.estimate!.p50).toBeLessThan(150);
  });

  it('queueing under queue_all, with no wait promised: nobody new is let in', () => {
    expect(status({ allow_percentage: '100', queue_all: 'true' })).toMatchObject({
      state: 'queueing',
      reason: 'queue_all',
      estimate: null,
    });
  });

  it('closed at 0, to an invitation-only room, and after an event that closes', () => {
    expect(status({ allow_percentage: '0' })).toMatchObject({ state: 'closed', reason: 'deny_all', estimate: null });
    expect(status({ allow_percentage: '100', invite_only: 'true' })).toMatchObject({
      state: 'closed',
      reason: 'invite_only',
    });
    const ended = { event_start: iso(nowSec - 7200), event_end: iso(nowSec - 60), event_end_action: 'close' };
    expect(status({ allow_percentage: '100', ...ended })).toMatchObject({
      state: 'closed',
      reason: 'event_closed',
      event: null,
    });
    expect(status({ allow_percentage: '20', ...ended, event_end_action: 'pass' })).toMatchObject({
      state: 'open',
      reason: 'event_passed',
    });
  });

  it("a countdown in a sale's pre-queue, with the event's times; before it, the room as configured and the start to come", () => {
    const event = {
      event_prequeue_start: iso(nowSec - 60),
      event_start: iso(nowSec + 600),
      event_end: iso(nowSec + 4200),
    };
    const s = status({ allow_percentage: '100', ...event });
    expect(s).toMatchObject({ state: 'countdown', reason: 'prequeue', startsInSeconds: 600, estimate: null });
    expect(s.event).toEqual({
      prequeueStart: nowSec - 60,
      start: nowSec + 600,
      end: nowSec + 4200,
      endAction: 'normal',
    });
    const before = status({ allow_percentage: '100', ...event, event_prequeue_start: iso(nowSec + 60) });
    expect(before).toMatchObject({ state: 'open', startsInSeconds: 600 });
  });

  it('queueing behind the pre-queue after the start, the wait pending until it is through', () => {
    const event = { event_prequeue_start: iso(nowSec - 600), event_start: iso(nowSec - 5) };
    expect(status({ allow_percentage: '100', wait_period_duration: '30', ...event })).toMatchObject({
      state: 'queueing',
      reason: 'behind_prequeue',
      estimate: null,
      pending: true,
    });
  });
});
