// What comes from the settings' declarations stays as they say (scripts/docs-settings.ts): the
// settings table of docs/configuration.md and the JSON Schemas of docs/schema/; and the repository's
// own example config and the docs' examples pass those schemas.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../lib/paths.js';
import { CONDITION_SCHEMAS } from '../../lib/routing-schema.js';
import { SCHEMA_DIR } from '../../lib/setting-schema.js';
import { CONFIGURATION_MD, configurationWithTable, schemaFiles } from '../../scripts/docs-settings.js';
import { CONDITION_KEYS } from '../../src/core/routing/rule-parse.js';
import { parseConfig, settingName, SETTING_NAMES } from '../../src/core/settings/index.js';
import { validate } from '../support/json-schema.js';
import { settingExamples, writtenName } from '../support/setting-examples.js';

const read = (path: string): string => readFileSync(join(repoRoot, path), 'utf8');
const schema = (file: string): Record<string, unknown> => JSON.parse(read(`${SCHEMA_DIR}/${file}`));
const settings = schema('settings.schema.json');
const room = schema('room.schema.json');
const live = schema('room-live.schema.json');
const routing = schema('routing.schema.json');

describe('the files made from the declarations', () => {
  it('docs/configuration.md has the settings table the declarations give (npm run docs:settings writes it)', () => {
    const text = read(CONFIGURATION_MD);
    expect(configurationWithTable(text)).toBe(text);
  });

  it('docs/schema/ holds exactly the schemas the declarations give (npm run docs:settings writes them)', () => {
    const files = schemaFiles();
    expect(readdirSync(join(repoRoot, SCHEMA_DIR)).sort()).toEqual(Object.keys(files).sort());
    for (const [file, text] of Object.entries(files)) expect(read(`${SCHEMA_DIR}/${file}`), file).toBe(text);
  });

  it("the routing schema takes exactly the edge's conditions", () => {
    expect(Object.keys(CONDITION_SCHEMAS).sort()).toEqual([...CONDITION_KEYS].sort());
  });
});

describe('the schemas against the examples', () => {
  it('pass local/config.example.json, each value against the schema of its place', () => {
    const store = JSON.parse(read('local/config.example.json')) as Record<string, string>;
    let checked = 0;
    for (const [key, value] of Object.entries(store)) {
      const s =
        key === 'routing'
          ? routing
          : key === 'settings'
            ? settings
            : /^room\.[^.]+\.live$/.test(key)
              ? live
              : /^room\.[^.]+$/.test(key)
                ? room
                : null;
      if (s === null) continue;
      expect(validate(s, JSON.parse(value)), key).toEqual([]);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(3);
  });

  it("pass the docs' routing values", () => {
    const blocks = ['docs/routing.md', 'docs/configuration.md'].flatMap((path) =>
      [...read(path).matchAll(/```json\n([\s\S]*?)```/g)].map((m) => ({ path, value: JSON.parse(m[1]!) as unknown })),
    );
    const values = blocks.filter((b) => typeof b.value === 'object' && b.value !== null && 'rooms' in b.value);
    expect(values.length).toBeGreaterThanOrEqual(2);
    for (const { path, value } of values) expect(validate(routing, value), path).toEqual([]);
  });

  it("pass every value of the docs' npm run tune examples that the edge takes", () => {
    const docs = readdirSync(join(repoRoot, 'docs')).filter((f) => f.endsWith('.md'));
    let checked = 0;
    for (const file of docs) {
      for (const m of read(`docs/${file}`).matchAll(
        /npm run tune -- (?:--room [a-z0-9_-]+ )?((?:[a-z_.A-Z-]+=[^\s`'"]+ ?)+)/g,
      )) {
        for (const pair of m[1]!.trim().split(' ')) {
          const at = pair.indexOf('=');
          const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
          if (settingName(name) === null) continue;
          if (parseConfig((k) => (k === name ? value : null)).problems.length > 0) continue;
          expect(validate(settings, { [name]: value }), `${file}: ${pair}`).toEqual([]);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(4);
  });

  it('pass a usable value of every setting, at each place it may be written, and an empty one', () => {
    for (const name of SETTING_NAMES) {
      const written = writtenName(name);
      for (const value of [settingExamples[name]!.good, '', '  ']) {
        // The status basis is written only beside the controller's values (docs/status.md).
        const places = name === 'status_basis' ? [live] : [settings, room];
        for (const place of places) expect(validate(place, { [written]: value }), `${written}=${value}`).toEqual([]);
      }
    }
    expect(validate(live, { allow_schedule: '1800000000=20', queue_cursor: '1800000000:10:2' })).toEqual([]);
    expect(validate(settings, { status_basis: settingExamples.status_basis!.good })).not.toEqual([]);
  });

  it('refuse what the edge ignores: an unknown name, a message of no built-in language, a value of the wrong form', () => {
    expect(validate(settings, { alow_percentage: '5' })).not.toEqual([]);
    expect(validate(settings, { 'message.xx': 'hi' })).not.toEqual([]);
    expect(validate(settings, { 'message.ja-jp': 'hi' })).toEqual([]);
    for (const [name, bad] of [
      ['enabled', 'maybe'],
      ['waiting_status', '404'],
      ['allow_period_duration', '1.5'],
      ['identity', 'cookie'],
      ['event_start', 'tomorrow'],
      ['queueing_method', 'lifo'],
    ] as const)
      expect(validate(settings, { [name]: bad }), name).not.toEqual([]);
    expect(validate(live, { message: 'hi' })).not.toEqual([]);
    expect(validate(routing, { rooms: [], rules: [{ id: 'r1', if: { colour: 'red' }, then: 'bypass' }] })).not.toEqual(
      [],
    );
    expect(validate(routing, { rooms: [], rules: [{ id: 'r1', if: {}, then: 'bypass' }] })).not.toEqual([]);
  });
});
