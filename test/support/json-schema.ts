// A small JSON Schema validator for the tests that hold docs/schema/ to the repository's examples: the
// keywords those schemas use (type, enum, const, pattern, lengths, ranges, properties,
// patternProperties, additionalProperties, required, items, anyOf, oneOf, not, a local $ref), each
// as draft 2020-12 defines it. An unknown keyword throws, so a schema cannot outgrow it unnoticed.
type Schema = { [key: string]: unknown };

const NOTES = new Set(['$schema', '$id', 'title', 'description', 'default', 'contentMediaType', '$defs']);
const KNOWN = new Set([
  ...NOTES,
  'type',
  'enum',
  'const',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'properties',
  'patternProperties',
  'additionalProperties',
  'required',
  'minProperties',
  'items',
  'minItems',
  'maxItems',
  'anyOf',
  'oneOf',
  'not',
  '$ref',
]);

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

const typeMatches = (want: string, v: unknown): boolean =>
  want === typeOf(v) || (want === 'number' && typeOf(v) === 'integer');

/** Where `value` breaks `schema` (`at` its path), or [] when it holds; `root` resolves `#/$defs/NAME`. */
export function validate(schema: Schema, value: unknown, at = '$', root: Schema = schema): string[] {
  for (const k of Object.keys(schema)) if (!KNOWN.has(k)) throw new Error(`unknown keyword ${k} at ${at}`);
  const errors: string[] = [];
  const fail = (why: string): void => void errors.push(`${at}: ${why}`);
  if (typeof schema.$ref === 'string') {
    const name = /^#\/\$defs\/(.+)$/.exec(schema.$ref)?.[1];
    const target = name === undefined ? undefined : (root.$defs as Record<string, Schema> | undefined)?.[name];
    if (target === undefined) throw new Error(`unresolved $ref ${schema.$ref}`);
    errors.push(...validate(target, value, at, root));
  }
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    if (!types.some((t) => typeMatches(t, value))) return [`${at}: is ${typeOf(value)}, not ${types.join(' or ')}`];
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => e === value))
    fail(`not one of ${JSON.stringify(schema.enum)}`);
  if ('const' in schema && schema.const !== value) fail(`not ${JSON.stringify(schema.const)}`);
  if (typeof value === 'string') {
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value))
      fail(`does not match ${schema.pattern}`);
    const length = [...value].length;
    if (typeof schema.minLength === 'number' && length < schema.minLength) fail('too short');
    if (typeof schema.maxLength === 'number' && length > schema.maxLength) fail('too long');
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) fail(`below ${schema.minimum}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum) fail(`above ${schema.maximum}`);
    if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum)
      fail(`not above ${schema.exclusiveMinimum}`);
  }
  if (typeOf(value) === 'object') errors.push(...validateObject(schema, value as Record<string, unknown>, at, root));
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) fail('too few items');
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) fail('too many items');
    if (schema.items !== undefined)
      value.forEach((item, i) => errors.push(...validate(schema.items as Schema, item, `${at}[${i}]`, root)));
  }
  if (Array.isArray(schema.anyOf) && !(schema.anyOf as Schema[]).some((s) => validate(s, value, at, root).length === 0))
    fail('matches none of anyOf');
  if (Array.isArray(schema.oneOf)) {
    const n = (schema.oneOf as Schema[]).filter((s) => validate(s, value, at, root).length === 0).length;
    if (n !== 1) fail(`matches ${n} of oneOf, not one`);
  }
  if (schema.not !== undefined && validate(schema.not as Schema, value, at, root).length === 0) fail('matches not');
  return errors;
}

function validateObject(schema: Schema, o: Record<string, unknown>, at: string, root: Schema): string[] {
  const errors: string[] = [];
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const patterns = Object.entries((schema.patternProperties ?? {}) as Record<string, Schema>);
  for (const name of (schema.required ?? []) as string[])
    if (!Object.hasOwn(o, name)) errors.push(`${at}: lacks "${name}"`);
  if (typeof schema.minProperties === 'number' && Object.keys(o).length < schema.minProperties)
    errors.push(`${at}: too few keys`);
  for (const [name, v] of Object.entries(o)) {
    const where = `${at}.${name}`;
    let matched = false;
    if (Object.hasOwn(properties, name)) {
      matched = true;
      errors.push(...validate(properties[name]!, v, where, root));
    }
    for (const [pattern, s] of patterns) {
      if (!new RegExp(pattern, 'u').test(name)) continue;
      matched = true;
      errors.push(...validate(s, v, where, root));
    }
    if (!matched && schema.additionalProperties === false) errors.push(`${where}: is not allowed`);
  }
  return errors;
}
