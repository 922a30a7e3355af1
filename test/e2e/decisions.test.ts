// Every row of the decision table (docs/design.md), over real HTTP against bin/main.wasm on the local host.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solveProof } from '../../lib/proof-solve.js';
import { claimsOf, nowSeconds, roomCookies, tokenOf, windowBoundary } from '../../lib/mint.js';
import { mintToken, startRoom, tokenDraw, type Room } from '../../lib/room-host.js';
import { DENY_PAGE_TIMER, dueAt, jitterSeconds } from '../../src/core/decision/draw.js';
import { hmacKey } from '../../src/core/tokens/keys.js';
import { proofChallenge, proofJson } from '../../src/core/tokens/proof.js';
import { BASE_SETTINGS, D, VISITOR_IDENTITY } from './base-settings.js';
import { expectScenario } from './expect-scenario.js';
import { dueWaitToken, scenarios } from './scenarios.js';
import { expectEdgePage, visit } from './visit.js';

let room: Room;
beforeAll(async () => {
  room = await startRoom({ settings: BASE_SETTINGS });
});
afterAll(async () => {
  await room?.stop();
});

describe('decision table on the Wasm', () => {
  it.each(scenarios.map((s) => [s.name, s] as const))('%s', async (_name, scenario) => {
    const settings = { ...BASE_SETTINGS, ...scenario.settings };
    await room.setConfig(settings, scenario.store);
    const request = await scenario.visit(room);
    const visited = await visit(room, request);

    await expectScenario(scenario, settings, request, visited, room);
  });
});

describe('waiting visitors', () => {
  it('many visitors at once each get a token bound to their own identity', async () => {
    // The host reuses instance memory between requests; nothing of one visitor may reach another.
    const settings = { ...BASE_SETTINGS, ...VISITOR_IDENTITY };
    await room.setConfig(settings);
    const visitors = Array.from({ length: 24 }, (_, i) => `crowd-${i}`);
    const answers = await Promise.all(
      visitors.map((visitor) =>
        fetch(`${room.url}/crowd`, { headers: { 'x-visitor': visitor } }).then(async (r) => ({
          visitor,
          r,
          body: await r.text(),
        })),
      ),
    );
    for (const { visitor, r } of answers) {
      const setCookie = roomCookies(r)[0];
      expect(setCookie, visitor).toBeDefined();
      const token = tokenOf(setCookie!);
      const { exp } = claimsOf(token);
      expect(token, visitor).toBe(await mintToken(room, { dec: 'wait', exp, identity: `header:${visitor}` }));
    }
    expect(new Set(answers.map((a) => tokenOf(a.r.headers.getSetCookie()[0]!))).size).toBe(visitors.length);
  });

  it('a missing identity header falls back to the address: the visitor queues and the log says so', async () => {
    await room.setConfig({ ...BASE_SETTINGS, ...VISITOR_IDENTITY });
    const visited = await visit(room);
    expect(visited.log.outcome).toBe('startwaiting');
    expect(visited.log.identity).toBe('ip-fallback');
    const token = tokenOf(visited.roomCookies[0]!);
    expect(token).toBe(await mintToken(room, { dec: 'wait', exp: claimsOf(token).exp }));
    // The same visitor with the header is someone else: its address-bound token does not carry over.
    const named = await visit(room, { cookie: `waiting_room_default=${token}`, headers: { 'x-visitor': 'carol' } });
    expect(named.log.reason).toBe('token_other_identity');
    expect(named.log.identity).toBe('header');
  });

  it('two devices of one identity in one window get the same token', async () => {
    await room.setConfig(BASE_SETTINGS);
    const first = await visit(room);
    const second = await visit(room, { headers: { 'user-agent': 'another device' } });
    if (
      first.log.reason === second.log.reason &&
      claimsOf(tokenOf(first.roomCookies[0]!)).exp === claimsOf(tokenOf(second.roomCookies[0]!)).exp
    ) {
      expect(tokenOf(second.roomCookies[0]!)).toBe(tokenOf(first.roomCookies[0]!));
    } else {
      // The window turned over between the two requests; the next pair cannot straddle it again.
      const third = await visit(room);
      expect(tokenOf(third.roomCookies[0]!)).toBe(tokenOf(second.roomCookies[0]!));
    }
  });

  it("Retry-After counts down to the wait token's due time", async () => {
    await room.setConfig(BASE_SETTINGS);
    const exp = windowBoundary(D, 2);
    const token = await mintToken(room, { dec: 'wait', exp });
    const due = dueAt(token, exp, { waitPeriodSeconds: D });
    const before = nowSeconds();
    const visited = await visit(room, { cookie: `waiting_room_default=${token}` });
    const after = nowSeconds();
    const retryAfter = expectEdgePage(visited);
    expect(retryAfter).toBeGreaterThanOrEqual(due - after);
    expect(retryAfter).toBeLessThanOrEqual(due - before);
  });

  it('the same due token always gets the same draw, and the setting only moves the threshold', async () => {
    const settings = { ...BASE_SETTINGS, ...VISITOR_IDENTITY };
    await room.setConfig(settings);
    const { token: loser, visitor } = await dueWaitToken(room, 50, false);
    const request = { cookie: `waiting_room_default=${loser}`, headers: { 'x-visitor': visitor } };
    for (let i = 0; i < 3; i++) {
      const visited = await visit(room, request);
      expect(visited.log.reason).toBe('draw_lost');
    }
    // The same ticket wins once the threshold passes its number.
    const threshold = ((tokenDraw(loser) * 100 + 100) / 2).toFixed(6);
    await room.setConfig({ ...settings, allow_percentage: threshold });
    const visited = await visit(room, request);
    expect(visited.log.reason).toBe('draw_won');
    expect(visited.fromOrigin).toBe(true);
  });

  it('answers JSON to Accept: application/json', async () => {
    await room.setConfig(BASE_SETTINGS);
    const visited = await visit(room, { headers: { accept: 'application/json' } });
    const retryAfter = expectEdgePage(visited);
    expect(visited.response.headers.get('content-type')).toMatch(/application\/json/);
    const { waitingRoom } = JSON.parse(visited.body) as { waitingRoom: Record<string, unknown> };
    expect(waitingRoom.inWaitingRoom).toBe(true);
    const refresh = waitingRoom.refreshIntervalSeconds as number;
    // The page's small jitter (the due offset does the spreading) on top of Retry-After.
    expect(refresh).toBeGreaterThanOrEqual(retryAfter);
    expect(refresh).toBeLessThanOrEqual(retryAfter + jitterSeconds({ waitPeriodSeconds: D }));
    const p25 = waitingRoom.waitTime25PercentileSeconds as number;
    const p50 = waitingRoom.waitTime50PercentileSeconds as number;
    const p75 = waitingRoom.waitTime75PercentileSeconds as number;
    expect(p25).toBeGreaterThan(0);
    expect(p25).toBeLessThanOrEqual(p50);
    expect(p50).toBeLessThanOrEqual(p75);

    // A lower chance means a longer expected wait.
    await room.setConfig({ ...BASE_SETTINGS, allow_percentage: '5' });
    const slower = await visit(room, { headers: { accept: 'application/json' } });
    const slow = (JSON.parse(slower.body) as { waitingRoom: Record<string, number> }).waitingRoom;
    expect(slow.waitTime75PercentileSeconds).toBeGreaterThan(p75);
  });

  it('answers JSON on the deny page too', async () => {
    await room.setConfig({ ...BASE_SETTINGS, allow_percentage: '0' });
    const visited = await visit(room, { headers: { accept: 'application/json' } });
    // The deny page's own timer, not a window: an app polls no more often than the page does.
    expect(expectEdgePage(visited)).toBe(DENY_PAGE_TIMER.seconds);
    const { waitingRoom } = JSON.parse(visited.body) as { waitingRoom: Record<string, unknown> };
    expect(waitingRoom.inWaitingRoom).toBe(true);
    expect(waitingRoom.jitterSeconds).toBe(DENY_PAGE_TIMER.jitterSeconds);
    expect(waitingRoom.refreshIntervalSeconds).toBeGreaterThanOrEqual(DENY_PAGE_TIMER.seconds);
    expect(waitingRoom.refreshIntervalSeconds).toBeLessThanOrEqual(
      DENY_PAGE_TIMER.seconds + DENY_PAGE_TIMER.jitterSeconds,
    );
  });

  it('waiting_status sets the status of waiting pages', async () => {
    await room.setConfig({ ...BASE_SETTINGS, waiting_status: '429' });
    const visited = await visit(room);
    expect(visited.log.outcome).toBe('startwaiting');
    expect(visited.response.status).toBe(429);
  });
});

