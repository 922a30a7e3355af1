// Scheduled events, the first-come queue, hold and the operator's message on the built Wasm
// (docs/events.md): what a visitor's browser and an app see, cookie by cookie, on real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedKey } from '../../src/core/tokens/keys.js';
import { prequeuePosition, rank } from '../../src/core/decision/position.js';
import { claimsOf, nowSeconds, roomCookieValue } from '../../lib/mint.js';
import { startRoom, TEST_KID, waitFor, type Room } from '../../lib/room-host.js';

const SEED = Buffer.alloc(32, 9);
const d = 5; // short windows: a token falls due within a second or so of its window's start
const iso = (sec: number): string => new Date(sec * 1000).toISOString();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let room: Room;
beforeAll(async () => {
  room = await startRoom({ settings: { allow_percentage: '100' } });
  await room.setKeys({ [TEST_KID]: room.key.base64, 'event-seed': SEED.toString('base64') });
});
afterAll(async () => {
  await room?.stop();
});

const base = { wait_period_duration: String(d), allow_period_duration: '3600', allow_percentage: '20' };
const get = (cookie: string | null, json = false) =>
  fetch(`${room.url}/tickets`, {
    headers: {
      ...(cookie ? { cookie: `waiting_room_default=${cookie}` } : {}),
      ...(json ? { accept: 'application/json' } : {}),
    },
  });

describe('a scheduled on-sale', () => {
  it('shows the countdown with the message, then lets the pre-queue in by its seeded rank', async () => {
    const start = nowSeconds() + 4;
    await room.setConfig({
      ...base,
      event_prequeue_start: iso(start - 600),
      event_start: iso(start),
      message: 'Doors open at ten <sharp>.',
    });
    const page = await get(null);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('Doors open at ten &lt;sharp&gt;.');
    const token = roomCookieValue(page)!;
    expect(claimsOf(token)).toMatchObject({ dec: 'pre', arr: start, exp: start });

    const json = (await (await get(token, true)).json()) as { waitingRoom: Record<string, unknown> };
    expect(json.waitingRoom).toMatchObject({ status: 'prequeue', message: 'Doors open at ten <sharp>.' });
    expect(json.waitingRoom.startsInSeconds).toBeGreaterThan(0);
    expect(json.waitingRoom.startsInSeconds).toBeLessThanOrEqual(4);

    // The controller's cursor at the start: every pre-queue place is below it.
    await room.setConfig({
      ...base,
      event_prequeue_start: iso(start - 600),
      event_start: iso(start),
      queue_cursor: `${start}:${start}:0`,
    });
    while (nowSeconds() < start + 2) await sleep(250);
    const inside = await get(token);
    expect(inside.status, room.errors().slice(-20).join('\n')).toBe(200);
    expect(inside.headers.get('x-echo')).toBe('1');
    const line = await waitFor(() => room.decisions().find((l) => l.reason === 'cursor_passed'));
    const expected = prequeuePosition(start, await rank(await seedKey(SEED), start, claimsOf(token).sub));
    // The log line carries the place to the microsecond (src/core/log/log-line.ts).
    expect(line.pos).toBe(Math.round(expected * 1e6) / 1e6);
    expect(line.dec).toBe('pre');
  });

  it('closes with the event when its end action says so, and clears the cookie', async () => {
    const now = nowSeconds();
    await room.setConfig({ ...base, event_start: iso(now - 60), event_end: iso(now - 1), event_end_action: 'close' });
    const res = await get(null);
    expect(res.headers.getSetCookie().join(';')).toMatch(/waiting_room_default=;/);
    await waitFor(() => room.decisions().find((l) => l.reason === 'event_closed'));
  });
});

describe('first come, first served', () => {
  it('keeps the arrival across renewals, shows the place in line, and admits once the cursor passes', async () => {
    const now = nowSeconds();
    const settings = {
      ...base,
      queueing_method: 'fifo',
      queue_cursor: `${now}:${now - 100}:0`,
      queue_counts: `${now - 100}=0,${now + 100}=800`,
    };
    await room.setConfig(settings);
    const first = await get(null, true);
    const token = roomCookieValue(first)!;
    const arr = claimsOf(token).arr!;
    expect(arr).toBeGreaterThanOrEqual(now);
    const body = (await first.json()) as { waitingRoom: Record<string, number | string | null> };
    expect(body.waitingRoom.queueingMethod).toBe('fifo');
    // About (arrival - cursor) / 200 * 800 = 400 ahead; the cursor stands still, so no turn time.
    expect(body.waitingRoom.visitorsAhead).toBeGreaterThan(380);
    expect(body.waitingRoom.visitorsAhead).toBeLessThan(430);
    expect(body.waitingRoom.turnInSeconds).toBeNull();

    await room.setConfig({ ...settings, queue_cursor: `${now}:${now + 1000}:0` });
    const due = Number(first.headers.get('retry-after'));
    await sleep(due * 1000 + 200);
    const inside = await get(token);
    expect(inside.headers.get('x-echo')).toBe('1');
  });
});

describe('hold', () => {
  it('queues new visitors and keeps those inside inside', async () => {
    await room.setConfig({ ...base, allow_percentage: '100' });
    const allowed = roomCookieValue(await get(null))!;
    await room.setConfig({ ...base, allow_percentage: '100', queue_all: 'true', message: 'Paused for a moment.' });
    const inside = await get(allowed);
    expect(inside.headers.get('x-echo')).toBe('1');
    const held = await get(null);
    expect(held.headers.get('x-echo')).toBeNull();
    expect(await held.text()).toContain('Paused for a moment.');
    await waitFor(() => room.decisions().find((l) => l.reason === 'queue_all'));
  });
});
