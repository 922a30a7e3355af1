// The visitor-visible checks of one decision row (scenarios.ts), the same whichever runtime answered:
// the Wasm on the host (decisions.test.ts) or the pure handler (test/core/handler.decisions.test.ts).
import { expect } from 'vitest';
import { claimsOf, tokenOf } from '../../lib/mint.js';
import { LOOPBACK_IDENTITY, mintToken, type Room, type Settings } from '../../lib/room-host.js';
import type { Scenario, Visit } from './scenarios.js';
import { expectEdgePage, expectRoomCookie } from './visit.js';

/** What a scenario checks of an answer; the Wasm visit and the in-process fake both give this shape. */
export interface ScenarioAnswer {
  response: Response;
  fromOrigin: boolean;
  roomCookies: string[];
  log: Record<string, unknown> | undefined;
}

/** The visitor-visible checks of one row, the same whichever runtime answered. */
export async function expectScenario(
  scenario: Scenario,
  settings: Settings,
  request: Visit,
  answer: ScenarioAnswer,
  room: Pick<Room, 'key'>,
  identityOfIp = LOOPBACK_IDENTITY,
): Promise<void> {
  expect(answer.log?.reason, JSON.stringify(answer.log)).toBeOneOf(scenario.reasons);
  expect(answer.log?.outcome).toBe(scenario.outcome);
  if (scenario.outcome === 'origin') {
    expect(answer.fromOrigin).toBe(true);
    expect(answer.response.status).toBe(200);
  } else {
    expectEdgePage(answer);
    expect(answer.response.status).toBe(200); // waiting_status default
    expect(answer.response.headers.get('content-type')).toMatch(/text\/html/);
  }

  if (scenario.cookie === 'none') {
    expect(answer.roomCookies).toEqual([]);
    return;
  }
  expect(answer.roomCookies).toHaveLength(1);
  const setCookie = answer.roomCookies[0]!;
  // Anything that sets the cookie must never be cached, origin answers included.
  expect(answer.response.headers.get('cache-control')).toMatch(/no-store/);
  if (scenario.cookie === 'cleared') {
    expect(tokenOf(setCookie)).toBe('');
    expect(setCookie).toMatch(/Max-Age=0/i);
    return;
  }
  expectRoomCookie(setCookie, settings.cookie_lifetime!);
  const token = tokenOf(setCookie);
  const claims = claimsOf(token);
  expect(claims.dec).toBe(scenario.cookie === 'new-wait' ? 'wait' : 'allow');
  if (scenario.expiry) expect(scenario.expiry()).toContain(claims.exp);
  // Byte-identical to what any other device with this identity gets in this window (docs/design.md).
  const visitor = request.headers?.['x-visitor'];
  const identity = settings.identity?.startsWith('header:') && visitor ? `header:${visitor}` : identityOfIp;
  expect(token).toBe(await mintToken(room, { dec: claims.dec as 'wait' | 'allow', exp: claims.exp, identity }));
}
