import { describe, expect, it } from 'vitest';
import {
  parseConfig,
  parseRoomConfig,
  settingName,
  problemMessage,
  problemPlace,
  shownProblem,
} from '../../../src/core/settings/index.js';

const { LOCALE_TAGS } = await import('../../../src/core/i18n/locales.js');

const parse = (settings: Record<string, string>) =>
  parseConfig((key) => ({ allow_percentage: '50', ...settings })[key] ?? null);
const tags = (settings: Record<string, string>) => parse(settings).config.languages.map((l) => l.info.tag);

describe('languages', () => {
  it('offers every built-in language by default, and en-US to a visitor who asks for none', () => {
    const { config, problems } = parse({ allow_percentage: '50' });
    expect(config.languages.map((l) => l.info.tag)).toEqual(LOCALE_TAGS);
    expect(config.defaultLanguage).toBe('en-US');
    expect(config.messages).toEqual({});
    expect(problems).toEqual([]);
  });

  it('offers the languages named, in their order, whatever their case', () => {
    expect(tags({ languages: 'ja-jp, en-US ,DE-DE' })).toEqual(['ja-JP', 'en-US', 'de-DE']);
  });

  it('skips and names each unknown tag, and offers all when none is left', () => {
    const some = parse({ languages: 'de-DE,xx-YY,en-US,sv' });
    expect(some.config.languages.map((l) => l.info.tag)).toEqual(['de-DE', 'en-US']);
    expect(some.problems.map((p) => [p.key, p.value])).toEqual([
      ['languages', 'xx-YY'],
      ['languages', 'sv'],
    ]);
    const none = parse({ languages: 'xx, yy' });
    expect(none.config.languages.map((l) => l.info.tag)).toEqual(LOCALE_TAGS);
    expect(none.problems.map(shownProblem).at(-1)).toMatchObject({
      key: 'languages',
      message: expect.stringMatching(/offering all/),
    });
  });
});

describe('default_language', () => {
  it('must be one the room offers, else the first offered, reported', () => {
    expect(parse({ languages: 'en-US,ja-JP', default_language: 'ja-jp' }).config.defaultLanguage).toBe('ja-JP');
    const bad = parse({ languages: 'de-DE,ja-JP', default_language: 'en-US' });
    expect(bad.config.defaultLanguage).toBe('de-DE');
    expect(bad.problems.map(shownProblem)).toEqual([
      { key: 'default_language', value: 'en-US', message: expect.stringMatching(/de-DE, ja-JP.*using de-DE/) },
    ]);
  });

  it('stands back silently for a room that offers no en-US and sets none', () => {
    const r = parse({ languages: 'ja-JP,de-DE' });
    expect(r.config.defaultLanguage).toBe('ja-JP');
    expect(r.problems).toEqual([]);
  });
});

describe('message.TAG', () => {
  it('holds the message of each language, at most 500 characters, named by its key', () => {
    const r = parse({ 'message.ja-JP': ' ただいま混雑 ', 'message.de-DE': 'x'.repeat(600) });
    expect(r.config.messages).toEqual({ 'ja-JP': 'ただいま混雑', 'de-DE': 'x'.repeat(500) });
    expect(r.problems.map((p) => p.key)).toEqual(['message.de-DE']);
  });

  it('is a setting of a store value only for a built-in language, under its canonical name', () => {
    expect(settingName('message.ja-jp')).toBe('message.ja-JP');
    expect(settingName('message.xx-YY')).toBeNull();
    expect(settingName('message.TAG')).toBeNull();
    const { config, problems } = parseRoomConfig('default', {
      settings: JSON.stringify({ allow_percentage: '50', 'message.de-de': 'Hallo', 'message.xx': 'no' }),
      room: JSON.stringify({ languages: 'de-DE,zz' }),
      percentage: null,
      live: null,
    });
    expect(config.messages).toEqual({ 'de-DE': 'Hallo' });
    expect(problems.map(problemPlace)).toEqual(['settings: message.xx', 'room.default: languages']);
    expect(problemMessage(problems[0]!)).toMatch(/built-in language/);
  });

  it('a room that sets its own message hides the service-wide message.TAG: no language gets the older notice', () => {
    const room = (own: Record<string, string>) =>
      parseRoomConfig('shop', {
        settings: JSON.stringify({ message: 'Sale on', 'message.ja-JP': 'セール開始', 'message.de-DE': 'Sale läuft' }),
        room: JSON.stringify(own),
        percentage: null,
        live: null,
      }).config;
    const own = room({ message: 'Shop closes at 17:00 today', 'message.de-DE': 'Schließt heute um 17 Uhr' });
    expect(own.message).toBe('Shop closes at 17:00 today');
    expect(own.messages).toEqual({ 'de-DE': 'Schließt heute um 17 Uhr' });
    // A room that sets no message of its own keeps the service's, in every language.
    expect(room({}).messages).toEqual({ 'ja-JP': 'セール開始', 'de-DE': 'Sale läuft' });
  });
});
