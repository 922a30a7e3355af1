// Scheduled events, the first-come queue and `queue_all` (docs/events.md) through the real decide():
// the pre-queue's countdown token, the shuffled start, places kept and lost, the cursor and its fallback.
import { base64url } from 'jose';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/core/settings/index.js';
import { decide } from '../../../src/core/decision/index.js';
import { createKeyRing, seedKey } from '../../../src/core/tokens/keys.js';
import { prequeuePosition, rank } from '../../../src/core/decision/position.js';
import type { DecideResult } from '../../../src/core/decision/result.js';
import type { TokenClaims } from '../../../src/core/types.js';

const KEY = Buffer.from(Uint8Array.from({ length: 64 }, (_, i) => (i * 37 + 11) & 255)).toString('base64');
const KEY2 = Buffer.from(Uint8Array.from({ length: 64 }, (_, i) => (i * 13 + 5) & 255)).toString('base64');
const SEED = Uint8Array.from({ length: 32 }, (_, i) => (i * 7 + 3) & 255);
const START = Date.UTC(2026, 11, 1, 10, 0, 0) / 1000; // on a 30 s boundary
const iso = (sec: number) => new Date(sec * 1000).toISOString();

function room(
  settings: Record<string, string>,
  keys: Record<string, string> = { k1: KEY, 'event-seed': Buffer.from(SEED).toString('base64') },
) {
  const diags: string[] = [];
  const all: Record<string, string> = {
    allow_percentage: '10',
    wait_period_duration: '30',
    active_key: 'k1',
    ...settings,
  };
  const { config, problems } = parseConfig((k) => all[k] ?? null);
  expect(problems).toEqual([]);
  const keyRing = () =>
    createKeyRing(
      async (kid) => keys[kid] ?? null,
      (m) => diags.push(m),
    );
  const at = (sec: number, identity: string, tokens: string[] = []): Promise<DecideResult> =>
    decide({ config, keys: keyRing(), identity, tokens, nowMs: sec * 1000, diag: (m) => diags.push(m) });
  return { at, config, diags };
}

const claims = (token: string): TokenClaims => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
const event = { event_prequeue_start: iso(START - 3600), event_start: iso(START) };

describe('the pre-queue', () => {
  it('gives every new visitor a countdown token for the start, the same on every device of one identity', async () => {
    const r = room(event);
    const a = await r.at(START - 600, 'ip:1');
    const b = await r.at(START - 599, 'ip:1');
    expect(a.outcome).toBe('prequeue');
    expect(a.reason).toBe('prequeue_joined');
    expect(a.setToken).toBe(b.setToken);
    expect(claims(a.setToken!)).toMatchObject({ dec: 'pre', exp: START, arr: START });
    // Checks back within five minutes, or at its own offset into the first window after the start.
    expect(a.waitDueSec).toBe(START - 600 + 300);
    const late = await r.at(START - 20, 'ip:1', [a.setToken!]);
    expect(late.reason).toBe('prequeue_waiting');
    expect(late.setToken).toBeNull();
    expect(late.waitDueSec!).toBeGreaterThanOrEqual(START);
    expect(late.waitDueSec!).toBeLessThan(START + 30);
  });

  it('holds even at allow_percentage 100, and lets a visitor already inside stay inside', async () => {
    const r = room({ ...event, allow_percentage: '100' });
    const before = await r.at(START - 7200, 'ip:1');
    expect(before.outcome).toBe('origin');
    const during = await r.at(START - 1800, 'ip:1', [before.setToken!]);
    expect(during.outcome).toBe('origin');
    expect((await r.at(START - 1800, 'ip:2')).outcome).toBe('prequeue');
  });

  it('turns a draw token held when the pre-queue opens into a pre-queue place', async () => {
    const r = room({ ...event, event_prequeue_start: iso(START - 60) });
    const waiting = await r.at(START - 120, 'ip:1');
    expect(claims(waiting.setToken!).dec).toBe('wait');
    const joined = await r.at(START - 30, 'ip:1', [waiting.setToken!]);
    expect(joined.outcome).toBe('prequeue');
    expect(claims(joined.setToken!).dec).toBe('pre');
  });
});

