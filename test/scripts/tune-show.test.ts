// What `npm run tune` and `--show` print about what the controller left in the store: its own
// heartbeat (not a problem: the controller writes it on purpose) and, per room, the chance a draw
// uses now and where it comes from. A fake clock stands for the time of the command.
import { afterEach, describe, expect, it } from 'vitest';
import { main as tune } from '../../scripts/tune.js';
import { captured, readJson, scratch, type Scratch } from './helpers.js';

const routing = JSON.stringify({ rooms: [{ id: 'shop', routes: ['/'] }, { id: 'checkout', routes: ['/checkout'] }], default_room: 'shop' });
const settings = JSON.stringify({ enabled: 'true', allow_percentage: '50', wait_period_duration: '10', active_key: 'key1' });
/** 2026-12-05 07:05:20 UTC. */
const T0 = Date.UTC(2026, 11, 5, 7, 5, 20);
const sec = (ms: number) => Math.floor(ms / 1000);
const beat = (at: number) => JSON.stringify({ id: '9af6d611', host: 'vm', pid: 210, started: sec(at) - 300, beat: sec(at), lease: 600 });

let s: Scratch;
afterEach(() => s.cleanup());
const run = (argv: string[], nowMs: number) => captured(() => tune(argv, { now: () => nowMs }));

describe('npm run tune: the controller\'s heartbeat', () => {
  it('is not a problem in a change or in the show, and the show names it with its age', async () => {
    s = scratch({ routing, settings, controller: beat(T0) });
    const change = await run(['allow_percentage=20'], T0 + 42_000);
    expect(change.result).toBe(0);
    expect(change.err).not.toMatch(/controller is a key the edge never reads/);
    const shown = await run(['--show'], T0 + 42_000);
    expect(shown.out).not.toMatch(/problem: controller/);
    expect(shown.out).toContain('controller: heartbeat id 9af6d611 on host vm, pid 210, written 42 s ago (07:05:20 UTC), lease 600 s: alive');
  });

  it('says a heartbeat older than its lease is a stopped controller\'s', async () => {
    s = scratch({ routing, settings, controller: beat(T0) });
    const shown = await run([], T0 + 3 * 3600_000);
    expect(shown.out).toContain('written 3 h ago (07:05:20 UTC), lease 600 s: past its lease, so no controller writes to this store now');
  });

  it('still calls a stray key a problem', async () => {
    s = scratch({ routing, settings, controller: beat(T0), allow_percentage: '10' });
    const shown = await run(['--show'], T0);
    expect(shown.out).toContain('problem: allow_percentage is a key the edge never reads');
    expect(readJson(s.config).controller).toBe(beat(T0));
  });
});
