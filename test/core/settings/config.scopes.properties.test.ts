// A room's settings across the four places a request reads (layout.ts): the service-wide `settings`,
// the room's `room.ID`, its `room.ID.allow_percentage` and the controller's `room.ID.live`. For every
// setting at every place: an empty or blank value is no value (the less specific place's applies), a
// usable value wins over those under it, and a value the room cannot use is reported where it is
// written and counts as unset there too. fast-check prints the seed and path of a failure.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parseRoomConfig,
  TAKEN_IN_PART,
  LIVE_SETTINGS,
  liveKey,
  percentageKey,
  roomKey,
  SETTINGS_KEY,
  valueAt,
  type RoomRaws,
  problemPlace,
} from '../../../src/core/settings/index.js';
import type { ParsedSettings } from '../../../src/core/types.js';
import { examplesOfEverySetting, writtenName } from '../../support/setting-examples.js';

const ROOM = 'shop';
type Place = 'settings' | 'room' | 'percentage' | 'live';
/** Least specific first. */
const PLACES: readonly Place[] = ['settings', 'room', 'percentage', 'live'];
const storeKey: Record<Place, string> = {
  settings: SETTINGS_KEY,
  room: roomKey(ROOM),
  percentage: percentageKey(ROOM),
  live: liveKey(ROOM),
};

/** Where a setting can be written: the plain item holds allow_percentage alone, `live` the controller's settings alone. */
function placesOf(setting: string): Place[] {
  return PLACES.filter((p) =>
    p === 'percentage' ? setting === 'allow_percentage' : p === 'live' ? LIVE_SETTINGS.includes(setting) : true,
  );
}

function parse(name: string, values: Partial<Record<Place, string>>): ParsedSettings {
  const object = (place: Place): string | null =>
    values[place] === undefined ? null : JSON.stringify({ [name]: values[place] });
  const raws: RoomRaws = {
    settings: object('settings'),
    room: object('room'),
    percentage: values.percentage ?? null,
    live: object('live'),
  };
  return parseRoomConfig(ROOM, raws);
}

const named = (parsed: ParsedSettings, place: Place, name: string) =>
  parsed.problems.filter((p) => problemPlace(p) === valueAt(storeKey[place], name));

const cases = examplesOfEverySetting().flatMap((e) => {
  const places = placesOf(e.setting);
  return places.map((place, i) => ({
    ...e,
    name: writtenName(e.setting),
    place,
    under: i === 0 ? null : places[i - 1]!,
  }));
});
const blank = fc.constantFrom('', ' ', '  ', '\t', ' \n ');

describe('a setting at each place the room reads', () => {
  it('has a case for every setting at every place it can be written', () => {
    expect(cases.filter((c) => c.setting === 'allow_percentage').map((c) => c.place)).toEqual([
      'settings',
      'room',
      'percentage',
    ]);
    expect(cases.filter((c) => c.setting === 'allow_schedule').map((c) => c.place)).toEqual([
      'settings',
      'room',
      'live',
    ]);
  });

  it('reads an empty or blank value as no value: the place under it applies, and nothing more is reported', () => {
    fc.assert(
      fc.property(fc.constantFrom(...cases), blank, (c, empty) => {
        const below = c.under === null ? {} : { [c.under]: c.good };
        const parsed = parse(c.name, { ...below, [c.place]: empty });
        const without = parse(c.name, below);
        expect(parsed.config).toEqual(without.config);
        expect(parsed.problems).toEqual(without.problems);
      }),
      { numRuns: 600 },
    );
  });

  it('uses the most specific usable value, and reports an unusable one where it is written, counting it as unset there', () => {
    const value = (c: (typeof cases)[number]) =>
      fc.oneof(fc.constant(c.good), fc.constant(c.bad ?? c.good), fc.string({ maxLength: 12 }));
    fc.assert(
      fc.property(
        fc.constantFrom(...cases).chain((c) => fc.tuple(fc.constant(c), value(c))),
        ([c, written]) => {
          fc.pre(written.trim() !== '');
          const below = c.under === null ? {} : { [c.under]: c.good };
          const alone = parse(c.name, { [c.place]: written });
          const parsed = parse(c.name, { ...below, [c.place]: written });
          const refused = named(alone, c.place, c.name).length > 0;
          if (!refused) {
            expect(parsed.config).toEqual(alone.config);
            return;
          }
          expect(named(parsed, c.place, c.name).length).toBeGreaterThan(0);
          // A whole value refused: the place under it decides, as if nothing were written here.
          if (!TAKEN_IN_PART.has(c.setting) && c.setting !== 'message.TAG')
            expect(parsed.config).toEqual(parse(c.name, below).config);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('never opens a room that a less specific place holds back, whatever its own allow_percentage says', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Place>('room', 'percentage'),
        fc.oneof(blank, fc.string({ maxLength: 8 }), fc.constantFrom('5%', '-1', '101', '1e2', 'NaN', '0,5')),
        (place, written) => {
          const { config, problems } = parse('allow_percentage', { settings: '1', [place]: written });
          const n = Number(written.trim());
          const usable = /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(written.trim()) && n >= 0 && n <= 100;
          expect(config.allowPercentage).toBe(usable ? n : 1);
          if (!usable && written.trim() !== '')
            expect(problems.map(problemPlace)).toContain(valueAt(storeKey[place], 'allow_percentage'));
        },
      ),
      { numRuns: 1000 },
    );
  });
});
