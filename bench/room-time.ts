// The room's own time per request inside the runtime, on a reused sandbox: the room as src/index.ts
// runs it, with a clock around handle() (bench/fixtures/room-timed.ts), the origin's wait left out.
// One host with one worker and one client, so every request meets the same warm sandbox (until it is
// recycled, which the median absorbs) and no other request's work lands inside a measured one.
import http from 'node:http';
import { type EchoOrigin } from '../lib/echo-origin.js';
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
): Promise<Record<string, RoomTime>> {
  const wasm = await buildFixture('room-timed');
  const room = await startRoom({ origin, settings, store, wasm, keyBytes, hostArgs: ['--workers', '1', '--max-workers', '1'] });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const out: Record<string, RoomTime> = {};
    for (const scenario of scenarios) {
      const times: number[] = [];
      let untimed = 0;
      let unexpected = 0;
      for (let i = 0; i < requests; i++) {
        const { status, headers } = await get(agent, `${room.url}${scenario.path}`, scenario.headers());
        if (scenario.expect && !scenario.expect(status)) unexpected++;
        const us = Number(headers['x-room-time-us']);
        if (Number.isFinite(us)) times.push(us);
        else untimed++;
      }
      times.sort((a, b) => a - b);
      out[scenario.name] = { requests, medianUs: quantile(times, 0.5), p90Us: quantile(times, 0.9), untimed, ...(scenario.expect ? { unexpected } : {}) };
    }
    return out;
  } finally {
    agent.destroy();
    await room.stop();
  }
}
