// The client reads the room's own JSON answer (src/core/pages/answer-body.ts) field by field, and
// tells the room's answers from the origin's as the waiting page does.
import { describe, expect, it } from 'vitest';
import { answerFrom, readResponse } from '../../client/answer.js';
import { answerFacts, type AnsweredResult } from '../../src/core/answer/index.js';
import { answerJson } from '../../src/core/pages/answer-body.js';
import { parseConfig } from '../../src/core/settings/index.js';
import { hmacKey, proofChallenge } from '../../src/core/tokens/index.js';

const NOW_MS = Date.UTC(2026, 11, 7, 12, 0, 5);
const NOW = NOW_MS / 1000;
const config = (extra: Record<string, string> = {}) =>
  parseConfig((k) => ({ allow_percentage: '20', wait_period_duration: '30', ...extra })[k] ?? null).config;
const waiting = (extra: Partial<AnsweredResult> = {}): AnsweredResult => ({
  outcome: 'keepwaiting',
  reason: 'draw_lost',
  waitDueSec: NOW + 17,
  waitExpirySec: NOW + 5,
  ...extra,
});
const roomJson = (c = config(), result = waiting()) =>
  JSON.parse(answerJson(answerFacts(c, result, NOW_MS, () => 0.5))).waitingRoom as Record<string, unknown>;

/** The JSON fields the client reads under another name, or not as a field (inWaitingRoom decides whether it is one at all). */
const RENAMED: Record<string, string> = { inWaitingRoom: '(the answer itself)', laneName: 'lane' };

describe('the room’s JSON answer', () => {
  it('is read field by field: every field the room writes has its place in the client’s answer', async () => {
    const proof = await proofChallenge('a.b.c', await hmacKey(new Uint8Array(64).fill(3)), 2);
    const json = roomJson(config({ message: 'Doors at nine' }), waiting({ proof }));
    const answer = answerFrom(json)!;
    const unread = Object.keys(json).filter((k) => !(k in RENAMED) && !(k in answer));
    expect(unread).toEqual([]);
    for (const [k, v] of Object.entries(json)) {
      if (k in RENAMED || k === 'proof' || k === 'text' || k === 'lane') continue;
      expect(answer[k as keyof typeof answer], k).toEqual(v);
    }
    expect(answer.status).toBe('keepwaiting');
    expect(answer.message).toBe('Doors at nine');
    expect(answer.text).toMatchObject({ title: expect.any(String), message: 'Doors at nine' });
    const asked = json.proof as { counters: number; challenges: unknown };
    expect(answer.proof).toMatchObject({ header: 'waiting-room-proof', seconds: 2, counters: asked.counters });
    expect(answer.proof!.challenges).toEqual(asked.challenges);
  });

  it('says countdown and deny as the room does, and no proof as null', () => {
    const start = new Date((NOW + 600) * 1000).toISOString();
    const sale = config({ event_prequeue_start: new Date((NOW - 60) * 1000).toISOString(), event_start: start });
    const countdown = answerFrom(roomJson(sale, { ...waiting(), outcome: 'prequeue', reason: 'prequeue_joined' }))!;
    expect(countdown).toMatchObject({ status: 'prequeue', eventStart: start, startsInSeconds: 600 });
    const denied = answerFrom(
      roomJson(config(), { outcome: 'deny', reason: 'deny_all', waitDueSec: null, waitExpirySec: null }),
    )!;
    expect(denied).toMatchObject({
      status: 'deny',
      retryAfterSeconds: 300,
      jitterSeconds: 60,
      proof: null,
      lane: null,
    });
  });

  it('names the lane by its id and name', () => {
    expect(
      answerFrom({ inWaitingRoom: true, status: 'keepwaiting', lane: 'members', laneName: 'Members' })!.lane,
    ).toEqual({
      id: 'members',
      name: 'Members',
    });
    expect(answerFrom({ inWaitingRoom: true, lane: 'members' })!.lane).toEqual({ id: 'members', name: 'members' });
    expect(answerFrom({ inWaitingRoom: true, lane: null })!.lane).toBeNull();
  });

  it('keeps waiting on a status it does not know, and is no answer at all without inWaitingRoom', () => {
    expect(answerFrom({ inWaitingRoom: true, status: 'somethingnew' })!.status).toBe('keepwaiting');
    expect(answerFrom({ status: 'keepwaiting' })).toBeNull();
    expect(answerFrom('keepwaiting')).toBeNull();
  });
});

describe('an answer to a check', () => {
  const json = (body: unknown, status = 200, type = 'application/json; charset=utf-8') =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': type } });

  it('is the room’s when it carries the room’s body, whatever its status', async () => {
    expect((await readResponse(json({ waitingRoom: roomJson() }))).kind).toBe('room');
    expect((await readResponse(json({ waitingRoom: roomJson() }, 503))).kind).toBe('room');
  });

  it('is "later" for a 429, and for a 502, 503 or 504 without the room’s body', async () => {
    expect(await readResponse(json({ waitingRoom: { inWaitingRoom: true, hammering: true } }, 429))).toMatchObject({
      kind: 'busy',
      answer: { hammering: true },
    });
    for (const status of [429, 502, 503, 504])
      expect((await readResponse(new Response('down', { status }))).kind, String(status)).toBe('busy');
  });

  it('is the origin’s otherwise, left unread for the app', async () => {
    const page = new Response('<h1>Tickets</h1>', { headers: { 'content-type': 'text/html' } });
    expect((await readResponse(page)).kind).toBe('turn');
    expect(await page.text()).toBe('<h1>Tickets</h1>');
    const api = json({ seats: 2 });
    expect((await readResponse(api)).kind).toBe('turn');
    expect(await api.json()).toEqual({ seats: 2 });
    expect(
      (await readResponse(new Response('{not json', { headers: { 'content-type': 'application/json' } }))).kind,
    ).toBe('turn');
    expect((await readResponse(json({ error: 'sold out' }, 404))).kind).toBe('turn');
  });
});
