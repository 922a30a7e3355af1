// The decision table of scenarios.ts against the pure handler in-process (test/support/fakes.ts), with
// the very checks decisions.test.ts makes on the Wasm: where the two disagree, the runtime adapter or
// the build is at fault, not the room's logic.
import { describe, it } from 'vitest';
import { FakeRoom, KEY_BASE64, KEY_BYTES, KID } from '../support/fakes.js';
import { BASE_SETTINGS, expectScenario, scenarios } from './scenarios.js';

const key = { kid: KID, bytes: KEY_BYTES, base64: KEY_BASE64 };

describe('decision table in-process', () => {
  it.each(scenarios.map((s) => [s.name, s] as const))('%s', async (_name, scenario) => {
    const settings = { ...BASE_SETTINGS, ...scenario.settings };
    // The scenarios mint against the real clock, so the fake clock starts at the real time.
    const room = new FakeRoom({ settings, nowMs: Date.now() });
    const request = await scenario.visit({ key });
    const answer = await room.visit({ ...request, ip: '127.0.0.1' });
    await expectScenario(scenario, settings, request, answer, { key });
  });
});