describe('the proof of work on the Wasm', () => {
  const proofSettings = { ...BASE_SETTINGS, ...VISITOR_IDENTITY, proof_of_work: 'fixed', proof_seconds: '0.01' };

  it("answers the puzzle of the token it sets, as Node's proof.ts derives it with altcha-lib", async () => {
    await room.setConfig(proofSettings);
    const visited = await visit(room, { headers: { accept: 'application/json', 'x-visitor': 'proof-new' } });
    const token = tokenOf(visited.roomCookies[0]!);
    const { waitingRoom } = JSON.parse(visited.body) as { waitingRoom: { proof: unknown } };
    expect(waitingRoom.proof).toEqual(proofJson(await proofChallenge(token, await hmacKey(room.key.bytes), 0.01)));
  });

  it("accepts altcha-lib's solution at the draw, draws a client that cannot solve at a share of the chance, and holds a bare page request for its solution", async () => {
    await room.setConfig(proofSettings);
    const { token, visitor } = await dueWaitToken(room, 50, true);
    const solution = await solveProof(token, await hmacKey(room.key.bytes), 0.01);
    const cookie = `waiting_room_default=${token}`;
    const solved = await visit(room, { cookie, headers: { 'x-visitor': visitor, 'waiting-room-proof': solution } });
    expect(solved.log).toMatchObject({ reason: 'draw_won', pct: 50, proof: 'valid' });
    const cannot = await visit(room, { cookie, headers: { 'x-visitor': visitor, 'waiting-room-proof': 'none' } });
    expect(cannot.log).toMatchObject({ pct: 10, proof: 'missing' });
    // A page request with no header at all, in its token's own window: not drawn yet, its puzzle given.
    const bare = await visit(room, { cookie, headers: { 'x-visitor': visitor } });
    expect(bare.log).toMatchObject({ reason: 'proof_pending', outcome: 'keepwaiting' });
  });
});
