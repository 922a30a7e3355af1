// The app client (client/, built as an app gets it: npm run build:client's module) against the built
// room over real HTTP, with a cookie jar as an app's HTTP stack keeps one: it waits while the room
// queues everyone, at the room's pace, and walks in when the room opens, the room's status saying
// each; it solves a real proof of work with the page's solver and brings it to its draw.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowSeconds } from '../../lib/mint.js';
import { LOG_ENDPOINT, startRoom, TEST_KID, type Room } from '../../lib/room-host.js';
import { statusBasisWrites } from '../../lib/status-basis.js';
import { storeFromSettings } from '../../src/core/settings/index.js';
import { bundleClient } from '../../scripts/build-client.js';
import { CookieJar } from '../support/cookie-jar.js';
import type * as Client from '../../client/index.js';
import { BASE_SETTINGS } from './base-settings.js';

/** Short windows: a token falls due within 10 s. */
const SETTINGS = { ...BASE_SETTINGS, wait_period_duration: '5' };

let room: Room;
let client: typeof Client;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wr-client-'));
  const file = join(dir, 'index.js');
  writeFileSync(file, await bundleClient());
  client = (await import(pathToFileURL(file).href)) as typeof Client;
  room = await startRoom({ settings: SETTINGS });
  await configure({ ...SETTINGS, queue_all: 'true' });
});
afterAll(async () => {
  await room?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The room's settings, and its status basis as npm run tune writes it (docs/status.md). */
async function configure(settings: Record<string, string>): Promise<void> {
  const store = storeFromSettings({ log_endpoint: LOG_ENDPOINT, active_key: TEST_KID, ...settings });
  await room.setConfig(settings, statusBasisWrites(store, nowSeconds()));
}

/** The real clock, each sleep asked for recorded. */
function recordingClock(): Client.Clock & { asked: number[] } {
  const asked: number[] = [];
  return {
    asked,
    now: () => Date.now(),
    sleep(ms, signal) {
      asked.push(ms);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, ms);
        signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(signal.reason);
        });
      });
    },
  };
}

describe('an app in front of the built room', () => {
  it('waits while the room queues everyone, at its pace, and is let in when it opens', {
    timeout: 90_000,
  }, async () => {
    const jar = new CookieJar();
    const clock = recordingClock();
    const events: Client.RoomEvent[] = [];
    const seen = room.decisions().length;
    // The room's status says so before the app asks for anything, without the app's cookie.
    expect(await client.roomStatus(room.url, 'default')).toMatchObject({ state: 'queueing', reason: 'queue_all' });
    for await (const event of client.watchRoom(`${room.url}/tickets`, { fetch: jar.fetch(), clock })) {
      events.push(event);
      // The operator opens the doors while the app waits for its second check.
      if (events.length === 2) await configure({ ...SETTINGS, allow_percentage: '100' });
      if (event.type === 'turn') break;
    }
    expect(events.map((e) => e.type)).toEqual(['waiting', 'waiting', 'turn']);
    const turn = events[2] as Extract<Client.RoomEvent, { type: 'turn' }>;
    expect(turn.response.headers.get('x-echo')).toBe('1');
    // Each wait was the room's Retry-After plus at most its jitter.
    for (const [i, e] of events.slice(0, 2).entries()) {
      const { answer, nextCheckSeconds } = e as Extract<Client.RoomEvent, { type: 'waiting' }>;
      expect(answer.status).toMatch(/^(start|keep)waiting$/);
      expect(nextCheckSeconds).toBeGreaterThanOrEqual(answer.retryAfterSeconds!);
      expect(nextCheckSeconds).toBeLessThanOrEqual(answer.retryAfterSeconds! + answer.jitterSeconds!);
      expect(clock.asked[i]).toBe(nextCheckSeconds * 1000);
    }
    const lines = room.decisions().slice(seen);
    expect(lines.map((l) => l.reason)).toEqual(['queue_all', 'queue_all', 'allow_all']);
    // The cookie the room set rode every check: the second was the same visitor's token, kept.
    expect(lines[1]!.tid).toBe(lines[0]!.newTid);
    // Let in: the app's next request goes to the origin on its allow token.
    const after = await jar.fetch()(`${room.url}/tickets`);
    expect(after.headers.get('x-echo')).toBe('1');
    expect(await client.roomStatus(room.url, 'default')).toMatchObject({ state: 'open', reason: 'allow_all' });
  });

  it('solves the room’s proof of work and brings the solution to its draw', { timeout: 90_000 }, async () => {
    await configure({ ...SETTINGS, allow_percentage: '50', proof_of_work: 'fixed', proof_seconds: '0.2' });
    const jar = new CookieJar();
    const seen = room.decisions().length;
    const events: Client.RoomEvent[] = [];
    const draw = () =>
      room
        .decisions()
        .slice(seen)
        .find((l) => String(l.reason).startsWith('draw_'));
    for await (const event of client.watchRoom(`${room.url}/tickets`, { fetch: jar.fetch() })) {
      events.push(event);
      if (event.type === 'turn' || draw() !== undefined) break;
    }
    const first = events[0] as Extract<Client.RoomEvent, { type: 'waiting' }>;
    expect(first.type).toBe('waiting');
    expect(first.answer.proof).toMatchObject({ header: 'waiting-room-proof', seconds: 0.2 });
    expect(first.answer.proof!.challenges).toHaveLength(8);
    expect(draw()).toMatchObject({ proof: 'valid' });
  });
});
