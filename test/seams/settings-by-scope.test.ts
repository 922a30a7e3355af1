// Every setting through every place a room reads it (docs/configuration.md: `settings`, `room.ID`,
// `room.ID.allow_percentage`, `room.ID.live`), each with a good, an empty, a blank and a bad value:
// the edge (the room's parsed settings), `npm run tune`'s judgement (planTune, which accepts or refuses
// a write, and warns of a stored value the room will not use) and the settings table of
// docs/configuration.md must give the same answer. The cases come from settingsTable, the one list of
// settings, so a setting missing from the docs, from tune or from the examples fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  parseConfig,
  parseRoomConfig,
  settingsTable,
  TAKEN_IN_PART,
  DEFAULT_ROOM,
  declared,
  LIVE_SETTINGS,
  liveKey,
  mergeRoomSettings,
  percentageKey,
  type Place,
  problemPlace,
  readRoomRaws,
  roomKey,
  SETTINGS_KEY,
  type SettingName,
  storeKeyOf,
  valueAt,
} from '../../src/core/settings/index.js';
import { applyWrites, type StoreData } from '../../lib/json-store.js';
import { repoRoot } from '../../lib/paths.js';
import { settingSources } from '../../lib/room-store.js';
import { parseAssignments } from '../../scripts/tune.js';
import { planTune } from '../../scripts/tune-plan.js';
import { examplesOfEverySetting, writtenName } from '../support/setting-examples.js';

/** Without a routing the store has one room, `default`, which tune's --room accepts. */
const ROOM = DEFAULT_ROOM;
const PLACES = [SETTINGS_KEY, roomKey(ROOM), percentageKey(ROOM), liveKey(ROOM)] as const;
type Verdict = 'used' | 'unset' | 'refused';
type Kind = 'good' | 'empty' | 'blank' | 'bad';

/** The store key of each place a setting may be declared in (src/core/settings/declared.ts). */
const PLACE_KEYS: Record<Place, string> = {
  settings: SETTINGS_KEY,
  room: roomKey(ROOM),
  percentage: percentageKey(ROOM),
  live: liveKey(ROOM),
};

/**
 * Where a setting can be written, as declared: the plain item holds allow_percentage alone, `live`
 * the controller's settings alone. The rows of every table below come from the declarations, so a
 * setting declared with a new place is walked there too.
 */
function placesOf(setting: string): string[] {
  const declaredPlaces = declared[setting as SettingName].places as readonly Place[];
  return PLACES.filter((p) => declaredPlaces.some((place) => PLACE_KEYS[place] === p));
}

/** A store holding `value` of `name` at `place` alone. */
function storeWith(name: string, place: string, value: string): StoreData {
  return { [place]: place === percentageKey(ROOM) ? value : JSON.stringify({ [name]: value }) };
}

function roomConfig(store: StoreData): ReturnType<typeof parseRoomConfig> {
  return parseRoomConfig(
    ROOM,
    readRoomRaws((key) => (Object.hasOwn(store, key) ? store[key]! : null), ROOM),
  );
}

/** The edge: a problem named at the place is a refusal; else the value is used when the room reads the setting from there. */
function edgeVerdict(name: string, place: string, store: StoreData): Verdict {
  const { problems } = roomConfig(store);
  // A problem without a value ("is missing") is about the setting, not a value written there.
  if (problems.some((p) => problemPlace(p) === valueAt(place, name) && p.value !== '')) return 'refused';
  const merged = mergeRoomSettings(
    ROOM,
    readRoomRaws((key) => store[key] ?? null, ROOM),
    [],
  );
  return merged.from[name] === place ? 'used' : 'unset';
}

/**
 * tune: where it writes the setting itself (`npm run tune -- [--room ID] NAME=VALUE`), whether it
 * refuses the write, else where the room reads the setting from after it; where it does not (a room's
 * allow_percentage inside room.ID), whether it warns of the stored value.
 */
function tuneVerdict(name: string, place: string, value: string): Verdict {
  const room = place === SETTINGS_KEY ? null : ROOM;
  let next: StoreData;
  if (storeKeyOf(name, room) === place) {
    const updates = parseAssignments([`${name}=${value}`]);
    const plan = planTune({}, { room, updates });
    if (plan.errors.length > 0) return 'refused';
    next = plan.next;
  } else {
    next = storeWith(name, place, value);
    const { warnings } = planTune(next, { room: ROOM, updates: new Map() });
    if (warnings.some((w) => w.includes(`setting "${name}"`) && w.includes(` in ${place} `))) return 'refused';
  }
  // Where `npm run tune` shows the room reading the setting from.
  return settingSources(next, ROOM)[name] === place ? 'used' : 'unset';
}