describe('the shuffled start', () => {
  it('ranks each pre-queue token by the event seed, which anyone can recompute once it is revealed', async () => {
    const r = room({ ...event, queue_cursor: `${START}:${START - 1}:0` });
    const joined = await r.at(START - 100, 'ip:1');
    const c = claims(joined.setToken!);
    const after = await r.at(START + 40, 'ip:1', [joined.setToken!]);
    expect(after.reason).toBe('queue_waiting');
    const expected = prequeuePosition(START, await rank(await seedKey(SEED), START, c.sub));
    expect(after.place!.pos).toBeCloseTo(expected, 12);
    // Its line is the pre-queue's: the page says the start shuffled it, not that a draw picks.
    expect(after.place!.queue).toBe('prequeue');
    // Renewed with the same place: same sub and arrival, next window.
    expect(claims(after.setToken!)).toMatchObject({ dec: 'pre', sub: c.sub, arr: START, exp: START + 60 });
  });

  it('admits exactly the places the cursor has passed, in rank order', async () => {
    const half = `${START}:${START - 0.5}:0`;
    const r = room({ ...event, queue_cursor: half });
    const outcomes: { pos: number; admitted: boolean }[] = [];
    for (let i = 0; i < 60; i++) {
      const t = (await r.at(START - 100, `ip:${i}`)).setToken!;
      // Late in the first window after the start, when every pre-queue token is due and still in its window.
      const res = await r.at(START + 27, `ip:${i}`, [t]);
      outcomes.push({ pos: res.place!.pos, admitted: res.outcome === 'origin' });
    }
    for (const o of outcomes) expect(o.admitted).toBe(o.pos < START - 0.5);
    const admitted = outcomes.filter((o) => o.admitted).length;
    expect(admitted).toBeGreaterThan(15);
    expect(admitted).toBeLessThan(45);
  });

  it('gives a pre-queue token replayed from another identity nothing', async () => {
    const r = room({ ...event, queue_cursor: `${START}:${START}:0` });
    const mine = (await r.at(START - 100, 'ip:1')).setToken!;
    const theirs = await r.at(START + 40, 'ip:2', [mine]);
    expect(theirs.reason).toBe('token_other_identity');
    expect(theirs.outcome).toBe('startwaiting');
    expect(claims(theirs.setToken!).dec).toBe('wait');
  });

  it('refuses a pre-queue token for another start', async () => {
    const r = room(event);
    const old = (await r.at(START - 100, 'ip:1')).setToken!;
    const moved = room({ ...event, event_start: iso(START + 600) });
    const res = await moved.at(START - 50, 'ip:1', [old]);
    expect(res.reason).toBe('token_other_event');
    expect(claims(res.setToken!)).toMatchObject({ dec: 'pre', arr: START + 600 });
  });

  it('keeps every visitor who arrives after the start behind the pre-queue, whatever their draw', async () => {
    const r = room({ ...event, allow_percentage: '99', queue_cursor: `${START}:${START - 1}:0.001` });
    let held = 0;
    for (let i = 0; i < 20; i++) {
      const first = await r.at(START + 10, `late:${i}`);
      const again = await r.at(first.waitDueSec!, `late:${i}`, [first.setToken!]);
      expect(again.outcome).not.toBe('origin');
      if (again.reason === 'behind_prequeue') held++;
    }
    expect(held).toBe(20);
    // Once the cursor has passed the start, they draw as usual (99%).
    const open = room({ ...event, allow_percentage: '99', queue_cursor: `${START}:${START}:0` });
    const first = await open.at(START + 10, 'late:0');
    expect((await open.at(first.waitDueSec!, 'late:0', [first.setToken!])).reason).toBe('draw_won');
  });

  it('without a published cursor, drains allow_percentage of the pre-queue per window', async () => {
    const r = room({ ...event, allow_percentage: '25' });
    const held = await Promise.all(
      Array.from({ length: 80 }, async (_, i) => (await r.at(START - 100, `ip:${i}`)).setToken!),
    );
    const inside = new Set<number>();
    // Each visitor checks late in every window (due, and in the token's own window), keeping what the room sets.
    const window = async (sec: number) => {
      for (let i = 0; i < 80; i++) {
        if (inside.has(i)) continue;
        const res = await r.at(sec, `ip:${i}`, [held[i]!]);
        if (res.outcome === 'origin') inside.add(i);
        else if (res.setToken !== null) held[i] = res.setToken;
      }
      return inside.size;
    };
    // A quarter, then (renewed tokens fall due a window later) three quarters, then all.
    const first = await window(START + 29);
    expect(first).toBeGreaterThan(8);
    expect(first).toBeLessThan(32);
    await window(START + 59);
    const third = await window(START + 89);
    expect(third).toBeGreaterThan(48);
    expect(third).toBeLessThan(72);
    expect(await window(START + 119)).toBe(80);
  });

  it('keeps a place when the active key rotates: renewals are signed by the key that holds the place', async () => {
    const keys = { k1: KEY, k2: KEY2, 'event-seed': Buffer.from(SEED).toString('base64') };
    const r = room({ ...event, queue_cursor: `${START}:${START - 1}:0` }, keys);
    const t = (await r.at(START - 100, 'ip:1')).setToken!;
    const first = await r.at(START + 40, 'ip:1', [t]);
    const rotated = room({ ...event, active_key: 'k2', queue_cursor: `${START}:${START - 1}:0` }, keys);
    const second = await rotated.at(START + 70, 'ip:1', [first.setToken!]);
    expect(second.place!.pos).toBe(first.place!.pos);
  });

  it('ranks with the signing key, and says so, when the store has no event seed', async () => {
    const r = room({ ...event, queue_cursor: `${START}:${START - 1}:0` }, { k1: KEY });
    const t = (await r.at(START - 100, 'ip:1')).setToken!;
    const res = await r.at(START + 40, 'ip:1', [t]);
    expect(res.place!.pos).toBeGreaterThanOrEqual(START - 1);
    expect(r.diags.some((m) => m.includes('event-seed'))).toBe(true);
  });

  it('never takes the event seed as a token key', async () => {
    const r = room(event, { k1: KEY, 'event-seed': KEY });
    const t = (await r.at(START - 100, 'ip:1')).setToken!;
    const [h, p, sig] = t.split('.');
    const header = base64url.encode(JSON.stringify({ alg: 'HS512', kid: 'event-seed' }));
    const res = await r.at(START - 90, 'ip:1', [`${header}.${p}.${sig}`]);
    expect(h).not.toBe(header);
    expect(res.reason).toBe('prequeue_joined');
  });
});

