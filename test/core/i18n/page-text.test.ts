import { describe, expect, it } from 'vitest';
import { LOCALES, localeByTag } from '../../../src/core/i18n/locales.js';
import { enUS } from '../../../src/core/i18n/catalogs/en-US.js';
import {
  formatDuration,
  formatDurationRange,
  formatPeople,
  formatUtc,
  waitSummary,
  warmPageText,
} from '../../../src/core/i18n/page-text.js';
import { Strings } from '../../../src/core/i18n/strings.js';
import { fakeLocale } from './fake-locale.js';

const en = new Strings(localeByTag('en-US')!);

const fake = new Strings(fakeLocale);

describe('formatDuration in English', () => {
  it.each([
    [0, 'less than a minute'],
    [59, 'less than a minute'],
    [60, 'about a minute'],
    [89, 'about a minute'],
    [90, 'about 2 minutes'],
    [250, 'about 4 minutes'],
    [3569, 'about 59 minutes'],
    [3600, 'about an hour'],
    [5400, 'about 1.5 hours'],
    [7300, 'about 2 hours'],
  ])('%d s reads "%s"', (seconds, text) => {
    expect(formatDuration(en, seconds)).toBe(text);
  });

  it('never prints NaN or a negative wait', () => {
    expect(formatDuration(en, Number.NaN)).toBe('an unknown time');
    expect(formatDuration(en, -5)).toBe('an unknown time');
    expect(formatDuration(en, Number.POSITIVE_INFINITY)).toBe('an unknown time');
  });

  it('shares the unit across a range when it can', () => {
    expect(formatDurationRange(en, 130, 610)).toBe('about 2 to 10 minutes');
    expect(formatDurationRange(en, 10, 200)).toBe('less than a minute to about 3 minutes');
    expect(formatDurationRange(en, 300, 300)).toBe('about 5 minutes');
    expect(formatDurationRange(en, 1800, 9000)).toBe('about 30 minutes to about 2.5 hours');
    expect(formatDurationRange(en, 60, 300)).toBe('about a minute to about 5 minutes');
    expect(formatDurationRange(en, 5400, 9000)).toBe('about 1.5 to 2.5 hours');
  });
});

describe('people and dates in English', () => {
  it('counts people as people say it', () => {
    expect([0, 1, 7, 43, 457, 1234, 12_345].map((n) => formatPeople(en, n))).toEqual([
      'nobody',
      '1 person',
      '7 people',
      'about 45 people',
      'about 460 people',
      'about 1,200 people',
      'about 12,300 people',
    ]);
    expect(formatPeople(en, null)).toBeNull();
    expect(formatPeople(en, -1)).toBeNull();
  });

  it('writes a start in UTC, saying so', () => {
    expect(formatUtc(en, '2026-12-01T10:00:00.000Z')).toBe('Tuesday 1 December 2026, 10:00 UTC');
    expect(formatUtc(en, '2026-03-07T09:05:00Z')).toBe('Saturday 7 March 2026, 09:05 UTC');
    expect(formatUtc(en, 'not a date')).toBeNull();
    expect(formatUtc(en, null)).toBeNull();
  });

  it('sums the wait up as one phrase, one sentence when the figures coincide, or says it is pending', () => {
    expect(waitSummary(en, { p25: 130, p50: 250, p75: 610 }, false)).toBe('about 2 to 10 minutes');
    expect(waitSummary(en, { p25: 5, p50: 20, p75: 41 }, false)).toBe('Most visitors get in within a minute');
    expect(waitSummary(en, { p25: 170, p50: 185, p75: 200 }, false)).toBe(
      'Most visitors get in within about 3 minutes',
    );
    expect(waitSummary(en, null, true)).toBe('We are still working it out. This page shows it as soon as it is known.');
    expect(waitSummary(en, null, false)).toBeNull();
  });
});

describe('in another language', () => {
  it("picks each of the language's plural forms, with its digits", () => {
    expect(formatDuration(fake, 60)).toBe('ok. ١ minuta');
    expect(formatDuration(fake, 180)).toBe('ok. ٣ minuty');
    expect(formatDuration(fake, 300)).toBe('ok. ٥ minut');
    expect(formatDuration(fake, 22 * 60)).toBe('ok. ٢٢ minuty');
    expect(formatDuration(fake, 5400)).toBe('ok. ١٫٥ godziny*');
  });

  it('writes ranges and counts in its own words and numbers', () => {
    expect(formatDurationRange(fake, 130, 610)).toBe('ok. ٢–١٠ minut');
    expect(formatDurationRange(fake, 10, 200)).toBe('od less than a minute do ok. ٣ minuty');
    expect(formatPeople(fake, 2)).toBe('٢ osoby');
    expect(formatPeople(fake, 1234)).toBe('ok. ١٢٠٠ osób');
    expect(formatPeople(fake, 12_345)).toBe('ok. ١٢٬٣٠٠ osób');
  });

  it('writes the date with its names and digits', () => {
    expect(formatUtc(fake, '2026-12-01T10:05:00.000Z')).toBe('wt, ١ gru ٢٠٢٦ ١٠:٠٥ UTC');
  });
});

describe('warmPageText', () => {
  it('formats every message of the default language only, for the build-time snapshot', () => {
    expect(warmPageText()).toBe(Object.keys(enUS).length);
  });
});
