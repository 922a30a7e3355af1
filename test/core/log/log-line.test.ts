// The decision line: what the controller counts from. Token ids, never the visitor; and a new wait
// token's successor, so the controller knows next window's tickets a window ahead.
import { describe, expect, it } from 'vitest';
import { decisionLine, type LineFields } from '../../../src/core/log/log-line.js';
import { FakeRoom, T0 } from '../../support/fakes.js';
import { claimsOf, tokenOf } from '../../../lib/mint.js';

const D = 30;

/** The line of a request of the default room at T0 with key k1 and an address identity, as JSON. */
const parsedLine = (
  f: Pick<LineFields, 'decision' | 'outcome' | 'reason' | 'status'> & Partial<LineFields>,
): Record<string, unknown> =>
  JSON.parse(
    decisionLine({
      nowMs: T0,
      pop: 'local',
      room: 'default',
      rule: null,
      waitPeriodSeconds: 10,
      kid: 'k1',
      method: 'GET',
      path: '/',
      identity: 'ip',
      ...f,
    }),
  ) as Record<string, unknown>;

describe('the decision line', () => {
  it('names the POP, the window and the tokens by id, and never the address', async () => {
    const room = new FakeRoom({
      settings: { allow_percentage: '50', wait_period_duration: String(D) },
      nowMs: T0 + 7000,
    });
    const answer = await room.visit({ ip: '203.0.113.77' });
    const token = tokenOf(answer.roomCookies[0]!);
    const line = answer.log!;
    expect(Object.keys(line).slice(0, 7)).toEqual(['wr', 'ts', 'pop', 'room', 'rule', 'win', 'period']);
    expect(line).toMatchObject({
      wr: 1,
      pop: 'TST',
      room: 'default',
      rule: null,
      win: T0 / 1000,
      period: D,
      reason: 'no_token',
      tid: null,
      newDec: 'wait',
    });
    expect(line.newTid).toBe(token.split('.')[2]!.slice(0, 8));
    expect(line.newExp).toBe(claimsOf(token).exp);
    const text = room.logs.at(-1)!.line;
    expect(text).not.toContain('203.0.113');
    expect(text).not.toContain(claimsOf(token).sub);
  });

  it("names the token a loser will get before the draw: the new wait token's successor", async () => {
    // Chance 0 for the first window: the visitor loses, and gets exactly the successor logged earlier.
    const room = new FakeRoom({
      settings: { allow_percentage: '50', wait_period_duration: String(D) },
      nowMs: T0 + 7000,
    });
    const first = await room.visit();
    const token = tokenOf(first.roomCookies[0]!);
    room.settings.set('allow_schedule', `${claimsOf(token).exp}=0`);
    room.nowMs = (claimsOf(token).exp + D - 1) * 1000;
    const lost = await room.visit({ cookie: `waiting_room_default=${token}` });
    expect(lost.log?.reason).toBe('draw_lost');
    expect(lost.log?.tid).toBe(first.log?.newTid);
    expect(lost.log?.newTid).toBe(first.log?.nextTid);
    expect(lost.log?.pct).toBe(0);
  });

  it('names no successor when nothing reads the log, and then signs nothing extra', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: '50', log_endpoint: '' } });
    const answer = await room.visit();
    expect(answer.log).toBeUndefined();
    expect(room.logs).toEqual([]);
  });

  it('names the language of a page or JSON answer the room made, and none on the way to the origin', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: '50' } });
    const page = await room.visit({ headers: { 'accept-language': 'de' } });
    expect(page.body).toMatch(/lang="de-DE"/);
    expect(page.log).toMatchObject({ outcome: 'startwaiting', lang: 'de-DE' });
    // After pos, before the fields only some lines have.
    expect(Object.keys(page.log!).slice(-2)).toEqual(['pos', 'lang']);
    const json = await room.visit({ headers: { 'accept-language': 'ar-SA, en;q=0.5', accept: 'application/json' } });
    expect(json.log).toMatchObject({ outcome: 'startwaiting', lang: 'ar-EG' });
    // Whatever the visitor sends, the line names one of the room's own tags, never their text.
    const junk = await room.visit({
      path: '/?wr_lang=%22%7D%3Cscript%3E',
      cookie: 'wr_lang="},{"wr":2',
      headers: { 'accept-language': '"}, xx-\u00e9;q=1' },
    });
    expect(junk.log).toMatchObject({ outcome: 'startwaiting', lang: 'en-US' });
    room.settings.set('allow_percentage', '0');
    expect((await room.visit({ headers: { 'accept-language': 'ja' } })).log).toMatchObject({
      outcome: 'deny',
      lang: 'ja-JP',
    });
    // The origin's answer carries no language of the room's: no field at all.
    room.settings.set('allow_percentage', '100');
    const origin = await room.visit({ headers: { 'accept-language': 'de' } });
    expect(origin.log).toMatchObject({ outcome: 'origin', reason: 'allow_all' });
    expect(origin.log).not.toHaveProperty('lang');
    expect(room.logs.at(-1)!.line).not.toContain('"lang"');
  });

  it('names no language on a bypass, and the language of the 502 the room answers for a dead origin', async () => {
    const routing = {
      rooms: [{ id: 'default', routes: ['/'] }],
      rules: [{ id: 'health', if: { path: { prefix: ['/health'] } }, then: 'bypass' }],
    };
    let down = false;
    const room = new FakeRoom({
      settings: { allow_percentage: '100' },
      store: { routing: JSON.stringify(routing) },
      origin: async () => {
        if (down) throw new TypeError('connection refused');
        return new Response('ok');
      },
    });
    const bypass = await room.visit({ path: '/health', headers: { 'accept-language': 'de' } });
    expect(bypass.log).toMatchObject({ reason: 'rule_bypass', room: null });
    expect(bypass.log).not.toHaveProperty('lang');
    down = true;
    const failed = await room.visit({ headers: { 'accept-language': 'fr' } });
    expect(failed.log).toMatchObject({ outcome: 'origin', originError: true, status: 502, lang: 'fr-FR' });
  });

  it('is one JSON object with every documented field, even without a decision', () => {
    const line = JSON.parse(
      decisionLine({
        nowMs: T0,
        pop: 'local',
        room: null,
        rule: 'health',
        waitPeriodSeconds: 10,
        decision: 'allow',
        outcome: 'origin',
        reason: 'rule_bypass',
        kid: null,
        method: 'GET',
        path: '/health',
        identity: null,
        status: 200,
      }),
    );
    for (const field of ['tid', 'exp', 'dec', 'newTid', 'newExp', 'newDec', 'nextTid', 'pct'])
      expect(line[field]).toBeNull();
    expect(line).not.toHaveProperty('lang');
    expect(line).not.toHaveProperty('originMs');
    expect(line).not.toHaveProperty('originStatus');
  });

  it("names the waiting page's variant after lang, and why its page fell back only beside a variant", () => {
    const line = (fields: { variant?: string | null; variantFallback?: string }) =>
      parsedLine({
        decision: 'wait',
        outcome: 'startwaiting',
        reason: 'no_token',
        status: 200,
        lang: 'de-DE',
        ...fields,
      });
    expect(Object.keys(line({ variant: 'b', variantFallback: 'missing' })).slice(-3)).toEqual([
      'lang',
      'variant',
      'variantFallback',
    ]);
    expect(line({ variant: 'b' })).toMatchObject({ variant: 'b' });
    expect(line({ variant: 'b' })).not.toHaveProperty('variantFallback');
    expect(line({ variant: null, variantFallback: 'missing' })).not.toHaveProperty('variant');
    expect(line({ variant: null, variantFallback: 'missing' })).not.toHaveProperty('variantFallback');
  });

  it("writes the origin's time in whole ms and its status after pos and lang, as a simulated origin hands them in", () => {
    const line = (originMs: number, originStatus: number | 'timeout' | 'refused' | 'failed', lang?: string) =>
      parsedLine({
        decision: 'allow',
        outcome: 'origin',
        reason: 'allow_valid',
        status: typeof originStatus === 'number' ? originStatus : 502,
        originMs,
        originStatus,
        ...(lang ? { lang, originError: true } : {}),
      });
    const ok = line(12.6, 200);
    expect(ok).toMatchObject({ originMs: 13, originStatus: 200 });
    expect(Object.keys(ok).slice(-3)).toEqual(['pos', 'originMs', 'originStatus']);
    const failed = line(3000, 'timeout', 'de-DE');
    expect(failed).toMatchObject({ status: 502, originMs: 3000, originStatus: 'timeout', originError: true });
    expect(Object.keys(failed).slice(-5)).toEqual(['pos', 'lang', 'originMs', 'originStatus', 'originError']);
    // A clock stepped back while the origin answered reads as no time, never a negative one.
    expect(line(-4, 'refused')).toMatchObject({ originMs: 0, originStatus: 'refused' });
  });
});
