import { describe, expect, it } from 'vitest';
import { localeByTag } from '../../../src/core/i18n/locales.js';
import { checkOverrides, overridesKey } from '../../../src/core/i18n/overrides.js';
import { Strings } from '../../../src/core/i18n/strings.js';

const english = localeByTag('en-US')!;

describe('checkOverrides', () => {
  it('keeps good messages, which then replace the built-in ones', () => {
    const { messages, problems } = checkOverrides(
      'en-US',
      JSON.stringify({
        waitingTitleStart: 'Hold tight',
        hammerBody: '{seconds, plural, one {Wait # second.} other {Wait # seconds.}}',
        clientNextCheck: 'Again in {time}',
      }),
    );
    expect(problems).toEqual([]);
    const strings = new Strings(english, [messages]);
    expect(strings.text('waitingTitleStart')).toBe('Hold tight');
    expect(strings.text('hammerBody', { seconds: 1200 })).toBe('Wait 1,200 seconds.');
    expect(strings.source('clientNextCheck')).toBe('Again in {time}');
    expect(strings.text('denyTitle')).toBe('Closed for now');
  });

  it('leaves out each bad entry alone, naming its key and why', () => {
    const { messages, problems } = checkOverrides(
      'en-US',
      JSON.stringify({
        denyTitle: 'Closed',
        nope: 'x',
        denyBody: 42,
        tryLater: 'broken {x',
        durationMinutes: '{minutes, plural, one {# minute}}',
        hammerBody: '{seconds, plural, one {#} few {#} other {#}}',
        turnIn: 'Your turn in {minutes}.',
        clientNotYet: '{time, select, other {later}}',
        clientStartsIn: 'Starts in {time, plural, one {#} other {#}}',
      }),
    );
    expect(Object.keys(messages)).toEqual(['denyTitle']);
    const why = Object.fromEntries(problems.map((p) => [p.key, p.message]));
    expect(Object.keys(why).sort()).toEqual([
      'clientNotYet',
      'clientStartsIn',
      'denyBody',
      'durationMinutes',
      'hammerBody',
      'nope',
      'tryLater',
      'turnIn',
    ]);
    expect(why.nope).toMatch(/not a message key/);
    expect(why.denyBody).toMatch(/must be a string/);
    expect(why.tryLater).toMatch(/not a usable message/);
    expect(why.hammerBody).toMatch(/few/);
    expect(why.turnIn).toMatch(/\{minutes\}.*\{duration\}/);
    expect(why.durationMinutes).toMatch(/no other case/);
    expect(why.clientNotYet).toMatch(/plain \{name\}/);
  });

  it('ignores a value that is not a JSON object whole', () => {
    for (const raw of ['not json', '[1]', '"x"', 'null']) {
      const { messages, problems } = checkOverrides('en-US', raw);
      expect(messages).toEqual({});
      expect(problems).toHaveLength(1);
      expect(problems[0]!.key).toBe('');
    }
  });

  it('refuses a language that is not built in', () => {
    expect(checkOverrides('xx-YY', '{}').problems[0]!.message).toMatch(/not a built-in language/);
  });

  it('names the store keys', () => {
    expect(overridesKey('ja-JP', null)).toBe('strings.ja-JP');
    expect(overridesKey('ja-JP', 'shop')).toBe('shop.strings.ja-JP');
  });
});

describe('list messages', () => {
  it('takes weekdays and months only with seven and twelve names', () => {
    const checked = checkOverrides(
      'en-US',
      JSON.stringify({ weekdays: 'Sun|Mon|Tue|Wed|Thu|Fri|Sat', months: 'Jan|Feb' }),
    );
    expect(Object.keys(checked.messages)).toEqual(['weekdays']);
    expect(checked.problems).toEqual([{ key: 'months', message: 'must list 12 names separated by |; ignoring it' }]);
  });
});
