// The bot controls through the pure handler (docs/bots.md): the JSON answer tells an app what to solve,
// the proof header never reaches the origin, a `"then": "bot"` rule marks a request, and the infinite
// queue answers exactly as the real one does for a loser, and never lets anyone in.
import { describe, expect, it } from 'vitest';
import { solveChallenges } from '../../lib/proof-solve.js';
import { claimsOf, roomCookieValue } from '../../lib/mint.js';
import { FakeRoom, type Answer } from '../support/fakes.js';
import { countersFor } from '../../src/core/tokens/proof.js';

const JSON_ACCEPT = { accept: 'application/json' };
const routing = JSON.stringify({
  rooms: [{ id: 'shop', routes: ['/'] }],
  rules: [
    { id: 'scrapers', if: { header: { name: 'user-agent', prefix: 'scraper/' } }, then: 'bot' },
    { id: 'hooks', if: { path: { prefix: '/webhooks' } }, then: 'bypass' },
  ],
});

function shop(settings: Record<string, string> = {}): FakeRoom {
  return new FakeRoom({
    settings: {
      allow_percentage: '50',
      wait_period_duration: '30',
      proof_of_work: 'fixed',
      proof_seconds: '0.01',
      ...settings,
    },
    store: { routing },
  });
}

const waitingRoom = (a: Answer) => (JSON.parse(a.body) as { waitingRoom: Record<string, unknown> }).waitingRoom;
const cookieOf = (a: Answer): string => `waiting_room_shop=${roomCookieValue(a.response, 'shop')}`;

const solve = (proof: { challenges: unknown[] }): Promise<string> => solveChallenges(proof.challenges);

describe('the JSON answer', () => {
  it('tells an app what to solve and how to send it; with that header its draw counts in full', async () => {
    const room = shop();
    const first = await room.visit({ headers: JSON_ACCEPT });
    const proof = waitingRoom(first).proof as Record<string, unknown> & {
      challenges: Array<{ parameters: Record<string, unknown> }>;
    };
    expect(proof).toMatchObject({
      scheme: 'altcha-v2',
      header: 'waiting-room-proof',
      seconds: 0.01,
      counters: countersFor(0.01),
      solutionFormat: expect.stringContaining("joined by '.'"),
    });
    expect(proof.challenges).toHaveLength(8);
    expect(proof.challenges[0]!.parameters).toMatchObject({ algorithm: 'SHA-256', cost: 1, keyLength: 32 });
    const solution = await solve(proof);
    room.nowMs = (waitingRoom(first).retryAfterSeconds as number) * 1000 + room.nowMs;
    const drawn = await room.visit({
      headers: { ...JSON_ACCEPT, 'waiting-room-proof': solution },
      cookie: cookieOf(first),
    });
    expect(drawn.log).toMatchObject({ reason: expect.stringMatching(/^draw_(won|lost)$/), pct: 50, proof: 'valid' });
    // No proof asked: `proof` is null.
    expect(waitingRoom(await shop({ proof_of_work: 'off' }).visit({ headers: JSON_ACCEPT })).proof).toBeNull();
  });
});

describe('a page at its due time', () => {
  it('that sent no header is given its puzzle and drawn later, in its window of grace; a wrong solution draws at the reduced share, never the infinite queue', async () => {
    const room = shop({ bot_queue: 'on' });
    const first = await room.visit({ headers: JSON_ACCEPT });
    const { retryAfterSeconds, proof } = waitingRoom(first) as {
      retryAfterSeconds: number;
      proof: { challenges: unknown[] };
    };
    room.advance(retryAfterSeconds);
    // A reload (or the hammering page's refresh) with no header: not drawn yet, the token kept.
    const pending = await room.visit({ cookie: cookieOf(first) });
    expect(pending.log).toMatchObject({ decision: 'wait', outcome: 'keepwaiting', reason: 'proof_pending' });
    expect(pending.log).not.toHaveProperty('proof');
    expect(pending.response.headers.get('set-cookie')).toBeNull();
    const exp = claimsOf(roomCookieValue(first.response, 'shop')!).exp as number;
    const wait = exp + 30 - Math.floor(room.nowMs / 1000);
    expect(Number(pending.response.headers.get('retry-after'))).toBe(wait);
    expect(pending.body).toContain(`1.${countersFor(0.01)}.`);
    // An old solution, well formed: the reduced share, and the real queue.
    room.advance(wait);
    const solution = await solve(proof);
    const wrong = await room.visit({
      headers: { ...JSON_ACCEPT, 'waiting-room-proof': solution.replace(/^\d+/, (n) => String(Number(n) + 1)) },
      cookie: cookieOf(first),
    });
    expect(wrong.log).toMatchObject({ reason: expect.stringMatching(/^draw_(won|lost)$/), pct: 10, proof: 'wrong' });
    expect(wrong.log).not.toHaveProperty('bot');
  });
});

