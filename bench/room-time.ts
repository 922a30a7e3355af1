// The room's own time per request inside the runtime, on a reused sandbox: the room as src/index.ts
// runs it, with a clock around handle() (bench/fixtures/room-timed.ts), the origin's wait left out.
// One host with one worker and one client, so every request meets the same warm sandbox (until it is
// recycled, which the median absorbs) and no other request's work lands inside a measured one.
import http from 'node:http';
import type { EchoOrigin } from '../lib/echo-origin.js';
import { startRoom, type Settings } from '../lib/room-host.js';
import { buildFixture } from './build-fixture.js';
import { quantile } from '../lib/quantiles.js';
import { get } from './http-load.js';

export interface TimedScenario {
  name: string;
  path: string;
  headers: () => Record<string, string>;
  /** The answer's status on the path measured; others are counted in `unexpected`. */
  expect?: (status: number) => boolean;
}

export interface RoomTime {
  requests: number;
  medianUs: number;
  p90Us: number;
  /** Answers without the timing header (an error page from the host, say); none expected. */
  untimed: number;
  /** Answers the scenario's `expect` refused (another path than the one measured); absent without one. */
  unexpected?: number;
}

export async function roomTimes(
  origin: EchoOrigin,
  settings: Settings,
  keyBytes: Uint8Array,
  scenarios: TimedScenario[],
  requests = 1500,
  store: Record<string, string> = {},
  options: { alternate?: boolean; pages?: Record<string, string> } = {},
): Promise<Record<string, RoomTime>> {
  const wasm = await buildFixture('room-timed');
  const times = await roomTimesAcross(origin, settings, keyBytes, { room: wasm }, scenarios, requests, store, options);
  return times.room!;
}

/**
 * The same scenarios on several builds of the timed room (name -> its Wasm), each on its own host of
 * one worker; with `alternate`, one request of each build and scenario in turn, so drift on a busy
 * machine lands on every build alike.
 */
export async function roomTimesAcross(
  origin: EchoOrigin,
  settings: Settings,
  keyBytes: Uint8Array,
  builds: Record<string, string>,
  scenarios: TimedScenario[],
  requests = 1500,
  store: Record<string, string> = {},
  options: { alternate?: boolean; pages?: Record<string, string> } = {},
): Promise<Record<string, Record<string, RoomTime>>> {
  const rooms: Array<{ name: string; url: string; stop(): Promise<unknown> }> = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: Object.keys(builds).length });
  try {
    for (const [name, wasm] of Object.entries(builds)) {
      const room = await startRoom({
        origin,
        settings,
        store,
        wasm,
        keyBytes,
        hostArgs: ['--workers', '1', '--max-workers', '1'],
      });
      rooms.push({ name, url: room.url, stop: () => room.stop() });
      if (options.pages) await room.setPages(options.pages);
    }
    const pairs = rooms.flatMap((room) =>
      scenarios.map((scenario) => ({ room, scenario, times: [] as number[], untimed: 0, unexpected: 0 })),
    );
    const one = async (k: number): Promise<void> => {
      const run = pairs[k]!;
      const { status, headers } = await get(agent, `${run.room.url}${run.scenario.path}`, run.scenario.headers());
      if (run.scenario.expect && !run.scenario.expect(status)) run.unexpected++;
      const us = Number(headers['x-room-time-us']);
      if (Number.isFinite(us)) run.times.push(us);
      else run.untimed++;
    };
    // One scenario after the other; or, to compare scenarios whose difference is small, one request of
    // each in turn, so drift on a busy machine lands on all of them alike.
    if (options.alternate) {
      for (let i = 0; i < requests; i++) for (let k = 0; k < pairs.length; k++) await one(k);
    } else {
      for (let k = 0; k < pairs.length; k++) for (let i = 0; i < requests; i++) await one(k);
    }
    const out: Record<string, Record<string, RoomTime>> = {};
    for (const { room, scenario, times, untimed, unexpected } of pairs) {
      times.sort((a, b) => a - b);
      (out[room.name] ??= {})[scenario.name] = {
        requests,
        medianUs: quantile(times, 0.5),
        p90Us: quantile(times, 0.9),
        untimed,
        ...(scenario.expect ? { unexpected } : {}),
      };
    }
    return out;
  } finally {
    agent.destroy();
    for (const room of rooms) await room.stop();
  }
}
