// The language of what the room answers itself: chosen by the wr_lang query (which sets the wr_lang
// cookie), the cookie, then Accept-Language; the operator's wording over the built-in one; Vary; and
// nothing of it for a visitor on their way to the origin.
import { describe, expect, it, vi } from 'vitest';
import { dueAt } from '../../src/core/decision/draw.js';
import type { AnswerInput } from '../../src/core/pages/answer-body.js';
import { SandboxMemory } from '../../src/core/memory/index.js';
import { FakePenaltyBox, FakeRoom, mint, SlidingCounter, T0 } from '../support/fakes.js';
import { windowBoundary } from '../../lib/mint.js';

vi.mock('../../src/core/pages/answer-body.js', async (original) => {
  const m = await original<typeof import('../../src/core/pages/answer-body.js')>();
  return { ...m, renderAnswer: vi.fn(m.renderAnswer) };
});
const { renderAnswer } = await import('../../src/core/pages/answer-body.js');
const { LOCALE_TAGS, localeByTag } = await import('../../src/core/i18n/locales.js');
const { Strings } = await import('../../src/core/i18n/strings.js');
const builtin = (tag: string) => localeByTag(tag)!.catalog;

/** What the handler handed the renderer on the last answer. */
function lastLanguage() {
  const calls = vi.mocked(renderAnswer).mock.calls;
  const language = (calls[calls.length - 1]![0] as AnswerInput).language!;
  return { ...language, tag: language.strings.tag, offered: language.offered.map((l) => l.info.tag) };
}

const langCookies = (response: Response) => response.headers.getSetCookie().filter((c) => c.startsWith('wr_lang='));