describe('first come, first served', () => {
  const fifo = { queueing_method: 'fifo' };

  it('stamps the arrival once and keeps it across renewals', async () => {
    const r = room({ ...fifo, queue_cursor: `${START}:${START - 100}:0` });
    const first = await r.at(START + 3, 'ip:1');
    expect(claims(first.setToken!)).toMatchObject({ dec: 'wait', arr: START + 3 });
    let token = first.setToken!;
    let at = first.waitDueSec!;
    for (let i = 0; i < 3; i++) {
      const res = await r.at(at, 'ip:1', [token]);
      expect(res.reason).toBe('queue_waiting');
      expect(claims(res.setToken!).arr).toBe(START + 3);
      token = res.setToken!;
      at = res.waitDueSec!;
    }
  });

  it('admits in arrival order as the cursor passes', async () => {
    const r = room({ ...fifo, queue_cursor: `${START + 100}:${START + 10}:0` });
    const early = (await r.at(START + 5, 'ip:early')).setToken!;
    const late = (await r.at(START + 20, 'ip:late')).setToken!;
    expect((await r.at(START + 87, 'ip:early', [early])).reason).toBe('cursor_passed');
    expect((await r.at(START + 87, 'ip:late', [late])).outcome).not.toBe('origin');
  });

  it('lets nobody in before their token is due, however often they come back', async () => {
    const r = room({ ...fifo, queue_cursor: `${START}:${START + 1000}:0` });
    const first = await r.at(START + 3, 'ip:1');
    for (let t = START + 4; t < first.waitDueSec!; t++) {
      expect((await r.at(t, 'ip:1', [first.setToken!])).reason).toBe('wait_not_due');
    }
    expect((await r.at(first.waitDueSec!, 'ip:1', [first.setToken!])).reason).toBe('cursor_passed');
  });

  it('keeps a first-come place past the start behind the pre-queue until it has had two windows to come in', async () => {
    // The cursor passes the start at START + 10; latecomers wait until START + 70 (two windows later).
    const r = room({ ...fifo, ...event, queue_cursor: `${START}:${START - 1}:0.1` });
    const seen = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const late = await r.at(START + 2, `late:${i}`);
      const first = await r.at(late.waitDueSec!, `late:${i}`, [late.setToken!]);
      if (late.waitDueSec! < START + 70) {
        expect(first.reason).toBe('behind_prequeue');
        const next = await r.at(first.waitDueSec!, `late:${i}`, [first.setToken!]);
        expect(next.reason).toBe('cursor_passed');
      } else {
        expect(first.reason).toBe('cursor_passed');
      }
      seen.add(first.reason);
    }
    expect(seen).toEqual(new Set(['behind_prequeue', 'cursor_passed']));
  });

  it('loses the place of a visitor who stops checking for longer than place_kept_seconds', async () => {
    const r = room({ ...fifo, place_kept_seconds: '120', queue_cursor: `${START}:${START - 100}:0` });
    const first = await r.at(START + 3, 'ip:1');
    const exp = claims(first.setToken!).exp;
    const kept = await r.at(exp + 30 + 119, 'ip:1', [first.setToken!]);
    expect(claims(kept.setToken!).arr).toBe(START + 3);
    const lost = await r.at(exp + 30 + 120, 'ip:1', [first.setToken!]);
    expect(lost.reason).toBe('token_stale');
    expect(claims(lost.setToken!).arr).toBe(exp + 150);
  });

  it('moves the cursor at its last speed when the controller stops, for half an hour', async () => {
    const r = room({ ...fifo, queue_cursor: `${START}:${START}:0.6` });
    const t = (await r.at(START + 100, 'ip:1')).setToken!;
    // 0.6 positions a second, published at START and never again: START + 100.x is passed at about START + 168.
    expect((await r.at(START + 160, 'ip:1', [t])).outcome).not.toBe('origin');
    expect((await r.at(START + 179, 'ip:1', [t])).reason).toBe('cursor_passed');
  });

  it('shows a place in line from the published counts and a turn from the cursor speed', async () => {
    const r = room({
      ...fifo,
      queue_cursor: `${START + 10}:${START}:0.5`,
      queue_counts: `${START}=0,${START + 100}=400`,
    });
    const res = await r.at(START + 10, 'ip:1');
    expect(res.place!.cursor).toBe(START);
    expect(res.place!.pos).toBeGreaterThanOrEqual(START + 10);
    expect(res.place!.pos).toBeLessThan(START + 11);
    expect(res.place!.queue).toBe('fifo');
  });
});