describe('the proof header', () => {
  it('never reaches the origin, on an admission or a bypass', async () => {
    const room = shop({ allow_percentage: '100' });
    const admitted = await room.visit({ headers: { 'waiting-room-proof': '1.2.3.4.5.6.7.8' } });
    expect(admitted.fromOrigin).toBe(true);
    expect(room.seen.at(-1)!.headers.has('waiting-room-proof')).toBe(false);
    await room.visit({ path: '/webhooks/x', headers: { 'waiting-room-proof': 'none' } });
    expect(room.seen.at(-1)!.url).toContain('/webhooks/x');
    expect(room.seen.at(-1)!.headers.has('waiting-room-proof')).toBe(false);
  });
});

describe('a "then": "bot" rule', () => {
  it('only names itself in the line in a room without bot_queue, and queues the request in the infinite queue with it', async () => {
    const scraper = { 'user-agent': 'scraper/1' };
    const off = await shop().visit({ headers: scraper });
    expect(off.log).toMatchObject({ room: 'shop', rule: 'scrapers', reason: 'no_token' });
    expect(off.log).not.toHaveProperty('bot');
    const on = await shop({ bot_queue: 'on' }).visit({ headers: scraper });
    expect(on.log).toMatchObject({
      room: 'shop',
      rule: 'scrapers',
      decision: 'start',
      outcome: 'startwaiting',
      reason: 'bot_queued',
      bot: true,
    });
  });
});

describe('the infinite queue', () => {
  it('never lets a bot in over many windows at a 99.999% chance, while answering exactly as a loser of the real queue', async () => {
    const room = shop({ bot_queue: 'on', allow_percentage: '99.999' });
    const scraper = { ...JSON_ACCEPT, 'user-agent': 'scraper/1' };
    let answer = await room.visit({ headers: scraper, ip: '203.0.113.5' });
    let cookie = cookieOf(answer);
    const bots: Answer[] = [];
    for (let window = 0; window < 60; window++) {
      room.advance(waitingRoom(answer).retryAfterSeconds as number);
      answer = await room.visit({ headers: scraper, cookie, ip: '203.0.113.5' });
      expect(answer.fromOrigin).toBe(false);
      expect(answer.log).toMatchObject({ bot: true });
      bots.push(answer);
      if (roomCookieValue(answer.response, 'shop') !== null) cookie = cookieOf(answer);
    }
    expect(bots.filter((a) => a.log?.reason === 'bot_waiting').length).toBeGreaterThanOrEqual(55);
    expect(bots.every((a) => a.log?.outcome !== 'origin')).toBe(true);

    // A loser of the real queue, at the same moment and the same chance for the bot's draw.
    room.settings.set('allow_percentage', '50');
    let loser: Answer | null = null;
    for (let i = 0; loser === null && i < 200; i++) {
      const ip = `198.51.100.${i}`;
      const first = await room.visit({ headers: JSON_ACCEPT, ip });
      room.advance(waitingRoom(first).retryAfterSeconds as number);
      // An app that says it cannot solve ('none'): the real queue, at a share of the chance.
      const drawn = await room.visit({
        headers: { ...JSON_ACCEPT, 'waiting-room-proof': 'none' },
        ip,
        cookie: cookieOf(first),
      });
      if (drawn.log?.reason === 'draw_lost') loser = drawn;
    }
    room.advance(waitingRoom(answer).retryAfterSeconds as number);
    const bot = await room.visit({ headers: scraper, cookie, ip: '203.0.113.5' });
    expect(bot.log).toMatchObject({ reason: 'bot_waiting', decision: 'start' });
    expect(loser!.log).toMatchObject({ reason: 'draw_lost', decision: 'start' });
    // The same status, the same headers, the same JSON keys and the same kinds of values; the same cookie's shape.
    expect(bot.response.status).toBe(loser!.response.status);
    expect([...bot.response.headers.keys()].sort()).toEqual([...loser!.response.headers.keys()].sort());
    const shape = (a: Answer) =>
      Object.entries(waitingRoom(a)).map(([k, v]) => [k, v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v]);
    expect(shape(bot)).toEqual(shape(loser!));
    expect(waitingRoom(bot)).toMatchObject({
      status: waitingRoom(loser!).status,
      inWaitingRoom: true,
      waitTimePending: false,
    });
    expect(Object.keys(claimsOf(roomCookieValue(bot.response, 'shop')!))).toEqual(
      Object.keys(claimsOf(roomCookieValue(loser!.response, 'shop')!)),
    );
    const attributes = (a: Answer) => a.response.headers.get('set-cookie')!.replace(/=[^;]*/, '');
    expect(attributes(bot)).toBe(attributes(loser!));
  });
});