describe('the language of a waiting page', () => {
  it('takes wr_lang from the query over the header, sets the cookie, and passes the query on for the links', async () => {
    const room = new FakeRoom();
    const answer = await room.visit({ path: '/shop?item=3&wr_lang=de-DE', headers: { 'accept-language': 'ja' } });
    expect(answer.fromOrigin).toBe(false);
    expect(lastLanguage()).toMatchObject({ tag: 'de-DE', search: '?item=3&wr_lang=de-DE', message: '' });
    expect(lastLanguage().offered).toEqual(LOCALE_TAGS);
    expect(langCookies(answer.response)).toEqual(['wr_lang=de-DE; Path=/; Max-Age=31536000; SameSite=Lax']);
    // Secure as the room's cookie would be.
    const https = await room.visit({ path: '/?wr_lang=ja-jp', https: true });
    expect(langCookies(https.response)).toEqual(['wr_lang=ja-JP; Path=/; Max-Age=31536000; SameSite=Lax; Secure']);
  });

  it("hands the renderer the room's default language for a template written in one", async () => {
    const room = new FakeRoom({ settings: { default_language: 'de-DE', 'message.de-DE': 'Hallo', message: 'Hello' } });
    await room.visit({ headers: { 'accept-language': 'ja' } });
    const calls = vi.mocked(renderAnswer).mock.calls;
    const single = (calls[calls.length - 1]![0] as AnswerInput).language!.single!;
    expect([single.strings.tag, single.message]).toEqual(['de-DE', 'Hallo']);
    await room.visit({ headers: { 'accept-language': 'de' } });
    expect((vi.mocked(renderAnswer).mock.calls.at(-1)![0] as AnswerInput).language!.single).toBeUndefined();
  });

  it('reads wr_lang however its name is encoded, as the links replace it', async () => {
    const room = new FakeRoom();
    await room.visit({ path: '/?wr%5Flang=de-DE', headers: { 'accept-language': 'ja' } });
    expect(lastLanguage().tag).toBe('de-DE');
  });

  it('sets no cookie when it already says the language, or the query names one the room does not offer', async () => {
    const room = new FakeRoom({ settings: { languages: 'en-US,de-DE' } });
    expect(langCookies((await room.visit({ path: '/?wr_lang=de-DE', cookie: 'wr_lang=de-DE' })).response)).toEqual([]);
    const other = await room.visit({ path: '/?wr_lang=ja-JP', headers: { 'accept-language': 'de' } });
    expect(langCookies(other.response)).toEqual([]);
    expect(lastLanguage().tag).toBe('de-DE');
  });

  it('takes the cookie over the header, and the header over the default', async () => {
    const room = new FakeRoom();
    await room.visit({ cookie: 'a=1; wr_lang=ja-JP', headers: { 'accept-language': 'de-DE' } });
    expect(lastLanguage().tag).toBe('ja-JP');
    await room.visit({ headers: { 'accept-language': 'is;q=0.9, zh-HK;q=0.8, de;q=0.1' } });
    expect(lastLanguage().tag).toBe('zh-TW');
    await room.visit({ headers: { 'accept-language': 'is' } });
    expect(lastLanguage().tag).toBe('en-US');
  });

  it('uses default_language and the message of the chosen language', async () => {
    const room = new FakeRoom({ settings: { default_language: 'ja-JP', message: 'Busy', 'message.ja-JP': '混雑中' } });
    await room.visit();
    expect(lastLanguage()).toMatchObject({ tag: 'ja-JP', message: '混雑中' });
    await room.visit({ headers: { 'accept-language': 'de' } });
    expect(lastLanguage()).toMatchObject({ tag: 'de-DE', message: 'Busy' });
  });

  it('says Vary: Accept-Language only when the room offers more than one language', async () => {
    const many = await new FakeRoom().visit();
    expect(many.response.headers.get('vary')).toBe('Accept-Language');
    const json = await new FakeRoom().visit({ headers: { accept: 'application/json' } });
    expect(json.response.headers.get('vary')).toBe('Accept-Language');
    const one = await new FakeRoom({ settings: { languages: 'de-DE' } }).visit({
      headers: { 'accept-language': 'en' },
    });
    expect(one.response.headers.get('vary')).toBeNull();
    expect(lastLanguage().tag).toBe('de-DE');
  });

  it('keeps the JSON answer of a waiting visitor the same in every number, whatever the language', async () => {
    const json = async (headers: Record<string, string>) => {
      const room = new FakeRoom({ settings: { wait_period_duration: '60' } });
      const body = JSON.parse((await room.visit({ headers: { accept: 'application/json', ...headers } })).body) as {
        waitingRoom: Record<string, unknown>;
      };
      return Object.fromEntries(
        Object.entries(body.waitingRoom).filter(
          ([, v]) => typeof v === 'number' || typeof v === 'boolean' || v === null,
        ),
      );
    };
    const english = await json({});
    expect(english.refreshIntervalSeconds).toEqual(expect.any(Number));
    expect(await json({ 'accept-language': 'ar-EG' })).toEqual(english);
  });
});

describe("the operator's wording (waiting_room_pages strings.TAG)", () => {
  const shared = JSON.stringify({ denyTitle: 'shared deny', waitingTitleStart: 'shared start' });
  const own = JSON.stringify({ denyTitle: 'room deny' });

  it("takes the room's page set's over the shared one, and the shared over the built-in, key by key", async () => {
    const room = new FakeRoom({ settings: { pages: 'shop' }, pages: {} });
    room.pages.set('strings.de-DE', shared);
    room.pages.set('shop.strings.de-DE', own);
    room.pages.set('strings.ja-JP', JSON.stringify({ denyTitle: 'not this language' }));
    await room.visit({ headers: { 'accept-language': 'de' } });
    const { strings } = lastLanguage();
    expect(strings.text('denyTitle')).toBe('room deny');
    expect(strings.text('waitingTitleStart')).toBe('shared start');
    expect(strings.text('tryLater')).toBe(builtin('de-DE').tryLater);
  });

  it('ignores a bad entry alone and names it, once per value in a reused sandbox', async () => {
    const room = new FakeRoom({ memory: new SandboxMemory() });
    room.pages.set(
      'strings.de-DE',
      JSON.stringify({ denyTitle: 'ok', tryLater: '{oops', hammerBody: '{seconds, plural, one {#} other {#}}' }),
    );
    const first = await room.visit({ headers: { 'accept-language': 'de' } });
    expect(first.diags.filter((d) => d.startsWith('waiting_room_pages.'))).toEqual([
      expect.stringMatching(/^waiting_room_pages\.strings\.de-DE: tryLater is not a usable message/),
    ]);
    expect(lastLanguage().strings.text('denyTitle')).toBe('ok');
    expect(lastLanguage().strings.text('tryLater')).toBe(builtin('de-DE').tryLater);
    const again = await room.visit({ headers: { 'accept-language': 'de' } });
    expect(again.diags.filter((d) => d.startsWith('waiting_room_pages.'))).toEqual([]);
    room.pages.set('strings.de-DE', 'not json');
    const whole = await room.visit({ headers: { 'accept-language': 'de' } });
    expect(whole.diags).toContain('waiting_room_pages.strings.de-DE is not valid JSON; ignoring it whole');
  });
});

