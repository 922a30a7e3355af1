// The control model on a fake clock, fed decision lines as the edge writes them.
import { describe, expect, it } from 'vitest';
import { createControlModel } from '../../../control/model/control-model.js';
import type { DecisionLine } from '../../../control/types.js';
import { heardLine, HOLDING, idFor, LIVE, parsedLine, waitArrivals } from '../lines.js';

const D = 30;
const T0 = Date.UTC(2026, 0, 1);
const line = (partial: Partial<DecisionLine> & { tsMs: number; reason: string }): DecisionLine =>
  parsedLine(partial, D);
const arrivals = (n: number, ms: number, salt: number): DecisionLine[] => waitArrivals(n, ms, salt, D);
const heard = (tsMs: number): DecisionLine => heardLine(tsMs, D);

const settings = (extra: Record<string, string> = {}) => ({ wait_period_duration: String(D), ...extra });

describe('the control model', () => {
  it('only observes without a target, and says why', () => {
    const model = createControlModel();
    model.settings(settings({ allow_percentage: '50' }), T0);
    for (const l of arrivals(100, T0, 0)) model.observe(l);
    expect(model.plan(T0 + 1000, LIVE)).toBeNull();
    expect(model.snapshot(T0 + 1000)).toMatchObject({ mode: 'observing' });
    expect(model.snapshot(T0 + 1000).why).toMatch(/new_users_per_minute/);
  });

  it('names a nonsense target and only observes', () => {
    const model = createControlModel();
    model.settings(settings({ allow_percentage: '50', new_users_per_minute: '-3' }), T0);
    for (const l of arrivals(10, T0, 0)) model.observe(l);
    expect(model.plan(T0 + 1000, LIVE)).toBeNull();
    expect(model.snapshot(T0 + 1000).why).toMatch(/new_users_per_minute/);
  });

  it("fixes a window's chance to admit the target from the tickets it knows", () => {
    const model = createControlModel({ leadSeconds: 25 });
    model.settings(settings({ allow_percentage: '50', new_users_per_minute: '100' }), T0);
    // 1,000 tickets for the cohort of T0 + 60 s, issued in the first window.
    for (const l of arrivals(1000, T0 + 5000, 0)) model.observe(l);
    model.observe(heard(T0 + 16_000)); // the log covers more than the 10 s the model waits for
    const at = T0 + 35_000; // 25 s before that window opens
    model.settings(settings({ allow_percentage: '50', new_users_per_minute: '100' }), at);
    const writes = model.plan(at, LIVE);
    const entry = writes?.allow_schedule?.split(',').find((e) => e.startsWith(`${T0 / 1000 + 60}=`));
    expect(entry).toBeDefined();
    const pct = Number(entry!.split('=')[1]);
    // 50 wanted (100 a minute, 30-second windows) out of 1,000 tickets, 95% expected back: about 5.3%.
    expect(pct).toBeGreaterThan(4.5);
    expect(pct).toBeLessThan(6.2);
    expect(model.snapshot(at)).toMatchObject({ mode: 'queueing', waiting: 1000 });
  });

  it('counts distinct tokens, not lines: five devices and ten reloads are one visitor', () => {
    const model = createControlModel();
    model.settings(settings({ allow_percentage: '50', new_users_per_minute: '100' }), T0);
    const [first] = arrivals(1, T0, 0);
    for (let i = 0; i < 5; i++) model.observe({ ...first!, tsMs: T0 + i });
    for (let i = 0; i < 10; i++)
      model.observe(
        line({
          tsMs: T0 + 1000 + i,
          reason: 'wait_not_due',
          decision: 'wait',
          outcome: 'keepwaiting',
          tid: first!.newTid,
          exp: first!.newExp,
          dec: 'wait',
        }),
      );
    model.plan(T0 + 2000, LIVE);
    expect(model.snapshot(T0 + 2000).waiting).toBe(1);
  });

  it('publishes no schedule from the first seconds of a crowd, when every window would read 100%', () => {
    const model = createControlModel({ leadSeconds: 25 });
    model.settings(settings({ allow_percentage: '10', new_users_per_minute: '100' }), T0);
    for (const l of arrivals(300, T0 + 1000, 0)) model.observe(l);
    model.observe(heard(T0 + 6000));
    expect(model.plan(T0 + 8000, LIVE)).toBeNull();
    expect(model.snapshot(T0 + 8000).why).toMatch(/first seconds/);
    model.observe(heard(T0 + 12_000));
    expect(model.plan(T0 + 13_000, LIVE)?.allow_schedule).toBeDefined();
  });

  it("expects the crowd of the deny page back after an opening, at the page's timer", () => {
    const chanceAfterOpening = (denied: number): number => {
      const model = createControlModel({ leadSeconds: 25 });
      model.settings(settings({ allow_percentage: '0', new_users_per_minute: '100' }), T0);
      // The crowd behind the closed room: each visitor's deny page, spread over the last five minutes.
      for (let i = 0; i < denied; i++)
        model.observe(
          line({
            tsMs: T0 + Math.floor((i / denied) * 300_000),
            reason: 'deny_all',
            decision: 'deny',
            outcome: 'deny',
          }),
        );
      const open = T0 + 300_000;
      model.settings(settings({ allow_percentage: '1', new_users_per_minute: '100' }), open);
      for (const l of arrivals(50, open + 1000, 0)) model.observe(l);
      model.observe(heard(open + 12_000));
      const writes = model.plan(open + 13_000, LIVE)!;
      // A window two minutes after the opening: by then the deny page's crowd is coming back.
      const w = (open + 120_000) / 1000;
      return Number(
        writes
          .allow_schedule!.split(',')
          .find((e) => e.startsWith(`${w}=`))!
          .split('=')[1],
      );
    };
    const without = chanceAfterOpening(0);
    const withCrowd = chanceAfterOpening(3000);
    expect(withCrowd).toBeLessThan(without / 2);
  });

  it('writes nothing while holding, and says so', () => {
    const model = createControlModel();
    model.settings(settings({ allow_percentage: '50', new_users_per_minute: '100' }), T0);
    for (const l of arrivals(100, T0 + 5000, 0)) model.observe(l);
    expect(model.plan(T0 + 35_000, HOLDING)).toBeNull();
    expect(model.snapshot(T0 + 35_000).why).toMatch(/holding/);
  });

  it('keeps active sessions under the cap', () => {
    const model = createControlModel();
    model.settings(settings({ allow_percentage: '50', new_users_per_minute: '600', total_active_users: '20' }), T0);
    // 15 sessions already active.
    for (let i = 0; i < 15; i++)
      model.observe(
        line({
          tsMs: T0 + i,
          reason: 'draw_won',
          decision: 'allow',
          outcome: 'origin',
          newTid: idFor(i / 15, 77),
          newExp: 0,
          newDec: 'allow',
        }),
      );
    for (const l of arrivals(1000, T0 + 5000, 0)) model.observe(l);
    model.observe(heard(T0 + 30_000));
    const writes = model.plan(T0 + 35_000, LIVE);
    const pct = Number(
      writes!
        .allow_schedule!.split(',')
        .find((e) => e.startsWith(`${T0 / 1000 + 60}=`))!
        .split('=')[1],
    );
    // Room for 5 more, not the 300 the target alone would allow: about 5 of 1,000 tickets.
    expect(pct).toBeLessThan(1);
    expect(model.snapshot(T0 + 35_000).activeSessions).toBe(15);
  });

  it('honours chances an earlier run published once their decision time has passed', () => {
    const model = createControlModel({ leadSeconds: 25 });
    const t = T0 / 1000;
    model.settings(
      settings({ allow_percentage: '50', new_users_per_minute: '100', allow_schedule: `${t + 30}=12.5,${t + 60}=40` }),
      T0 + 10_000,
    );
    for (const l of arrivals(1000, T0 + 5000, 0)) model.observe(l);
    model.observe(heard(T0 + 16_000));
    const writes = model.plan(T0 + 16_000, LIVE);
    expect(writes!.allow_schedule).toContain(`${t + 30}=12.5`);
    expect(writes!.allow_schedule).not.toContain(`${t + 60}=40`);
  });
  it("plans as if the infinite queue's visitors were not there: bots never win, so they are no demand", () => {
    const chance = (bots: boolean): number => {
      const model = createControlModel({ leadSeconds: 25 });
      model.settings(settings({ allow_percentage: '50', new_users_per_minute: '100' }), T0);
      for (const l of arrivals(1000, T0 + 5000, 0)) model.observe(l);
      // 3,000 bot-queued tokens: new ones, and the same holders checking again before their draw.
      if (bots) {
        for (const l of arrivals(3000, T0 + 6000, 50)) {
          model.observe({ ...l, reason: 'bot_queued', bot: true });
          model.observe({
            ...l,
            tsMs: T0 + 9000,
            reason: 'wait_not_due',
            decision: 'wait',
            outcome: 'keepwaiting',
            tid: l.newTid,
            exp: l.newExp,
            dec: 'wait',
            newTid: null,
            newExp: null,
            newDec: null,
            nextTid: null,
            bot: true,
          });
        }
      }
      model.observe(heard(T0 + 16_000));
      const writes = model.plan(T0 + 35_000, LIVE)!;
      expect(model.snapshot(T0 + 35_000).waiting).toBe(1000);
      return Number(
        writes
          .allow_schedule!.split(',')
          .find((e) => e.startsWith(`${T0 / 1000 + 60}=`))!
          .split('=')[1],
      );
    };
    expect(chance(true)).toBe(chance(false));
  });

  it('stops counting a real ticket whose draw sent it to the infinite queue: neither it nor its successor is still demand', () => {
    const waitingAfter = (queued: number): number => {
      const model = createControlModel({ leadSeconds: 25 });
      model.settings(
        settings({ allow_percentage: '50', new_users_per_minute: '100', proof_of_work: 'fixed', bot_queue: 'on' }),
        T0,
      );
      const tickets = arrivals(1000, T0 + 5000, 0);
      for (const l of tickets) model.observe(l);
      // At their draw (window T0 + 60 s), `queued` of them bring a malformed proof: the infinite queue.
      for (const l of tickets.slice(0, queued)) {
        model.observe(
          line({
            tsMs: T0 + 61_000,
            reason: 'bot_queued',
            tid: l.newTid,
            exp: l.newExp,
            dec: 'wait',
            newTid: idFor(0.5, 900 + tickets.indexOf(l)),
            newExp: l.newExp! + D,
            newDec: 'wait',
            nextTid: idFor(0.7, 2000 + tickets.indexOf(l)),
            pct: 5,
            proof: 'failed',
            bot: true,
          }),
        );
      }
      model.observe(heard(T0 + 62_000));
      model.plan(T0 + 62_000, LIVE);
      return model.snapshot(T0 + 62_000).waiting;
    };
    expect(waitingAfter(0)).toBe(1000);
    expect(waitingAfter(300)).toBe(700);
  });

  it('counts no ticket from a check refused for hammering (its token was never verified)', () => {
    const model = createControlModel();
    model.settings(settings({ allow_percentage: '50', new_users_per_minute: '100' }), T0);
    for (const l of arrivals(10, T0, 0)) model.observe(l);
    // Forged or real, a hammered token is read without its signature: 50 ids nobody issued.
    for (let i = 0; i < 50; i++) {
      model.observe(
        line({
          tsMs: T0 + 1000 + i,
          reason: 'hammering',
          decision: 'wait',
          outcome: 'keepwaiting',
          tid: idFor(i / 50, 99),
          exp: T0 / 1000 + 60,
          dec: 'wait',
        }),
      );
    }
    model.plan(T0 + 2000, LIVE);
    expect(model.snapshot(T0 + 2000).waiting).toBe(10);
  });

  describe('while a proof of work is asked and the draws bring none', () => {
    /** The queueing room of the test above, with 300 draws of the window before that brought no proof (at 2% published, 0.4% drawn). */
    function model(extra: Record<string, string>, drawsWithout: number) {
      const m = createControlModel({ leadSeconds: 25 });
      m.settings(settings({ allow_percentage: '50', new_users_per_minute: '100', ...extra }), T0);
      for (const l of arrivals(1000, T0 + 5000, 0)) m.observe(l);
      for (let i = 0; i < drawsWithout; i++) {
        m.observe(
          line({
            tsMs: T0 + 8000,
            reason: 'draw_lost',
            decision: 'wait',
            outcome: 'startwaiting',
            pct: 0.4,
            proof: 'missing',
          }),
        );
      }
      m.observe(heard(T0 + 16_000));
      return m;
    }
    const chance = (writes: ReturnType<ReturnType<typeof model>['plan']>): number =>
      Number(
        writes!
          .allow_schedule!.split(',')
          .find((e) => e.startsWith(`${T0 / 1000 + 60}=`))!
          .split('=')[1],
      );

    it('publishes the chance the target needs over the share the draws get, and shows that share', () => {
      const plain = chance(model({}, 0).plan(T0 + 35_000, LIVE));
      const m = model({ proof_of_work: 'fixed', proof_seconds: '5' }, 300);
      const pct = chance(m.plan(T0 + 35_000, LIVE));
      // About 5.3% is what 50 of 1,000 need; drawn at a fifth of it, 26.5% must be published.
      expect(pct).toBeCloseTo(plain * 5, 0);
      expect(m.snapshot(T0 + 35_000).proofShare).toBeCloseTo(0.2, 6);
      // The same draw lines in a room that asks no proof (they came before it was turned off): no share.
      const off = model({}, 300);
      expect(chance(off.plan(T0 + 35_000, LIVE))).toBe(plain);
      expect(off.snapshot(T0 + 35_000).proofShare).toBeNull();
    });

    it('keeps the share it learned across a restart, and reads a state saved before it', () => {
      const m = model({ proof_of_work: 'fixed', proof_seconds: '5' }, 300);
      m.plan(T0 + 35_000, LIVE);
      const saved = m.save();
      const again = createControlModel({ leadSeconds: 25, restore: JSON.parse(JSON.stringify(saved)) });
      expect(again.snapshot(T0 + 35_000).proofShare).toBeCloseTo(0.2, 6);
      const old = JSON.parse(JSON.stringify(saved));
      for (const k of ['proofAsked', 'proofFreeShare', 'proofDraws']) delete old.state[k];
      const before = createControlModel({ leadSeconds: 25, restore: old });
      expect(before.snapshot(T0 + 35_000).proofShare).toBeNull();
      before.settings(
        settings({ allow_percentage: '50', new_users_per_minute: '100', proof_of_work: 'fixed' }),
        T0 + 35_000,
      );
      expect(before.snapshot(T0 + 35_000).proofShare).toBe(1);
    });
  });
});
