// The generator's reading of the room's pages, checked against the pages the room really renders.
import { describe, expect, it } from 'vitest';
import { afterCheck, firstWait, roomJson, timingFromHtml, type PageTiming } from '../../load/page.js';
import { renderAnswer } from '../../src/core/pages/answer-body.js';
import { parseConfig } from '../../src/core/settings/index.js';
import type { PageName } from '../../src/core/types.js';

const NOW = Date.UTC(2026, 0, 1, 0, 0, 5);

function rendered(name: PageName, d: number, json = false): { body: string; retryAfter: number } {
  const { config } = parseConfig((k) => ({ wait_period_duration: String(d), allow_percentage: '20' })[k] ?? null);
  const outcome = name === 'deny' ? 'deny' : name;
  const waitDueSec = name === 'deny' ? null : NOW / 1000 + 17;
  const answer = renderAnswer({
    config,
    result: {
      outcome,
      reason: name === 'deny' ? 'deny_all' : 'wait_not_due',
      waitDueSec,
      waitExpirySec: waitDueSec === null ? null : waitDueSec - 5,
    },
    nowMs: NOW,
    random: () => 0.5,
    json,
    storedPage: () => null,
    diag: () => undefined,
  });
  return { body: answer.body, retryAfter: answer.facts.retryAfterSeconds };
}

describe('timingFromHtml', () => {
  it('reads S (Retry-After) and J (the jitter) from the waiting pages the room renders', () => {
    for (const name of ['startwaiting', 'keepwaiting'] as const) {
      expect(timingFromHtml(rendered(name, 30).body)).toEqual({ kind: 'wait', S: 17, J: 2 });
      // J = min(2, floor(d / 5)): 1 for 5-second windows.
      expect(timingFromHtml(rendered(name, 5).body)).toEqual({ kind: 'wait', S: 17, J: 1 });
    }
  });

  it('reads the deny page with its floors: at least 300 s, jitter at least 60 s', () => {
    expect(timingFromHtml(rendered('deny', 30).body)).toEqual({ kind: 'deny', S: 300, J: 60 });
  });

  it('falls back as the script does when a number is missing: S 30, J 0', () => {
    expect(timingFromHtml('<script>var S=+""||30,J=+""||0,due,timer;</script>')).toEqual({ kind: 'wait', S: 30, J: 0 });
  });

  it('does not take the origin or an unknown page for the room', () => {
    expect(timingFromHtml('<!doctype html><h1>You are in!</h1>')).toBeNull();
  });
});

describe('roomJson', () => {
  it("finds the room's JSON answer and nothing else", () => {
    const json = roomJson(rendered('keepwaiting', 30, true).body);
    expect(json).toMatchObject({ inWaitingRoom: true, status: 'keepwaiting', retryAfterSeconds: 17, jitterSeconds: 2 });
    expect(roomJson('{"echo":{}}')).toBeNull();
    expect(roomJson('<html>')).toBeNull();
    expect(roomJson('{not json')).toBeNull();
  });
});

describe('afterCheck: the page script after each JSON check', () => {
  const page: PageTiming = { kind: 'wait', S: 17, J: 2 };
  const waiting = { inWaitingRoom: true, status: 'keepwaiting', retryAfterSeconds: 9 };

  it('waits Retry-After plus u x J, the header first, then the JSON, then S', () => {
    expect(afterCheck(page, waiting, '12', 0.25)).toEqual({ next: 'wait', seconds: 12.5 });
    expect(afterCheck(page, waiting, null, 0.25)).toEqual({ next: 'wait', seconds: 9.5 });
    expect(afterCheck(page, { ...waiting, retryAfterSeconds: 0 }, 'soon', 0)).toEqual({ next: 'wait', seconds: 17 });
  });

  it('reloads on anything but a waiting answer: the origin, a deny, a broken body', () => {
    expect(afterCheck(page, null, null, 0.5)).toEqual({ next: 'reload' });
    expect(afterCheck(page, { ...waiting, status: 'deny' }, '30', 0.5)).toEqual({ next: 'reload' });
    expect(afterCheck(page, { ...waiting, inWaitingRoom: false }, '30', 0.5)).toEqual({ next: 'reload' });
  });

  it('keeps a deny page on its slow timer while the room stays closed, and reloads once it opens', () => {
    const deny: PageTiming = { kind: 'deny', S: 300, J: 60 };
    expect(afterCheck(deny, { inWaitingRoom: true, status: 'deny' }, '30', 0.5)).toEqual({
      next: 'wait',
      seconds: 330,
    });
    expect(afterCheck(deny, waiting, '5', 0.5)).toEqual({ next: 'reload' });
    expect(afterCheck(deny, null, null, 0.5)).toEqual({ next: 'reload' });
  });

  it('first waits S plus u x J', () => {
    expect(firstWait(page, 0.5)).toBe(18);
  });
});