describe('queue_all and the end of an event', () => {
  it('admits nobody new, keeps those inside, and keeps a held place', async () => {
    const open = room({ allow_percentage: '100' });
    const inside = (await open.at(START, 'ip:in')).setToken!;
    const r = room({
      queue_all: 'true',
      allow_percentage: '100',
      queueing_method: 'fifo',
      queue_cursor: `${START}:${START + 1000}:0`,
    });
    expect((await r.at(START + 5, 'ip:in', [inside])).outcome).toBe('origin');
    const waiting = await r.at(START + 5, 'ip:new');
    expect(waiting.reason).toBe('queue_all');
    expect(waiting.outcome).toBe('startwaiting');
    const again = await r.at(waiting.waitDueSec!, 'ip:new', [waiting.setToken!]);
    expect(again.outcome).toBe('keepwaiting');
    expect(claims(again.setToken!).arr).toBe(START + 5);
  });

  it('closes or passes everyone after the end, as event_end_action says', async () => {
    const ends = { event_start: iso(START), event_end: iso(START + 3600) };
    const closed = await room({ ...ends, event_end_action: 'close' }).at(START + 3600, 'ip:1');
    expect(closed).toMatchObject({ outcome: 'deny', reason: 'event_closed', clearCookie: true });
    const passed = await room({ ...ends, event_end_action: 'pass' }).at(START + 3600, 'ip:1');
    expect(passed).toMatchObject({ outcome: 'origin', reason: 'event_passed' });
    const normal = await room({ ...ends }).at(START + 3600, 'ip:1');
    expect(normal.outcome).toBe('startwaiting');
  });
});