/** The settings table of docs/configuration.md: setting -> its default cell ('' for "(none)"). */
function docsDefaults(): Map<string, string> {
  const lines = readFileSync(join(repoRoot, 'docs', 'configuration.md'), 'utf8').split('\n');
  const start = lines.findIndex((l) => /^\|\s*key\s*\|\s*default\s*\|/.test(l));
  const rows = new Map<string, string>();
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const [, key, def] = line.split('|').map((c) => c.trim().replace(/`/g, ''));
    rows.set(key!, def === '(none)' ? '' : def!);
  }
  return rows;
}
const docs = docsDefaults();
const docsText = readFileSync(join(repoRoot, 'docs', 'configuration.md'), 'utf8').replace(/\s+/g, ' ');

const examples = examplesOfEverySetting();
const valueOf = (e: (typeof examples)[number], kind: Kind): string | null =>
  ({ good: e.good, empty: '', blank: '  ', bad: e.bad })[kind];
/** What every place must answer for each kind of value (a setting that takes any text has no bad value). */
const expected: Record<Kind, Verdict> = { good: 'used', empty: 'unset', blank: 'unset', bad: 'refused' };

const cases = examples.flatMap((e) =>
  placesOf(e.setting).flatMap((place) =>
    (['good', 'empty', 'blank', 'bad'] as const).flatMap((kind) => {
      const value = valueOf(e, kind);
      return value === null ? [] : [{ setting: e.setting, name: writtenName(e.setting), place, kind, value }];
    }),
  ),
);

describe('every setting is in every list', () => {
  it('the places each setting is declared in are those the layout and tune write it to', () => {
    const live = settingsTable.filter((s) => s.places.includes('live')).map((s) => s.key);
    expect([...LIVE_SETTINGS].sort()).toEqual(live.sort());
    expect(settingsTable.filter((s) => s.places.includes('percentage')).map((s) => s.key)).toEqual([
      'allow_percentage',
    ]);
    for (const s of settingsTable) {
      // The status's copy of a room's settings lives only where the status reads it (docs/status.md).
      if (s.key === 'status_basis') expect(s.places).toEqual(['live']);
      else {
        expect(s.places, s.key).toContain('settings');
        expect(s.places, s.key).toContain('room');
      }
      for (const place of placesOf(s.key).filter((p) => p !== SETTINGS_KEY))
        expect([roomKey(ROOM), storeKeyOf(s.key, ROOM)], `${s.key} at ${place}`).toContain(place);
    }
  });

  it('the edge reads, tune accepts and the docs table lists exactly the settings of settingsTable', () => {
    const read = new Set<string>();
    parseConfig((key) => (read.add(key.startsWith('message.') ? 'message.TAG' : key), null));
    const keys = settingsTable.map((s) => s.key).sort();
    expect([...read].sort()).toEqual(keys);
    expect([...docs.keys()].sort()).toEqual(keys);
    for (const s of settingsTable) expect(() => parseAssignments([`${writtenName(s.key)}=x`]), s.key).not.toThrow();
  });

  it('the docs say an empty value is unset at every place, and a value the room cannot use is passed over and refused by tune', () => {
    expect(docsText).toMatch(/an empty or blank value counts as unset, at every one of these places/);
    expect(docsText).toMatch(
      /a value the room cannot use .* is reported .* and passed over for the same setting in a less specific place, else replaced by its default .*`npm run tune` refuses such values/,
    );
  });
});

describe.each(examples.map((e) => [e.setting, e] as const))('%s', (setting, e) => {
  it('has the same default at the edge, in tune and in the docs', () => {
    const documented = docs.get(setting);
    expect(documented, 'docs/configuration.md lists it').toBeDefined();
    expect(documented).toBe(settingsTable.find((s) => s.key === setting)!.default);
    for (const place of placesOf(setting)) {
      // Writing the documented default changes nothing the room does, and tune never refuses it.
      expect(roomConfig(storeWith(writtenName(setting), place, documented!)).config, place).toEqual(
        roomConfig({}).config,
      );
      expect(tuneVerdict(writtenName(setting), place, documented!), place).not.toBe('refused');
    }
  });

  it.each(cases.filter((c) => c.setting === setting).map((c) => [c.place, c.kind, c.value] as const))(
    'at %s, a %s value (%j): the edge and tune agree with the docs',
    (place, kind, value) => {
      const name = writtenName(setting);
      const edge = edgeVerdict(name, place, storeWith(name, place, value));
      const tune = tuneVerdict(name, place, value);
      // The controller's values are published per room, and so does tune: a service-wide one is refused
      // with the `--room ID` commands (docs/configuration.md), though the edge uses one written by hand.
      const byRoom = place === SETTINGS_KEY && kind === 'good' && LIVE_SETTINGS.includes(setting);
      expect({ edge, tune }).toEqual({ edge: expected[kind], tune: byRoom ? 'refused' : expected[kind] });
    },
  );

  it('falls through an empty or blank value to the same setting in a less specific place, at the edge and through tune', () => {
    const name = writtenName(setting);
    const [under, ...over] = placesOf(setting);
    const below = storeWith(name, under!, e.good);
    for (const place of over) {
      for (const value of ['', '  ']) {
        const expected = roomConfig(below).config;
        expect(roomConfig({ ...below, ...storeWith(name, place, value) }).config, place).toEqual(expected);
        if (storeKeyOf(name, ROOM) !== place) continue;
        const plan = planTune(below, { room: ROOM, updates: parseAssignments([`${name}=${value}`]) });
        expect(plan.errors, place).toEqual([]);
        expect(roomConfig(applyWrites(below, plan.writes)).config, place).toEqual(expected);
      }
    }
  });

  if (e.bad !== null)
    it('passes over a bad value for the same setting in a less specific place, and says so where it is written', () => {
      const name = writtenName(setting);
      const [under, ...over] = placesOf(setting);
      const below = storeWith(name, under!, e.good);
      for (const place of over) {
        const { config, problems } = roomConfig({ ...below, ...storeWith(name, place, e.bad!) });
        expect(problems.map(problemPlace), place).toContain(valueAt(place, name));
        // A list or a clamped value is read in part (docs/configuration.md); a whole value falls through.
        if (!TAKEN_IN_PART.has(setting) && setting !== 'message.TAG')
          expect(config, place).toEqual(roomConfig(below).config);
      }
    });
});
