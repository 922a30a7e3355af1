// The room's steps timed one by one inside the runtime (bench/fixtures/room-parts.ts), in a fresh
// instance and repeated, with and without the build-time warm-up of src/core/warm.ts.
import type { EchoOrigin } from '../lib/echo-origin.js';
import { startRoom, type Settings } from '../lib/room-host.js';
import { buildFixture } from './build-fixture.js';
import { quantileOf } from '../lib/quantiles.js';

type StepTiming = { coldUs: number; warmUs: number };

/**
 * The room's steps timed inside the runtime (bench/fixtures/room-parts.ts): each step in a request
 * of its own, so `coldUs` is what a fresh instance pays for it; median of 5 requests per step. The
 * fixture is built twice, the second time with a warm-up that runs while js-compute snapshots the
 * module as src/index.ts does (src/core/warm.ts): the difference is what that warm-up saves every request.
 */
export async function roomSteps(
  origin: EchoOrigin,
  settings: Settings,
  keyBytes: Uint8Array,
  tokens: { allow: string; wait: string },
): Promise<Record<string, { coldUs: number; warmUs: number; coldUsWithInitWarmup: number }>> {
  const measure = async (warmAtInit: boolean): Promise<Record<string, StepTiming>> => {
    const wasm = await buildFixture('room-parts', { WARM_AT_INIT: String(warmAtInit) });
    // A step's request runs it 21 times in one execution, its first run in a fresh instance: the host
    // reports, but does not enforce, the 50 ms CPU limit, which the measurement itself (not a visitor)
    // can pass on a build without the warm-up.
    const room = await startRoom({ origin, settings, wasm, keyBytes, env: { COMPUTE_HOST_LIMITS: 'off' } });
    try {
      const names = (await (await fetch(`${room.url}/`)).json()) as string[];
      const out: Record<string, StepTiming> = {};
      for (const step of names) {
        const runs: StepTiming[] = [];
        for (let i = 0; i < 5; i++) {
          const query = new URLSearchParams({ step, n: '20', kid: room.key.kid, wait: tokens.wait });
          const res = await fetch(`${room.url}/?${query}`, { headers: { 'x-token': tokens.allow } });
          runs.push((await res.json()) as StepTiming);
        }
        const median = (pick: (r: StepTiming) => number): number => quantileOf(runs.map(pick), 0.5);
        out[step] = { coldUs: median((r) => r.coldUs), warmUs: median((r) => r.warmUs) };
      }
      return out;
    } finally {
      await room.stop();
    }
  };
  const plain = await measure(false);
  const warmed = await measure(true);
  return Object.fromEntries(
    Object.entries(plain).map(([step, t]) => [
      step,
      { ...t, coldUsWithInitWarmup: warmed[step]?.coldUs ?? Number.NaN },
    ]),
  );
}