describe('closing at the end', () => {
  it('lets a visitor admitted before the end finish on their allow token, without renewing it, then closes', async () => {
    const ends = {
      event_start: iso(START),
      event_end: iso(START + 3600),
      event_end_action: 'close',
      allow_period_duration: '300',
    };
    const before = await room({ ...ends, allow_percentage: '100' }).at(START + 3590, 'ip:in');
    expect(before.outcome).toBe('origin');
    const allow = before.setToken!;
    const exp = claims(allow).exp;
    expect(exp).toBeGreaterThan(START + 3600);
    const r = room(ends);
    // Checking out after the end: still inside, on the same token (less than a period left, so
    // before the end it would have been renewed).
    const inside = await r.at(exp - 10, 'ip:in', [allow]);
    expect(inside).toMatchObject({ outcome: 'origin', reason: 'allow_valid', setToken: null, clearCookie: false });
    // Its token spent, the closed page.
    expect(await r.at(exp, 'ip:in', [allow])).toMatchObject({
      outcome: 'deny',
      reason: 'event_closed',
      clearCookie: true,
    });
    // Nobody new gets in, nor anyone who was waiting.
    expect(await r.at(START + 3601, 'ip:new')).toMatchObject({ outcome: 'deny', reason: 'event_closed' });
    const waiting = (await room({ event_start: iso(START) }).at(START + 3500, 'ip:w')).setToken!;
    expect(await r.at(START + 3601, 'ip:w', [waiting])).toMatchObject({ outcome: 'deny', reason: 'event_closed' });
  });
});

describe('an event on an open room', () => {
  it('still starts in shuffled order at allow_percentage 100, then opens', async () => {
    const r = room({ ...event, allow_percentage: '100' });
    const t = (await r.at(START - 100, 'ip:1')).setToken!;
    const late = await r.at(START + 1, 'ip:late');
    expect(late.outcome).toBe('startwaiting');
    // Without a controller, 100% of the pre-queue per window: all passed in the first window.
    const pre = await r.at(START + 29, 'ip:1', [t]);
    expect(pre.reason).toBe('cursor_passed');
    // Two windows after the cursor passed the start (START + 30), the room is open again.
    expect((await r.at(START + 90, 'ip:other')).reason).toBe('allow_all');
  });
});

describe('copies of a place', () => {
  it('are checked only in their own window, so a copy kept in a second jar gets nobody in sooner', async () => {
    const r = room({ ...event, queue_cursor: `${START}:${START - 1}:0` });
    const old = (await r.at(START - 100, 'ip:1')).setToken!;
    // The cursor jumps past every place; the copy left from before the start (exp = START) is out of its window.
    const passed = room({ ...event, queue_cursor: `${START + 40}:${START}:0` });
    const late = await passed.at(START + 45, 'ip:1', [old]);
    expect(late.reason).toBe('queue_waiting');
    expect(claims(late.setToken!)).toMatchObject({ dec: 'pre', exp: START + 60, arr: START });
    // The renewed copy is admitted at its own due time in its window.
    expect((await passed.at(late.waitDueSec!, 'ip:1', [late.setToken!])).reason).toBe('cursor_passed');
  });
});
