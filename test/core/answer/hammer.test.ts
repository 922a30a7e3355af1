// hammer_limit: a wait token checking far more often than its page would is answered 429 with the
// seconds until it falls due, from the POP's rate counter and penalty box, before any signature is
// checked; and it loses neither its draw nor its place: once due, it is decided as ever.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/core/settings/index.js';
import { dueAt, tokenId } from '../../../src/core/decision/draw.js';
import { HAMMER_DIAG, readWaitToken } from '../../../src/core/answer/hammer.js';
import { inLogSample } from '../../../src/core/log/log-sample.js';
import { SandboxMemory } from '../../../src/core/memory/index.js';
import type { AdmissionCounter } from '../../../src/core/types.js';
import { FakePenaltyBox, FakeRoom, mint, SlidingCounter, T0 } from '../../support/fakes.js';
import { windowBoundary } from '../../../lib/mint.js';

const D = 60;
const IP = '192.0.2.10';
const config = { waitPeriodSeconds: D };

/** A room with the POP's counter and penalty box on its fake clock; every due draw wins. */
function hammeredRoom(settings: Record<string, string> = {}): FakeRoom {
  const room: FakeRoom = new FakeRoom({
    settings: { allow_percentage: '99.999', wait_period_duration: String(D), ...settings },
    nowMs: T0,
    rateCounter: new SlidingCounter(() => room.nowMs),
    penaltyBox: new FakePenaltyBox(() => room.nowMs),
    memory: new SandboxMemory(),
  });
  return room;
}

/** A wait token of the default identity two windows ahead, and when it falls due. */
async function waitToken(steps = 2): Promise<{ token: string; exp: number; due: number }> {
  const exp = windowBoundary(D, steps, T0 / 1000);
  const token = await mint({ dec: 'wait', exp });
  return { token, exp, due: dueAt(token, exp, config) };
}

const cookie = (token: string) => `waiting_room_default=${token}`;

