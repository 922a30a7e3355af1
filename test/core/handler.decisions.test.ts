// The decision table (docs/design.md) against the pure handler: the very rows test/e2e runs on the Wasm,
// checked by the same expectScenario, so the two runtimes are held to identical assertions.
import { describe, it } from 'vitest';
import { BASE_SETTINGS } from '../e2e/base-settings.js';
import { expectScenario } from '../e2e/expect-scenario.js';
import { scenarios } from '../e2e/scenarios.js';
import { TEST_KID } from '../../lib/room-host.js';
import { FakeRoom, KEY_BASE64, KEY_BYTES } from '../support/fakes.js';

// The fakes' fixed key under the kid the shared rows name (they forge tokens for `${TEST_KID}-gone`).
const sharedKey = { kid: TEST_KID, bytes: KEY_BYTES, base64: KEY_BASE64 };

describe('decision table on the pure handler (shared scenarios)', () => {
  it.each(scenarios.map((s) => [s.name, s] as const))('%s', async (_name, scenario) => {
    const settings: Record<string, string> = { ...BASE_SETTINGS, active_key: TEST_KID, ...scenario.settings };
    const room = new FakeRoom({
      settings,
      keys: { [TEST_KID]: sharedKey.base64 },
      ...(scenario.store ? { store: scenario.store } : {}),
    });
    const request = await scenario.visit({ key: sharedKey });
    room.nowMs = Date.now(); // the shared rows use the real clock for their windows
    const answer = await room.visit({ ip: '127.0.0.1', ...request });
    await expectScenario(scenario, settings, request, answer, { key: sharedKey });
  });
});
