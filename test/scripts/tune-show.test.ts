// What `npm run tune` and `--show` print about what the controller left in the store: its own
// heartbeat (not a problem: the controller writes it on purpose) and, per room, the chance a draw
// uses now and where it comes from. A fake clock stands for the time of the command.
import { afterEach, describe, expect, it } from 'vitest';
import { main as tune } from '../../scripts/tune.js';
import { captured, readJson, scratch, type Scratch } from './helpers.js';

const routing = JSON.stringify({
  rooms: [
    { id: 'shop', routes: ['/'] },
    { id: 'checkout', routes: ['/checkout'] },
  ],
  default_room: 'shop',
});
const settings = JSON.stringify({
  enabled: 'true',
  allow_percentage: '50',
  wait_period_duration: '10',
  active_key: 'key1',
});
/** 2026-12-05 07:05:20 UTC. */
const T0 = Date.UTC(2026, 11, 5, 7, 5, 20);
const sec = (ms: number) => Math.floor(ms / 1000);
const beat = (at: number) =>
  JSON.stringify({ id: '9af6d611', host: 'vm', pid: 210, started: sec(at) - 300, beat: sec(at), lease: 600 });

let s: Scratch;
afterEach(() => s.cleanup());
const run = (argv: string[], nowMs: number) => captured(() => tune(argv, { now: () => nowMs }));

describe("npm run tune: the controller's heartbeat", () => {
  it('is not a problem in a change or in the show, and the show names it with its age', async () => {
    s = scratch({ routing, settings, controller: beat(T0) });
    const change = await run(['allow_percentage=20'], T0 + 42_000);
    expect(change.result).toBe(0);
    expect(change.err).not.toMatch(/controller is a key the edge never reads/);
    const shown = await run(['--show'], T0 + 42_000);
    expect(shown.out).not.toMatch(/problem: controller/);
    expect(shown.out).toContain(
      'controller: heartbeat id 9af6d611 on host vm, pid 210, written 42 s ago (07:05:20 UTC), lease 600 s: alive',
    );
  });

  it("says a heartbeat older than its lease is a stopped controller's", async () => {
    s = scratch({ routing, settings, controller: beat(T0) });
    const shown = await run([], T0 + 3 * 3600_000);
    expect(shown.out).toContain(
      'written 3 h ago (07:05:20 UTC), lease 600 s: past its lease, so no controller writes to this store now',
    );
  });

  it('still calls a stray key a problem', async () => {
    s = scratch({ routing, settings, controller: beat(T0), allow_percentage: '10' });
    const shown = await run(['--show'], T0);
    expect(shown.out).toContain('problem: allow_percentage is a key the edge never reads');
    expect(readJson(s.config).controller).toBe(beat(T0));
  });
});

describe('npm run tune: the chance a draw uses now', () => {
  // 10-second windows; the controller wrote at T0 with a 600 s lease: its last entry, the fallback,
  // sits at the first window a lease and a minute on (07:16:20).
  const schedule = [`${sec(T0) - 60}=4`, `${sec(T0)}=3.25`, `${sec(T0) + 660}=2.5`].join(',');
  const store = (shop: Record<string, string> = {}) => ({
    routing,
    settings,
    'room.shop': JSON.stringify(shop),
    'room.shop.live': JSON.stringify({ allow_schedule: schedule }),
    'room.checkout.allow_percentage': '30',
    controller: beat(T0),
  });
  /** Room `room`'s part of the show (the routing's own `room shop: /` lines are indented). */
  const roomPart = (out: string, room: string) =>
    out.slice(out.indexOf(`\nroom ${room}:`) + 1).split(/\n(?:room |controller:)/)[0]!;

  it("names the schedule's entry in force, when it was written and when it falls to the fallback, as times of day", async () => {
    s = scratch(store({ fallback_percentage: '2.5' }));
    const r = await run([], T0 + 25_000);
    const shop = roomPart(r.out, 'shop');
    expect(shop).toContain(
      "chance now: 3.25%, from the controller's schedule (room.shop.live) written about 07:05 UTC: the entry for 07:05:20 UTC; it ends 07:16:20 UTC, then falls to fallback_percentage 2.5%",
    );
    expect(shop).not.toMatch(/\d{10}/);
    expect(shop).toMatch(/allow_schedule\s+= 3 entries, 07:04:20 UTC to 07:16:20 UTC\s+\(live: room\.shop\.live\)/);
    expect(roomPart(r.out, 'checkout')).toContain(
      "chance now: 30%, room checkout's own allow_percentage (room.checkout.allow_percentage)",
    );
  });

  it("says when the fallback is the forecast's lowest chance rather than fallback_percentage", async () => {
    s = scratch(store());
    const r = await run(['--show'], T0 + 25_000);
    expect(roomPart(r.out, 'shop')).toContain(
      'then falls to 2.5%, the lowest chance of its forecast (fallback_percentage is unset)',
    );
  });

  it("says a stopped controller's room stays on its last entry, and how to hand it back to allow_percentage", async () => {
    s = scratch(store({ fallback_percentage: '2.5' }));
    const r = await run([], T0 + 3 * 3600_000);
    expect(roomPart(r.out, 'shop')).toContain(
      "chance now: 2.5%, the last entry of the controller's schedule (room.shop.live) written about 07:05 UTC, which ended 07:16:20 UTC: the room stays on it (fallback_percentage) until it is cleared: npm run tune -- allow_schedule= (then the service-wide allow_percentage, 50%)",
    );
  });

  it('uses allow_percentage before the schedule starts, and says the master switch wins at 0 and 100', async () => {
    s = scratch(store());
    const before = await run([], T0 - 120_000);
    expect(roomPart(before.out, 'shop')).toContain(
      "chance now: 50%, the service-wide allow_percentage (settings); the controller's schedule (room.shop.live) starts 07:04:20 UTC",
    );
    s.cleanup();
    s = scratch({ ...store(), 'room.shop.allow_percentage': '0', 'room.checkout.allow_percentage': '100' });
    const r = await run([], T0 + 25_000);
    expect(roomPart(r.out, 'shop')).toContain(
      "chance now: none: room shop's own allow_percentage is 0 (room.shop.allow_percentage), every visitor is turned away; the controller's schedule is not used",
    );
    expect(roomPart(r.out, 'checkout')).toContain(
      "chance now: everyone in: room checkout's own allow_percentage is 100 (room.checkout.allow_percentage)",
    );
  });
});
