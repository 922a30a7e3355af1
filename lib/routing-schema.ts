// The JSON Schema (draft 2020-12) of the `routing` value (docs/routing.md): the rooms, their routes,
// the rules and their conditions, with the room and rule ids, device classes and bot categories the
// edge takes (src/core/routing/routing.ts, rule-parse.ts). A test holds its conditions to the parser's.
import { BOT_CATEGORIES, DEVICE_CLASSES, MAX_IP_BLOCKS, RULE_ID } from '../src/core/routing/index.js';
import { ROOM_ID } from '../src/core/settings/index.js';
import type { JsonSchema } from './setting-schema.js';

const stringOrList = (item: JsonSchema, what: string): JsonSchema => ({
  description: `${what}: one, or a list`,
  anyOf: [item, { type: 'array', minItems: 1, items: item }],
});
const nonEmpty: JsonSchema = { type: 'string', minLength: 1 };
const TOKEN = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$";

/** Each condition a rule's `if` takes, by its key: docs/routing.md's table. */
export const CONDITION_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  host: stringOrList(nonEmpty, 'hosts, exact or *.SUFFIX, any case'),
  path: {
    description: 'exactly one of prefix (whole segments), exact or suffix',
    type: 'object',
    properties: {
      prefix: stringOrList(nonEmpty, 'path prefixes'),
      exact: stringOrList({ type: 'string', pattern: '^/' }, 'exact paths'),
      suffix: stringOrList(nonEmpty, 'path suffixes'),
      ignore_case: { type: 'boolean' },
    },
    additionalProperties: false,
    oneOf: [{ required: ['prefix'] }, { required: ['exact'] }, { required: ['suffix'] }],
  },
  method: stringOrList({ type: 'string', pattern: TOKEN }, 'methods, any case'),
  query: {
    type: 'object',
    properties: { name: nonEmpty, equals: { type: 'string' } },
    required: ['name'],
    additionalProperties: false,
  },
  header: {
    type: 'object',
    properties: { name: { type: 'string', pattern: TOKEN }, equals: { type: 'string' }, prefix: { type: 'string' } },
    required: ['name'],
    additionalProperties: false,
    not: { required: ['equals', 'prefix'] },
  },
  cookie: { description: 'a cookie of that name is present', type: 'string', pattern: TOKEN },
  acl: { description: 'a Fastly ACL name', type: 'string', pattern: '^[A-Za-z0-9_.-]{1,255}$' },
  ip: {
    description: 'CIDR blocks (IPv4 or IPv6); a bare address is a block of one',
    type: 'array',
    minItems: 1,
    maxItems: MAX_IP_BLOCKS,
    items: { type: 'string' },
  },
  country: stringOrList({ type: 'string', pattern: '^[A-Za-z]{2}$' }, 'ISO 3166-1 alpha-2 codes'),
  continent: stringOrList(
    { type: 'string', enum: ['AF', 'AN', 'AS', 'EU', 'NA', 'OC', 'SA', 'af', 'an', 'as', 'eu', 'na', 'oc', 'sa'] },
    'continents',
  ),
  asn: { type: 'array', minItems: 1, items: { type: 'integer', minimum: 0, maximum: 4294967295 } },
  device: stringOrList({ type: 'string', enum: [...DEVICE_CLASSES] }, 'device classes'),
  verified_bot: {
    anyOf: [{ const: true }, stringOrList({ type: 'string', enum: [...BOT_CATEGORIES] }, 'bot categories')],
  },
  not: { $ref: '#/$defs/condition' },
  all: { type: 'array', minItems: 1, items: { $ref: '#/$defs/condition' } },
  any: { type: 'array', minItems: 1, items: { $ref: '#/$defs/condition' } },
};

const routeSchema: JsonSchema = {
  anyOf: [
    { type: 'string', minLength: 1, description: 'PATH, HOST/PATH or HOST' },
    {
      type: 'object',
      properties: { host: nonEmpty, path: { type: 'string', pattern: '^/' }, ignore_case: { type: 'boolean' } },
      additionalProperties: false,
      minProperties: 1,
    },
  ],
};

/** The schema of the `routing` value. */
export function routingSchema(): JsonSchema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'routing.schema.json',
    title: 'waiting_room_config: routing',
    description:
      'The rooms, their routes, the rules tried first and the default room (docs/routing.md). `npm run tune -- --routing FILE` checks the rest (a route two rooms claim, a rule naming an unknown room) and writes it.',
    type: 'object',
    properties: {
      rooms: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            id: { type: 'string', pattern: ROOM_ID.source },
            routes: { type: 'array', items: routeSchema },
          },
          required: ['id'],
          additionalProperties: false,
        },
      },
      default_room: { type: ['string', 'null'], pattern: ROOM_ID.source },
      rules: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            id: { type: 'string', pattern: RULE_ID.source },
            if: { $ref: '#/$defs/condition' },
            then: {
              type: 'string',
              pattern: `^(bypass|bot|room:${ROOM_ID.source.replace(/^\^|\$$/g, '')})$`,
            },
          },
          required: ['id', 'if', 'then'],
          additionalProperties: false,
        },
      },
    },
    required: ['rooms'],
    additionalProperties: false,
    $defs: {
      condition: {
        description: 'a condition: when it has several keys, all must hold',
        type: 'object',
        properties: CONDITION_SCHEMAS,
        additionalProperties: false,
        minProperties: 1,
      },
    },
  };
}
