// JSON Schemas (draft 2020-12) of the JSON values of `waiting_room_config` that operators write: the
// service-wide `settings`, a room's `room.ID` and the controller's `room.ID.live`, each made from the
// settings' declarations (src/core/settings/declared.ts) and their documentation lines; the routing's
// is routing-schema.ts's. An editor or CI checks a value's form with them; `npm run tune` checks the
// rest (a range written as text, a value compared with another) before it writes anything.
import { LOCALE_TAGS } from '../src/core/i18n/index.js';
import {
  declared,
  type Form,
  MESSAGE_PREFIX,
  MESSAGE_TAG_SETTING,
  type Place,
  SETTING_NAMES,
} from '../src/core/settings/index.js';
import { settingDocs } from './setting-docs.js';

export type JsonSchema = { [key: string]: unknown };

/** Where the schemas live in the repository, and the address each names itself by. */
export const SCHEMA_DIR = 'docs/schema';

/** `true` -> `[Tt][Rr][Uu][Ee]`: JSON Schema patterns have no flags, and the room reads these in any case. */
export function anyCase(text: string): string {
  return text.replace(/[A-Za-z]/g, (c) => `[${c.toUpperCase()}${c.toLowerCase()}]`).replace(/\./g, '\\.');
}

/** A text value: blank (unset) or `inner`, with spaces around it. */
const blankOr = (inner: string): string => `^\\s*(${inner})?\\s*$`;

const DECIMAL = '[+]?(\\d+(\\.\\d*)?|\\.\\d+)';
const ISO_TIME = '\\d{4}-\\d{2}-\\d{2}[Tt]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?([Zz]|[+-]\\d{2}:\\d{2})';

/** The JSON a value of `choice` may also be written as: a number or a boolean whose text is one of them. */
function choiceLiterals(values: readonly string[]): unknown[] {
  return values.flatMap((v): unknown[] => {
    if (/^\d+$/.test(v)) return [Number(v)];
    return v === 'true' || v === 'false' ? [v === 'true'] : [];
  });
}

/** The schema of one value of the given form: text as the room reads it, or the JSON number or boolean it takes as text. */
export function formSchema(form: Form): JsonSchema {
  switch (form.type) {
    case 'boolean':
      return { type: ['boolean', 'string'], pattern: blankOr(`${anyCase('true')}|${anyCase('false')}`) };
    case 'choice': {
      const text = { type: 'string', pattern: blankOr(form.values.map(anyCase).join('|')) };
      const literals = choiceLiterals(form.values);
      return literals.length === 0 ? text : { anyOf: [text, { enum: literals }] };
    }
    case 'whole':
      return {
        anyOf: [
          { type: 'string', pattern: blankOr('\\d+') },
          { type: 'integer', minimum: form.min, maximum: form.max },
        ],
      };
    case 'number':
      return {
        anyOf: [
          { type: 'string', pattern: blankOr(DECIMAL) },
          { type: 'number', [form.above ? 'exclusiveMinimum' : 'minimum']: form.min, maximum: form.max },
        ],
      };
    case 'text':
      return form.maxLength === null ? { type: 'string' } : { type: 'string', maxLength: form.maxLength };
    case 'pattern':
      return { type: 'string', pattern: blankOr(form.pattern) };
    case 'list':
      return { type: 'string', pattern: `^(\\s*(${form.entry})?\\s*)(,\\s*(${form.entry})?\\s*)*$` };
    case 'time':
      return { type: 'string', pattern: blankOr(ISO_TIME) };
    case 'json':
      return { type: 'string', contentMediaType: 'application/json' };
  }
}

/** One setting's schema: its form, its default as written, and its documentation line. */
function settingSchema(name: keyof typeof settingDocs): JsonSchema {
  const d = declared[name];
  return {
    description: settingDocs[name],
    ...(d.default === '' ? {} : { default: d.default }),
    ...formSchema(d.form),
  };
}

/** The titles of the values a place holds. */
const TITLES: Record<Exclude<Place, 'percentage'>, { file: string; title: string; description: string }> = {
  settings: {
    file: 'settings.schema.json',
    title: 'waiting_room_config: settings',
    description:
      'The service-wide settings every room starts from: a JSON object, setting -> value (docs/configuration.md#settings). An empty or blank value is no value.',
  },
  room: {
    file: 'room.schema.json',
    title: 'waiting_room_config: room.ID',
    description:
      "One room's own settings, over the service-wide ones: a JSON object, setting -> value (docs/configuration.md#settings). An empty or blank value is no value.",
  },
  live: {
    file: 'room-live.schema.json',
    title: 'waiting_room_config: room.ID.live',
    description:
      'What the controller publishes for one room: a JSON object of the settings it writes often (docs/control/settings.md). Written by the controller, not by hand.',
  },
};

/** The schema of the JSON object a place holds: each setting that may be written there. */
export function placeSchema(place: Exclude<Place, 'percentage'>): JsonSchema {
  const names = SETTING_NAMES.filter((n) => (declared[n].places as readonly Place[]).includes(place));
  const properties: Record<string, JsonSchema> = {};
  const patternProperties: Record<string, JsonSchema> = {};
  for (const name of names) {
    if (name === MESSAGE_TAG_SETTING)
      patternProperties[`^${anyCase(MESSAGE_PREFIX)}(${LOCALE_TAGS.map(anyCase).join('|')})$`] = settingSchema(name);
    else properties[name] = settingSchema(name);
  }
  const { file, title, description } = TITLES[place];
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: file,
    title,
    description,
    type: 'object',
    properties,
    ...(Object.keys(patternProperties).length === 0 ? {} : { patternProperties }),
    additionalProperties: false,
  };
}

/** Every settings schema, by file name. */
export function settingSchemas(): Record<string, JsonSchema> {
  return Object.fromEntries(
    (['settings', 'room', 'live'] as const).map((place) => [TITLES[place].file, placeSchema(place)]),
  );
}
