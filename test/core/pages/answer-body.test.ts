import { describe, expect, it } from 'vitest';
import { answerFacts, type AnsweredResult } from '../../../src/core/answer/answer.js';
import { answerJson, pageVars, renderAnswer } from '../../../src/core/pages/answer-body.js';
import { parseConfig } from '../../../src/core/settings/index.js';
import { decide } from '../../../src/core/decision/index.js';
import { createKeyRing } from '../../../src/core/tokens/keys.js';
import { localeByTag } from '../../../src/core/i18n/locales.js';
import type { PageLanguage } from '../../../src/core/i18n/page-language.js';
import { Strings } from '../../../src/core/i18n/strings.js';
import { answerText } from '../../../src/core/pages/pages-view.js';
import { fakeLocale } from '../i18n/fake-locale.js';

const NOW_MS = Date.UTC(2026, 0, 1, 0, 0, 5);
const NOW = NOW_MS / 1000;
const config = (extra: Record<string, string> = {}) =>
  parseConfig(
    (k) => ({ allow_percentage: '20', wait_period_duration: '30', message: 'Room message', ...extra })[k] ?? null,
  ).config;
const lost: AnsweredResult = {
  outcome: 'keepwaiting',
  reason: 'draw_lost',
  waitDueSec: NOW + 17,
  waitExpirySec: NOW + 5,
};
const en = localeByTag('en-US')!;
const fake: PageLanguage = {
  strings: new Strings(fakeLocale),
  offered: [en, fakeLocale],
  search: '?a=1',
  message: 'Wiadomość',
};

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
    const base = {
      config: config(),
      result: lost,
      nowMs: NOW_MS,
      random: () => 0,
      storedPage: () => null,
      diag: () => {},
    };
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
    const json = JSON.parse(
      answerJson(answerFacts(config({ allow_percentage: '50', allow_schedule: schedule }), lost, NOW_MS, () => 0)),
    ).waitingRoom;
    expect(json).toMatchObject({ allowPercentage: 50, chancePercentage: 2.561533, chanceSource: 'fallback' });
  });

  it('is allow_percentage when nothing else decides', () => {
    const json = JSON.parse(answerJson(answerFacts(config(), lost, NOW_MS, () => 0))).waitingRoom;
    expect(json).toMatchObject({ allowPercentage: 20, chancePercentage: 20, chanceSource: 'allow_percentage' });
  });
});

describe('the waiting page of a visitor holding a place from the pre-queue, after the start', () => {
  // The sale's start, on a window boundary, and a room with no controller: the pre-queue drains by
  // allow_percentage, so the page shows no number in line, only its first sentence says how it goes.
  const START = Date.UTC(2026, 11, 1, 10, 0, 0) / 1000;
  const iso = (sec: number) => new Date(sec * 1000).toISOString();
  const KEY = Buffer.from(Uint8Array.from({ length: 64 }, (_, i) => (i * 37 + 11) & 255)).toString('base64');
  const settings: Record<string, string> = {
    allow_percentage: '1',
    wait_period_duration: '30',
    active_key: 'k1',
    event_prequeue_start: iso(START - 3600),
    event_start: iso(START),
  };

  /** What a visitor of the pre-queue reads at their first due check after the start, still waiting. */
  async function pageAfterStart(room: Record<string, string>, tag: string, json = false): Promise<string> {
    const config = parseConfig((k) => ({ ...settings, ...room })[k] ?? null).config;
    const keys = () =>
      createKeyRing(
        async (kid) => (kid === 'k1' ? KEY : null),
        () => {},
      );
    const at = (sec: number, tokens: string[] = []) =>
      decide({ config, keys: keys(), identity: 'ip:198.51.100.7', tokens, nowMs: sec * 1000 });
    const joined = await at(START - 100);
    expect(joined).toMatchObject({ outcome: 'prequeue', reason: 'prequeue_joined' });
    const after = await at(joined.waitDueSec!, [joined.setToken!]);
    // Still waiting (1% of the pre-queue a window), with a place nobody has put a number on yet.
    expect(after).toMatchObject({ outcome: 'keepwaiting', reason: 'queue_waiting' });
    const locale = localeByTag(tag)!;
    const language: PageLanguage = { strings: new Strings(locale), offered: [en, locale], search: '', message: '' };
    const nowMs = joined.waitDueSec! * 1000;
    return renderAnswer({
      config,
      result: after,
      nowMs,
      random: () => 0,
      json,
      storedPage: () => null,
      diag: () => {},
      language,
    }).body;
  }

  it('says everyone in the pre-queue got a random place at the start and goes in by it, not that a draw picks', async () => {
    const html = await pageAfterStart({}, 'en-US');
    expect(html).toContain(
      'When the sale started, everyone in the pre-queue, you included, got a place in line at random.',
    );
    expect(html).not.toContain('picked at random');
    expect(html).not.toContain('id="place"');
  });

  it("says it in the visitor's language", async () => {
    const html = await pageAfterStart({}, 'de-DE');
    expect(html).toContain(
      'Zum Start des Verkaufs haben alle in der Vorwarteschlange, auch Sie, per Zufall einen Platz in der Warteschlange erhalten.',
    );
    expect(html).not.toContain('per Zufall ausgewählt aus allen Wartenden');
  });

  it('tells an app in the JSON answer which line the place is in, whatever queueingMethod says', async () => {
    const answer = JSON.parse(await pageAfterStart({ queueing_method: 'fifo' }, 'en-US', true)) as {
      waitingRoom: Record<string, unknown>;
    };
    expect(answer.waitingRoom).toMatchObject({ status: 'keepwaiting', queueingMethod: 'fifo', placeQueue: 'prequeue' });
  });

  it('says it in a first-come room too, whose own sentence would speak of arrival', async () => {
    const html = await pageAfterStart({ queueing_method: 'fifo' }, 'en-US');
    expect(html).toContain('everyone in the pre-queue, you included, got a place in line at random');
    expect(html).not.toContain('in the order they arrived');
  });
});
