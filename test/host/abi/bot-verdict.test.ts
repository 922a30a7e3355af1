// The bot verdict the host hands an app, read as Viceroy reads it from the X-Fastly-Bot-* headers
// the client sent (Viceroy's src/wiggle_abi/http_downstream.rs); null stands for the NONE status.
import { describe, expect, it } from 'vitest';
import { botAnswers, type BotAnswers } from '../../../host/src/abi/bot-verdict.js';

const NOT_ANALYSED: BotAnswers = {
  analyzed: 0,
  detected: 0,
  verified: null,
  name: null,
  category: null,
  categoryKind: null,
};

const category = (value: string) => botAnswers([['x-fastly-bot-category', value]]);

describe('a request without bot headers', () => {
  it('is not analysed, not detected, and has no verification, name or category', () => {
    expect(botAnswers([])).toEqual(NOT_ANALYSED);
    expect(
      botAnswers([
        ['user-agent', 'curl/8'],
        ['x-fastly-bot', 'true'],
      ]),
    ).toEqual(NOT_ANALYSED);
  });
});

describe('a request that says it is a bot', () => {
  it('gets every answer from its headers', () => {
    expect(
      botAnswers([
        ['x-fastly-bot-analyzed', 'true'],
        ['x-fastly-bot-detected', 'true'],
        ['x-fastly-bot-name', 'BadBot'],
        ['x-fastly-bot-category', 'AI-Crawler'],
        ['x-fastly-bot-verified', 'true'],
      ]),
    ).toEqual({ analyzed: 1, detected: 1, verified: 1, name: 'BadBot', category: 'AI-Crawler', categoryKind: 3 });
  });
});

describe('the yes/no answers', () => {
  it.each(['false', 'True', 'TRUE', '1', 'yes', '', 'true '])('take %j for no: only exactly "true" is yes', (value) => {
    const answers = botAnswers([
      ['x-fastly-bot-analyzed', value],
      ['x-fastly-bot-detected', value],
      ['x-fastly-bot-verified', value],
    ]);
    expect([answers.analyzed, answers.detected, answers.verified]).toEqual([0, 0, 0]);
  });

  it('tell an absent verification (NONE) from a denied one (0), where analyzed and detected are 0 either way', () => {
    expect(botAnswers([['x-fastly-bot-analyzed', 'true']])).toMatchObject({ analyzed: 1, detected: 0, verified: null });
    expect(botAnswers([['x-fastly-bot-verified', 'false']])).toMatchObject({ analyzed: 0, verified: 0 });
  });

  it('are answered independently of each other', () => {
    expect(botAnswers([['x-fastly-bot-detected', 'true']])).toMatchObject({ analyzed: 0, detected: 1, verified: null });
    expect(botAnswers([['x-fastly-bot-verified', 'true']])).toMatchObject({ analyzed: 0, detected: 0, verified: 1 });
  });
});

describe('name and category', () => {
  it('are the header values as sent, case kept', () => {
    expect(botAnswers([['x-fastly-bot-name', 'Googlebot/2.1 (+http://www.google.com/bot.html)']]).name).toBe(
      'Googlebot/2.1 (+http://www.google.com/bot.html)',
    );
    expect(category('Search-Engine-Crawler').category).toBe('Search-Engine-Crawler');
  });

  it('keep an empty value as empty text, not absent', () => {
    expect(botAnswers([['x-fastly-bot-name', '']]).name).toBe('');
    expect(category('')).toMatchObject({ category: '', categoryKind: null });
  });

  it('read as absent when the value is not visible ASCII, as Viceroy fails to read it as text', () => {
    // Header values arrive as Latin-1: "é" in UTF-8 is the two chars \xc3\xa9.
    expect(botAnswers([['x-fastly-bot-name', 'Bot\xc3\xa9']]).name).toBeNull();
    expect(category('research\x7f')).toMatchObject({ category: null, categoryKind: null });
    expect(botAnswers([['x-fastly-bot-name', 'a\tb']]).name).toBe('a\tb');
  });
});

describe('the category kind', () => {
  it.each([
    ['none', 0],
    ['suspected', 1],
    ['accessibility', 2],
    ['ai-crawler', 3],
    ['ai-fetcher', 4],
    ['content-fetcher', 5],
    ['monitoring-site-tools', 6],
    ['online-marketing', 7],
    ['page-preview', 8],
    ['platform-integration', 9],
    ['research', 10],
    ['search-engine-crawler', 11],
    ['search-engine-optimization', 12],
    ['security-tools', 13],
    ['headless', 14],
  ])('of %s is %i, by name in any case or by its number', (name, kind) => {
    expect(category(name).categoryKind).toBe(kind);
    expect(category(name.toUpperCase()).categoryKind).toBe(kind);
    expect(category(String(kind)).categoryKind).toBe(kind);
  });

  it('of any other decimal number is that number, as Rust parses a u32', () => {
    expect(category('15').categoryKind).toBe(15);
    expect(category('007').categoryKind).toBe(7);
    expect(category('+42').categoryKind).toBe(42);
    expect(category('4294967295').categoryKind).toBe(0xffff_ffff);
  });

  it.each(['crawler', 'ai crawler', '-1', '4294967296', '1.5', ' 3', '+', '0x3'])(
    'of %j is NONE (the category text stays)',
    (value) => {
      expect(category(value)).toMatchObject({ category: value, categoryKind: null });
    },
  );

  it('is NONE without a category header', () => {
    expect(botAnswers([['x-fastly-bot-name', 'BadBot']]).categoryKind).toBeNull();
  });
});

describe('a header sent more than once', () => {
  it('answers from its first value', () => {
    const answers = botAnswers([
      ['x-fastly-bot-detected', 'true'],
      ['x-fastly-bot-name', 'First'],
      ['x-fastly-bot-detected', 'false'],
      ['x-fastly-bot-name', 'Second'],
      ['x-fastly-bot-verified', 'false'],
      ['x-fastly-bot-verified', 'true'],
    ]);
    expect(answers).toMatchObject({ detected: 1, name: 'First', verified: 0 });
  });
});
