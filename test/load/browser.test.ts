// One virtual browser on a fake clock against the room's real handler: when it comes back, when it
// counts as admitted, how it browses, gives up and rides out errors.
import { describe, expect, it } from 'vitest';
import { VirtualBrowser, type BrowserProfile } from '../../load/browser.js';
import type { EventKind } from '../../load/tally.js';
import { FakeClock, fakeNet } from './fakes.js';

const profile: BrowserProfile = { patienceMs: 60 * 60_000, sessionMs: 100_000, thinkMeanSeconds: 60 };
/** Every random draw 0.5: the page's jitter is J/2, a think time 60 x ln 2 = 41.6 s. */
const HALF = () => 0.5;

function setup(settings: Record<string, string>, p: Partial<BrowserProfile> = {}) {
  const clock = new FakeClock();
  const net = fakeNet(clock, settings);
  const events: Array<{ kind: EventKind; atMs: number; cause?: string }> = [];
  const browser = new VirtualBrowser(
    'v-1',
    {
      clock,
      send: net.send,
      random: HALF,
      report: (kind, atMs, cause) => events.push({ kind, atMs, ...(cause ? { cause } : {}) }),
    },
    { ...profile, ...p },
  );
  const t0 = clock.now();
  const kinds = (k: EventKind) => events.filter((e) => e.kind === k);
  return { clock, net, browser, events, t0, kinds };
}

describe('VirtualBrowser', () => {
  it("checks again exactly Retry-After plus the page's jitter after each answer", async () => {
    const { clock, net, browser } = setup({ allow_percentage: '0.001' });
    browser.start();
    await clock.advance(5 * 60_000);
    const log = net.log;
    expect(log.length).toBeGreaterThan(8);
    expect(log[0]).toMatchObject({ path: '/', json: false, visitor: 'v-1', cookie: null });
    expect(log.slice(1).every((r) => r.json && r.cookie?.startsWith('waiting_room_default='))).toBe(true);
    for (let i = 1; i < log.length; i++) {
      // J = 2 s for 30-second windows; u = 0.5 adds 1 s.
      expect(log[i]!.atMs - log[i - 1]!.atMs).toBe((Number(log[i - 1]!.retryAfter) + 1) * 1000);
    }
    expect(browser.state).toBe('waiting');
  });

  it('counts the admission once, at the check the room let through, then browses and leaves', async () => {
    const { clock, net, browser, kinds, t0 } = setup({ allow_percentage: '0.001' });
    browser.start();
    await clock.advance(60_000);
    net.room.settings.set('allow_percentage', '100');
    const before = net.log.length;
    await clock.advance(3 * 60_000);
    const admitted = kinds('admission');
    expect(admitted).toHaveLength(1);
    const check = net.log[before]!;
    expect(check).toMatchObject({ json: true, status: 200 });
    expect(admitted[0]!.atMs).toBe(check.atMs);
    // The page reloads at once, then a page every 41.6 s while the 100-second session lasts.
    const think = 60 * Math.log(2) * 1000;
    const after = net.log.slice(before + 1).map((r) => [r.path, r.json, Math.round(r.atMs - check.atMs)]);
    expect(after).toEqual([
      ['/', false, 0],
      ['/products', false, Math.round(think)],
      ['/', false, Math.round(2 * think)],
    ]);
    expect(kinds('left')).toHaveLength(1);
    expect(browser.state).toBe('gone');
    expect(net.log.every((r) => r.atMs >= t0)).toBe(true);
  });

  it('gives up at the end of its patience, counted from the first waiting page', async () => {
    const { clock, net, browser, kinds, t0 } = setup({ allow_percentage: '0.001' }, { patienceMs: 90_000 });
    browser.start();
    await clock.advance(10 * 60_000);
    expect(kinds('gaveUp')).toEqual([{ kind: 'gaveUp', atMs: t0 + 90_000 }]);
    expect(net.log[net.log.length - 1]!.atMs).toBeLessThanOrEqual(t0 + 90_000);
    expect(browser.state).toBe('gone');
  });

  it('counts failed requests as errors and reloads after a while, without using up patience on a deny page', async () => {
    const { clock, net, browser, kinds, t0 } = setup({ allow_percentage: '0' }, { patienceMs: 60_000 });
    net.failNext(2);
    browser.start();
    await clock.advance(30 * 60_000);
    expect(kinds('error').map((e) => e.cause)).toEqual(['connection refused', 'connection refused']);
    // 10 s between reloads (5 to 15 s, u = 0.5), then the deny page: checks every 300 + 0.5 x 60 s.
    const times = net.log.map((r) => r.atMs - t0);
    expect(times.slice(0, 4)).toEqual([0, 10_000, 20_000, 350_000]);
    expect(kinds('gaveUp')).toHaveLength(0);
    expect(browser.state).toBe('waiting');
  });

  it('takes a room switched off (the origin, no token) as an admission', async () => {
    const { clock, browser, kinds } = setup({ enabled: 'false' });
    browser.start();
    await clock.advance(1_000);
    expect(kinds('admission')).toHaveLength(1);
    expect(kinds('error')).toHaveLength(0);
  });

  it("counts the origin's 5xx as an error, never as an admission", async () => {
    const clock = new FakeClock();
    const net = fakeNet(clock, { enabled: 'false' }, async () => new Response('down', { status: 503 }));
    const events: EventKind[] = [];
    const browser = new VirtualBrowser(
      'v-2',
      { clock, send: net.send, random: HALF, report: (kind) => events.push(kind) },
      profile,
    );
    browser.start();
    await clock.advance(25_000);
    expect(events).toEqual(['arrival', 'request', 'error', 'request', 'error', 'request', 'error']);
  });

  it('stops when told: no request after stop()', async () => {
    const { clock, net, browser } = setup({ allow_percentage: '0.001' });
    browser.start();
    await clock.advance(60_000);
    const n = net.log.length;
    browser.stop();
    await clock.advance(10 * 60_000);
    expect(net.log).toHaveLength(n);
  });
});
