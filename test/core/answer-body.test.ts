import { describe, expect, it } from 'vitest';
import { answerFacts, type AnsweredResult } from '../../src/core/answer.js';
import { answerJson, pageVars, renderAnswer } from '../../src/core/answer-body.js';
import { parseConfig } from '../../src/core/config.js';
import { localeByTag } from '../../src/core/i18n/locales.js';
import type { PageLanguage } from '../../src/core/i18n/page-language.js';
import { Strings } from '../../src/core/i18n/strings.js';
import { answerText } from '../../src/core/pages-view.js';
import { fakeLocale } from './i18n/fake-locale.js';

const NOW_MS = Date.UTC(2026, 0, 1, 0, 0, 5);
const NOW = NOW_MS / 1000;
const config = (extra: Record<string, string> = {}) =>
  parseConfig((k) => ({ allow_percentage: '20', wait_period_duration: '30', message: 'Room message', ...extra })[k] ?? null).config;
const lost: AnsweredResult = { outcome: 'keepwaiting', reason: 'draw_lost', waitDueSec: NOW + 17, waitExpirySec: NOW + 5 };
const en = localeByTag('en-US')!;
const fake: PageLanguage = { strings: new Strings(fakeLocale), offered: [en, fakeLocale], search: '?a=1', message: 'Wiadomość' };

describe('the JSON answer in a language', () => {
  it('names the language, the offered ones, and carries the live text and the message in it', () => {
    const facts = answerFacts(config(), lost, NOW_MS, () => 0);
    const json = JSON.parse(answerJson(facts, fake)).waitingRoom;
    expect(json).toMatchObject({ language: 'xx-PL', languages: ['en-US', 'xx-PL'], message: 'Wiadomość' });
    expect(json.text).toEqual(answerText(pageVars(facts), fake));
    expect(json.text.title).toBe('Still in the queue');
    expect(json.text.waitSummary).toMatch(/[٠-٩]/);
    expect(json.text.message).toBe('Wiadomość');
    // The figures stay numbers.
    expect(typeof json.waitTime50PercentileSeconds).toBe('number');
  });

  it('speaks English with the room message when the renderer is handed no language', () => {
    const facts = answerFacts(config(), lost, NOW_MS, () => 0);
    const json = JSON.parse(answerJson(facts)).waitingRoom;
    expect(json).toMatchObject({ language: 'en-US', languages: ['en-US'], message: 'Room message' });
    expect(json.text.waitSummary).toMatch(/^about \d+ to \d+ minutes$|^about|^less than/);
  });

  it('renders the page and the JSON answer in the language it is handed', () => {
    const base = { config: config(), result: lost, nowMs: NOW_MS, random: () => 0, storedPage: () => null, diag: () => {} };
    const page = renderAnswer({ ...base, json: false, language: fake });
    expect(page.body).toContain('<html lang="xx-PL" dir="rtl"');
    expect(page.body).toContain('<span id="msg">Wiadomość</span>');
    const json = JSON.parse(renderAnswer({ ...base, json: true, language: fake }).body).waitingRoom;
    expect(json.language).toBe('xx-PL');
    expect(renderAnswer({ ...base, json: false }).body).toContain('<span id="msg">Room message</span>');
  });
});

describe('the chance the JSON answer says a draw uses', () => {
  it("is a stopped controller's fallback, with its source, beside the room's allow_percentage", () => {
    const schedule = `${NOW - 3600}=2.39,${NOW - 3000}=2.561533`;
    const json = JSON.parse(answerJson(answerFacts(config({ allow_percentage: '50', allow_schedule: schedule }), lost, NOW_MS, () => 0))).waitingRoom;
    expect(json).toMatchObject({ allowPercentage: 50, chancePercentage: 2.561533, chanceSource: 'fallback' });
  });

  it('is allow_percentage when nothing else decides', () => {
    const json = JSON.parse(answerJson(answerFacts(config(), lost, NOW_MS, () => 0))).waitingRoom;
    expect(json).toMatchObject({ allowPercentage: 20, chancePercentage: 20, chanceSource: 'allow_percentage' });
  });
});