describe('hammering', () => {
  it('answers a token checking 100 times a minute 429 with the seconds to its due time, no cookie; at its due time it draws as ever', async () => {
    const room = hammeredRoom();
    const { token, due } = await waitToken();
    // 100 checks in the minute before it falls due, one every 0.6 s.
    const start = (due - 61) * 1000;
    const reasons: string[] = [];
    for (let i = 0; i < 100; i++) {
      room.nowMs = start + i * 600;
      const answer = await room.visit({ cookie: cookie(token), headers: { accept: 'application/json' } });
      reasons.push(String(answer.log?.reason));
      expect(answer.roomCookies).toEqual([]);
      expect(answer.response.headers.get('set-cookie')).toBeNull();
      expect(Number(answer.response.headers.get('retry-after'))).toBe(Math.max(1, Math.ceil(due - room.nowMs / 1000)));
      if (answer.log?.reason !== 'hammering') continue;
      expect(answer.response.status).toBe(429);
      expect(answer.response.headers.get('cache-control')).toBe('no-store, private');
      expect(JSON.parse(answer.body)).toEqual({
        waitingRoom: {
          inWaitingRoom: true,
          status: 'keepwaiting',
          retryAfterSeconds: Math.ceil(due - room.nowMs / 1000),
          hammering: true,
          language: 'en-US',
        },
      });
      expect(answer.log).toMatchObject({
        decision: 'wait',
        outcome: 'keepwaiting',
        status: 429,
        tid: tokenId(token),
        dec: 'wait',
        newTid: null,
      });
    }
    // The limit's 60 checks are answered as usual, every one past them 429.
    expect(reasons.slice(0, 60)).toEqual(Array(60).fill('wait_not_due'));
    expect(reasons.slice(60)).toEqual(Array(40).fill('hammering'));
    // Due: still boxed and over the count, and drawn all the same.
    room.nowMs = due * 1000;
    const drawn = await room.visit({ cookie: cookie(token) });
    expect(drawn.log?.reason).toBe('draw_won');
    expect(drawn.fromOrigin).toBe(true);
  });

  it('keeps a boxed token out for a minute after it slows down, and answers a browser a short page that comes back when due', async () => {
    const room = hammeredRoom({ hammer_limit: '10' });
    const { token, due } = await waitToken(3);
    room.nowMs = (due - 170) * 1000;
    const burst: string[] = [];
    for (let i = 0; i < 11; i++) burst.push(String((await room.visit({ cookie: cookie(token) })).log?.reason));
    expect(burst.slice(10)).toEqual(['hammering']);
    room.advance(40);
    const page = await room.visit({ cookie: cookie(token) });
    expect(page.log?.reason).toBe('hammering');
    expect(page.response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const wait = due - room.nowSec;
    expect(page.body).toContain(`<meta http-equiv="refresh" content="${wait}">`);
    expect(page.body).toContain(`${wait} seconds`);
    expect((await room.visit({ cookie: cookie(token), method: 'HEAD' })).body).toBe('');
    // The short page is the room's own, in a language: the line names it.
    expect(page.log?.lang).toBe('en-US');
    expect((await room.visit({ cookie: cookie(token), headers: { 'accept-language': 'de' } })).log).toMatchObject({
      reason: 'hammering',
      lang: 'de-DE',
    });
    // 61 s after the burst it has checked 3 times in the last minute, but the box holds it a minute.
    room.advance(21);
    expect((await room.visit({ cookie: cookie(token) })).log?.reason).toBe('hammering');
    // A minute after it was last boxed, a check is answered as usual.
    room.advance(61);
    expect((await room.visit({ cookie: cookie(token) })).log?.reason).toBe('wait_not_due');
  });

  it('counts two tokens behind one address apart', async () => {
    const room = hammeredRoom();
    const a = await waitToken(2);
    const b = await waitToken(3);
    const start = (a.due - 61) * 1000;
    const forB: string[] = [];
    for (let i = 0; i < 100; i++) {
      room.nowMs = start + i * 600;
      await room.visit({ cookie: cookie(a.token), ip: IP });
      if (i % 3 === 0) forB.push(String((await room.visit({ cookie: cookie(b.token), ip: IP })).log?.reason));
    }
    expect(forB.length).toBe(34);
    expect(new Set(forB)).toEqual(new Set(['wait_not_due']));
  });

  it('counts every wait token of the room cookie: a forged one first does not start the count afresh', async () => {
    const room = hammeredRoom();
    const { token, due } = await waitToken();
    const payload = token.slice(0, token.lastIndexOf('.'));
    const start = (due - 61) * 1000;
    const reasons: string[] = [];
    for (let i = 0; i < 100; i++) {
      room.nowMs = start + i * 600;
      // A fresh random signature each time: a new entry in the counter on every request.
      const fake = `${payload}.${Buffer.from(crypto.getRandomValues(new Uint8Array(64))).toString('base64url')}`;
      const answer = await room.visit({ cookie: `${cookie(fake)}; ${cookie(token)}` });
      reasons.push(String(answer.log?.reason));
    }
    expect(reasons.slice(60)).toEqual(Array(40).fill('hammering'));
  });

  it('answers 429 while any hammered token of the cookie is not yet due, until that one is', async () => {
    const room = hammeredRoom({ hammer_limit: '5' });
    const a = await waitToken(2);
    const b = await waitToken(4);
    room.nowMs = (Math.min(a.due, b.due) - 30) * 1000;
    // b alone checks too often and is boxed.
    for (let i = 0; i < 6; i++) await room.visit({ cookie: cookie(b.token) });
    const both = await room.visit({ cookie: `${cookie(a.token)}; ${cookie(b.token)}` });
    expect(both.response.status).toBe(429);
    expect(Number(both.response.headers.get('retry-after'))).toBe(Math.ceil(b.due - room.nowSec));
    // Only the first four room cookies are counted: a hammered fifth changes nothing.
    const fresh = await waitToken(3);
    const four = [1, 2, 3].map((n) => `${cookie(`${fresh.token.slice(0, -2)}A${n}`)}`);
    const fifth = await room.visit({ cookie: [...four, cookie(fresh.token), cookie(b.token)].join('; ') });
    expect(fifth.log?.reason).not.toBe('hammering');
  });

  it('changes nothing without a rate counter, and says so once', async () => {
    const room = new FakeRoom({
      settings: { allow_percentage: '99.999', wait_period_duration: String(D) },
      memory: new SandboxMemory(),
    });
    const { token, due } = await waitToken();
    const reasons = new Set<string>();
    for (let i = 0; i < 100; i++) {
      room.nowMs = (due - 61) * 1000 + i * 600;
      reasons.add(String((await room.visit({ cookie: cookie(token) })).log?.reason));
    }
    expect([...reasons]).toEqual(['wait_not_due']);
    expect(room.diags.filter((d) => d.includes('hammer_limit'))).toEqual([HAMMER_DIAG]);
    // True of the default too (the operator may have set nothing), and says the command that fixes it.
    expect(HAMMER_DIAG).not.toContain('is set');
    expect(HAMMER_DIAG).toContain('npm run tune -- hammer_limit=0');
  });

  it('skips the limit when the counter fails, and says so once in the same words, whatever the error', async () => {
    let n = 0;
    const failing: AdmissionCounter = {
      increment: () => {
        throw new Error(`edge rate limiting is not enabled (request ${n++})`);
      },
      count: () => 0,
    };
    const room = new FakeRoom({
      settings: { wait_period_duration: String(D) },
      rateCounter: failing,
      memory: new SandboxMemory(),
    });
    const { token, due } = await waitToken();
    room.nowMs = (due - 30) * 1000;
    for (let i = 0; i < 70; i++) expect((await room.visit({ cookie: cookie(token) })).log?.reason).toBe('wait_not_due');
    expect(room.diags.filter((d) => d.includes('hammer_limit'))).toEqual([HAMMER_DIAG]);
  });

  it('with hammer_limit 0, counts nothing', async () => {
    let calls = 0;
    const counting: AdmissionCounter = { increment: () => void calls++, count: () => (calls++, 1000) };
    const room = new FakeRoom({
      settings: { wait_period_duration: String(D), hammer_limit: '0' },
      rateCounter: counting,
    });
    const { token, due } = await waitToken();
    room.nowMs = (due - 30) * 1000;
    for (let i = 0; i < 5; i++) expect((await room.visit({ cookie: cookie(token) })).log?.reason).toBe('wait_not_due');
    expect(calls).toBe(0);
  });

  it("leaves allow tokens, other rooms' tokens and garbage to the decision", async () => {
    const room = hammeredRoom({ hammer_limit: '1' });
    const allow = await mint({ dec: 'allow', exp: T0 / 1000 + 3600 });
    for (let i = 0; i < 5; i++) expect((await room.visit({ cookie: cookie(allow) })).fromOrigin).toBe(true);
    const { token, exp } = await waitToken();
    expect(readWaitToken(token, 'default')).toMatchObject({ exp, entry: token.slice(token.lastIndexOf('.') + 1) });
    expect(readWaitToken(token, 'checkout')).toBeNull();
    expect(readWaitToken(allow, 'default')).toBeNull();
    expect(readWaitToken('a.b.c', 'default')).toBeNull();
    expect(readWaitToken(`${token.slice(0, token.lastIndexOf('.'))}.AAAA`, 'default')).toBeNull();
    expect(readWaitToken(token + 'x'.repeat(5000), 'default')).toBeNull();
  });

  it('logs a hammering check only for tokens in the log sample', async () => {
    const room = hammeredRoom({ hammer_limit: '1', log_sample_rate: '0.5' });
    let outside: string | null = null;
    let inside: string | null = null;
    for (let steps = 2; outside === null || inside === null; steps++) {
      const { token } = await waitToken(steps);
      if (inLogSample(tokenId(token), 0.5)) inside ??= token;
      else outside ??= token;
    }
    for (const token of [inside, outside]) {
      await room.visit({ cookie: cookie(token) });
      const answer = await room.visit({ cookie: cookie(token) });
      expect(answer.response.status).toBe(429);
      if (token === inside) expect(answer.log).toMatchObject({ reason: 'hammering', w: 2 });
      else expect(answer.log).toBeUndefined();
    }
  });
});

describe('hammer_limit', () => {
  const parse = (value?: string) =>
    parseConfig((key) => (key === 'hammer_limit' ? (value ?? null) : key === 'allow_percentage' ? '50' : null));
  it('is 60 checks a minute unless set; 0 turns it off', () => {
    expect(parse().config.hammerLimit).toBe(60);
    expect(parse('0').config.hammerLimit).toBe(0);
    expect(parse('250').config.hammerLimit).toBe(250);
  });
  it('names its key when it cannot be used, and keeps the default', () => {
    for (const bad of ['-1', '1.5', 'lots', '100001']) {
      const { config, problems } = parse(bad);
      expect(config.hammerLimit).toBe(60);
      expect(problems).toEqual([expect.objectContaining({ key: 'hammer_limit', value: bad })]);
    }
  });
});