describe('the 429 and 502 pages', () => {
  it('answers a hammering check in the chosen language, escaped, with lang and dir', async () => {
    const D = 60;
    const room: FakeRoom = new FakeRoom({
      settings: { allow_percentage: '99.999', wait_period_duration: String(D), hammer_limit: '1' },
      rateCounter: new SlidingCounter(() => room.nowMs),
      penaltyBox: new FakePenaltyBox(() => room.nowMs),
    });
    room.pages.set('strings.ar-EG', JSON.stringify({ hammerHeading: '<b>wait</b>' }));
    const exp = windowBoundary(D, 3, T0 / 1000);
    const token = await mint({ dec: 'wait', exp });
    room.nowMs = (dueAt(token, exp, { waitPeriodSeconds: D }) - 100) * 1000;
    const visit = () => room.visit({ cookie: `waiting_room_default=${token}; wr_lang=ar-EG` });
    await visit();
    const page = await visit();
    expect(page.response.status).toBe(429);
    expect(page.body).toMatch(/^<!doctype html><html lang="ar-EG" dir="rtl">/);
    expect(page.body).toContain(`<title>${builtin('ar-EG').hammerTitle}</title>`);
    expect(page.body).toContain('<h1>&lt;b&gt;wait&lt;&#x2F;b&gt;</h1>');
    // The seconds in Arabic's own words and digits, as many as the Retry-After says.
    const seconds = Number(page.response.headers.get('retry-after'));
    expect(page.body).toContain(new Strings(localeByTag('ar-EG')!).text('hammerBody', { seconds }));
    expect(page.response.headers.get('vary')).toBe('Accept-Language');
  });

  it('answers a dead origin in the chosen language', async () => {
    const room = new FakeRoom({
      settings: { allow_percentage: '100' },
      origin: async () => Promise.reject(new Error('down')),
    });
    const answer = await room.visit({ headers: { 'accept-language': 'ja-JP' } });
    expect(answer.response.status).toBe(502);
    expect(answer.body).toMatch(/^<!doctype html><html lang="ja-JP" dir="ltr">/);
    expect(answer.body).toContain(`<h1>${builtin('ja-JP').originDownHeading}</h1>`);
    expect(answer.response.headers.get('vary')).toBe('Accept-Language');
  });
});

describe('a visitor on their way to the origin', () => {
  it('costs no language work: no strings read, no cookie, no Vary; the origin gets wr_lang as sent', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: '100', pages: 'shop' } });
    room.pages.set('strings.de-DE', '{}');
    const before = vi.mocked(renderAnswer).mock.calls.length;
    const lookups = room.lookups;
    const answer = await room.visit({
      path: '/?wr_lang=de-DE',
      cookie: 'wr_lang=ja-JP',
      headers: { 'accept-language': 'de' },
    });
    expect(answer.fromOrigin).toBe(true);
    // The routing and the room's four settings values: no strings.TAG, no SET.strings.TAG.
    expect(room.lookups - lookups).toBe(5);
    expect(vi.mocked(renderAnswer).mock.calls.length).toBe(before);
    expect(langCookies(answer.response)).toEqual([]);
    expect(answer.response.headers.get('vary')).toBeNull();
    expect(room.seen.at(-1)).toMatchObject({ url: 'http://shop.example/?wr_lang=de-DE', cookie: 'wr_lang=ja-JP' });
  });
});
