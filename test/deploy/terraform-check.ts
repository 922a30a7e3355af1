// What `terraform validate` would say of deploy/terraform/, and the module's own rules, offline: no
// Terraform binary or provider can be installed here. The HCL is parsed by hcl2json (HashiCorp's
// parser compiled to Wasm); the provider's schema is the fixture written from its documentation
// (fastly-provider-schema.json). Each check returns problems as sentences, none when the module is right.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from '@cdktf/hcl2json';
import { expressionsIn, type Scope } from './hcl-eval.js';

export type Body = Record<string, unknown>;

export interface AttributeSchema {
  type: string;
  required?: boolean;
  read_only?: boolean;
  sensitive?: boolean;
  default?: unknown;
  one_of?: string[];
  values_one_of?: string[];
}

export interface BlockSchema {
  attributes: Record<string, AttributeSchema>;
  blocks?: Record<string, NestedBlockSchema>;
  undescribed_blocks?: string[];
  exactly_one_of?: string[][];
}

export interface NestedBlockSchema extends BlockSchema {
  nesting: 'list' | 'set';
  max_items?: number;
}

export interface ProviderSchema {
  provider: string;
  version: string;
  source: string;
  absent: Record<string, string>;
  resources: Record<string, BlockSchema>;
  data_sources: Record<string, BlockSchema>;
}

export interface Decl {
  kind: 'resource' | 'data';
  type: string;
  name: string;
  body: Body;
  file: string;
}

export interface TfModule {
  /** File name -> text, the .tf files. */
  texts: Record<string, string>;
  decls: Decl[];
  variables: Record<string, Body>;
  locals: Record<string, unknown>;
  outputs: Record<string, Body>;
  terraform: Body[];
  /** What is wrong with the files' shape: a name declared twice, a top-level block the module has no use for. */
  structure: string[];
}

export const address = (d: Decl): string => `${d.kind === 'data' ? 'data.' : ''}${d.type}.${d.name}`;

/** The module in `texts` (file name -> HCL); a syntax error rejects. */
export async function parseModule(texts: Record<string, string>): Promise<TfModule> {
  const mod: TfModule = { texts, decls: [], variables: {}, locals: {}, outputs: {}, terraform: [], structure: [] };
  const add = <T>(table: Record<string, T>, name: string, value: T) => {
    if (Object.hasOwn(table, name)) mod.structure.push(`declared twice: ${name}`);
    table[name] = value;
  };
  for (const [file, text] of Object.entries(texts)) {
    const parsed = (await parse(file, text)) as Record<string, unknown>;
    for (const key of Object.keys(parsed))
      if (!['resource', 'data', 'variable', 'locals', 'output', 'terraform'].includes(key))
        mod.structure.push(`${file}: a "${key}" block, which this module does not use`);
    for (const kind of ['resource', 'data'] as const) {
      const byType = (parsed[kind] ?? {}) as Record<string, Record<string, Body[]>>;
      for (const [type, byName] of Object.entries(byType))
        for (const [name, bodies] of Object.entries(byName)) {
          const decl: Decl = { kind, type, name, body: bodies[0]!, file };
          if (mod.decls.some((d) => address(d) === address(decl)))
            mod.structure.push(`declared twice: ${address(decl)}`);
          mod.decls.push(decl);
        }
    }
    for (const [name, bodies] of Object.entries((parsed.variable ?? {}) as Record<string, Body[]>))
      add(mod.variables, name, bodies[0]!);
    for (const [name, bodies] of Object.entries((parsed.output ?? {}) as Record<string, Body[]>))
      add(mod.outputs, name, bodies[0]!);
    for (const block of (parsed.locals ?? []) as Body[])
      for (const [name, value] of Object.entries(block)) add(mod.locals, `local.${name}`, value);
    mod.terraform.push(...((parsed.terraform ?? []) as Body[]));
  }
  mod.locals = Object.fromEntries(Object.entries(mod.locals).map(([k, v]) => [k.slice('local.'.length), v]));
  return mod;
}

/** Every .tf file of `dir`. */
export function readModule(dir: string): Record<string, string> {
  const names = readdirSync(dir).filter((n) => n.endsWith('.tf'));
  return Object.fromEntries(names.sort().map((n) => [n, readFileSync(join(dir, n), 'utf8')]));
}

export const declsOf = (mod: TfModule, type: string): Decl[] => mod.decls.filter((d) => d.type === type);
/** A body's blocks of one name, written out (not dynamic). */
export const blocksOf = (body: Body, name: string): Body[] => (Array.isArray(body[name]) ? (body[name] as Body[]) : []);
/** A body's dynamic blocks of one name. */
export const dynamicOf = (body: Body, name: string): Body[] =>
  ((body.dynamic as Record<string, Body[]> | undefined)?.[name] ?? []) as Body[];

/** The values the module runs with: each variable's default, over which `vars` are set. */
export function scopeOf(mod: TfModule, vars: Record<string, unknown> = {}): Scope {
  const defaults = Object.fromEntries(Object.entries(mod.variables).map(([n, b]) => [n, b.default]));
  return { vars: { ...defaults, ...vars }, locals: mod.locals, roots: { path: { module: 'deploy/terraform' } } };
}

function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

function unknown(where: string, key: string, known: string[]): string {
  const near = known.filter((k) => distance(k, key) <= 2);
  return `${where}: "${key}" is not an argument or block the provider documents${near.length > 0 ? ` (did you mean ${near.join(', ')}?)` : ''}`;
}

const isLiteral = (v: unknown): v is string | number | boolean =>
  (typeof v === 'string' && !v.includes('${')) || typeof v === 'number' || typeof v === 'boolean';

const RESOURCE_META = ['count', 'for_each', 'depends_on', 'provider', 'lifecycle'];
const LIFECYCLE = ['create_before_destroy', 'prevent_destroy', 'ignore_changes', 'replace_triggered_by'];
const DYNAMIC = ['for_each', 'iterator', 'labels', 'content'];

function checkBody(body: Body, schema: BlockSchema, where: string, problems: string[], meta: string[] = []): void {
  const blocks = schema.blocks ?? {};
  const known = [...Object.keys(schema.attributes), ...Object.keys(blocks), ...meta];
  for (const [key, value] of Object.entries(body)) {
    if (meta.includes(key)) continue;
    const attr = schema.attributes[key];
    const nested = blocks[key];
    if (key === 'dynamic') {
      for (const [name, list] of Object.entries(value as Record<string, Body[]>)) {
        const inner = blocks[name];
        if (inner === undefined) {
          problems.push(unknown(`${where} dynamic`, name, Object.keys(blocks)));
          continue;
        }
        for (const d of list) {
          for (const k of Object.keys(d))
            if (!DYNAMIC.includes(k)) problems.push(`${where}.${name}: dynamic has "${k}"`);
          if (!('for_each' in d)) problems.push(`${where}.${name}: dynamic block without for_each`);
          const content = blocksOf(d, 'content');
          if (content.length !== 1) problems.push(`${where}.${name}: dynamic block needs one content block`);
          for (const c of content) checkBody(c, inner, `${where}.${name}`, problems);
        }
      }
    } else if (attr !== undefined) {
      if (attr.read_only) problems.push(`${where}: "${key}" is read-only`);
      if (Array.isArray(value) && value.some((v) => v !== null && typeof v === 'object'))
        problems.push(`${where}: "${key}" is an argument, written as a block`);
      if (attr.one_of && isLiteral(value) && !attr.one_of.includes(String(value)))
        problems.push(`${where}: ${key} = "${value}" is not one of ${attr.one_of.join(', ')}`);
      if (attr.values_one_of && value !== null && typeof value === 'object' && !Array.isArray(value))
        for (const v of Object.values(value))
          if (isLiteral(v) && !attr.values_one_of.includes(String(v)))
            problems.push(`${where}: ${key} holds "${v}", not one of ${attr.values_one_of.join(', ')}`);
    } else if (nested !== undefined) {
      if (!Array.isArray(value)) {
        problems.push(`${where}: "${key}" is a block, written as an argument`);
        continue;
      }
      if (nested.max_items !== undefined && value.length > nested.max_items)
        problems.push(`${where}: at most ${nested.max_items} "${key}" block(s)`);
      for (const item of value as Body[]) checkBody(item, nested, `${where}.${key}`, problems);
    } else if (schema.undescribed_blocks?.includes(key)) {
      problems.push(`${where}: "${key}" exists but the fixture does not describe it; write its schema down first`);
    } else problems.push(unknown(where, key, known));
  }
  for (const [name, attr] of Object.entries(schema.attributes))
    if (attr.required && !(name in body)) problems.push(`${where}: the required "${name}" is missing`);
  for (const group of schema.exactly_one_of ?? [])
    if (group.filter((k) => k in body).length !== 1) problems.push(`${where}: exactly one of ${group.join(', ')}`);
}

/** Resource and data types, arguments and blocks against the provider's documented schema. */
export function schemaProblems(mod: TfModule, schema: ProviderSchema): string[] {
  const problems: string[] = [...mod.structure];
  for (const decl of mod.decls) {
    const where = address(decl);
    const s = (decl.kind === 'resource' ? schema.resources : schema.data_sources)[decl.type];
    if (s === undefined) {
      problems.push(`${where}: ${decl.type} is not a ${decl.kind} type of ${schema.provider} ${schema.version}`);
      continue;
    }
    checkBody(decl.body, s, where, problems, RESOURCE_META);
    if ('count' in decl.body && 'for_each' in decl.body) problems.push(`${where}: both count and for_each`);
    for (const lifecycle of blocksOf(decl.body, 'lifecycle')) {
      for (const k of Object.keys(lifecycle))
        if (!LIFECYCLE.includes(k) && k !== 'precondition' && k !== 'postcondition')
          problems.push(unknown(`${where}.lifecycle`, k, LIFECYCLE));
      for (const item of (lifecycle.ignore_changes ?? []) as string[]) {
        const name = item.replace(/^\$\{|\}$/g, '').split(/[.[]/)[0]!;
        const a = s.attributes[name];
        if (name !== 'all' && (a === undefined || a.read_only) && !(name in (s.blocks ?? {})))
          problems.push(`${where}: ignore_changes names "${name}", which is not an argument`);
      }
    }
  }
  return problems;
}

const VARIABLE_KEYS = ['type', 'default', 'description', 'sensitive', 'nullable', 'validation', 'ephemeral'];
const OUTPUT_KEYS = ['value', 'description', 'sensitive', 'depends_on', 'precondition', 'ephemeral'];

/** Every var., local. and resource reference is declared; variables and outputs are well formed. */
export function referenceProblems(mod: TfModule): string[] {
  const problems: string[] = [];
  const declared = new Set(mod.decls.map(address));
  const check = (where: string, value: unknown, ownVar?: string) => {
    for (const expr of expressionsIn(value)) {
      for (const m of expr.matchAll(/(?<![\w.])var\.([A-Za-z_][\w-]*)/g)) {
        if (!Object.hasOwn(mod.variables, m[1]!)) problems.push(`${where}: var.${m[1]} is not declared`);
        else if (ownVar !== undefined && m[1] !== ownVar)
          problems.push(`${where}: a validation may refer to var.${ownVar} only`);
      }
      for (const m of expr.matchAll(/(?<![\w.])local\.([A-Za-z_][\w-]*)/g))
        if (!Object.hasOwn(mod.locals, m[1]!)) problems.push(`${where}: local.${m[1]} is not declared`);
      for (const m of expr.matchAll(/(?<![\w.])((?:data\.)?fastly_[a-z0-9_]+\.[A-Za-z_][\w-]*)/g))
        if (!declared.has(m[1]!)) problems.push(`${where}: ${m[1]} is not declared`);
    }
  };
  for (const decl of mod.decls) check(address(decl), decl.body);
  for (const [name, value] of Object.entries(mod.locals)) check(`local.${name}`, value);
  for (const [name, body] of Object.entries(mod.outputs)) {
    check(`output.${name}`, body);
    for (const k of Object.keys(body))
      if (!OUTPUT_KEYS.includes(k)) problems.push(unknown(`output.${name}`, k, OUTPUT_KEYS));
    if (!('value' in body)) problems.push(`output.${name}: no value`);
  }
  for (const [name, body] of Object.entries(mod.variables)) {
    check(`var.${name}`, body, name);
    for (const k of Object.keys(body))
      if (!VARIABLE_KEYS.includes(k)) problems.push(unknown(`var.${name}`, k, VARIABLE_KEYS));
    if (!('type' in body) || !('description' in body)) problems.push(`var.${name}: give it a type and a description`);
  }
  return problems;
}

/**
 * The trap: an entries resource that manages its Config Store deletes, at the next apply, every key
 * written outside Terraform: those `npm run tune` and the controller write live. Each must say
 * manage_entries = false and ignore changes to its entries.
 */
export function trapProblems(mod: TfModule): string[] {
  const problems: string[] = [];
  for (const decl of declsOf(mod, 'fastly_configstore_entries')) {
    const where = address(decl);
    if (decl.body.manage_entries !== false)
      problems.push(
        `${where}: manage_entries must be written false (it is ${JSON.stringify(decl.body.manage_entries ?? 'absent')}): true deletes every key tune and the controller write`,
      );
    const ignored = blocksOf(decl.body, 'lifecycle').flatMap((l) => (l.ignore_changes ?? []) as string[]);
    if (!ignored.some((i) => ['entries', 'all'].includes(i.replace(/^\$\{|\}$/g, ''))))
      problems.push(`${where}: lifecycle { ignore_changes = [entries] } is missing`);
  }
  return problems;
}

/** Arguments that carry a secret: those the provider marks sensitive, and these it does not. */
export const SECRET_ARGUMENTS = ['header_value'];

function secretArguments(body: Body, schema: BlockSchema, where: string, out: Array<[string, unknown]>): void {
  for (const [key, value] of Object.entries(body)) {
    if (key === 'dynamic') {
      for (const [name, list] of Object.entries(value as Record<string, Body[]>))
        for (const d of list)
          for (const c of blocksOf(d, 'content'))
            if (schema.blocks?.[name]) secretArguments(c, schema.blocks[name], `${where}.${name}`, out);
    } else if (schema.blocks?.[key] && Array.isArray(value)) {
      for (const item of value as Body[]) secretArguments(item, schema.blocks[key], `${where}.${key}`, out);
    } else if (schema.attributes[key]?.sensitive || SECRET_ARGUMENTS.includes(key))
      out.push([`${where}.${key}`, value]);
  }
}

/**
 * No secret in any file: no key-like literal (base64 of 32 bytes or more, or 32 hex digits), no file
 * read into the configuration, no provisioner (a command line that could carry a key), and each
 * secret-bearing argument set only from variables declared sensitive.
 */
export function secretProblems(mod: TfModule, schema: ProviderSchema, texts: Record<string, string>): string[] {
  const problems: string[] = [];
  for (const [file, text] of Object.entries(texts)) {
    for (const m of text.matchAll(/(?<![\w+/=-])[A-Za-z0-9+/]{43,}={0,2}(?![\w+/=-])|\b[0-9a-fA-F]{32,}\b/g))
      problems.push(`${file}: "${m[0].slice(0, 12)}..." looks like a key`);
  }
  const everything = [...mod.decls.map((d) => d.body), mod.locals, mod.outputs];
  for (const expr of expressionsIn(everything))
    if (/\b(file|filebase64|templatefile)\s*\(/.test(expr)) problems.push(`an expression reads a file: ${expr}`);
  for (const decl of mod.decls) {
    if ('provisioner' in decl.body || 'connection' in decl.body) problems.push(`${address(decl)}: a provisioner`);
    const s = (decl.kind === 'resource' ? schema.resources : schema.data_sources)[decl.type];
    if (s === undefined) continue;
    const found: Array<[string, unknown]> = [];
    secretArguments(decl.body, s, address(decl), found);
    for (const [where, value] of found) {
      const refs = expressionsIn(value).flatMap((e) => [...e.matchAll(/(?<![\w.])var\.([A-Za-z_][\w-]*)/g)]);
      if (refs.length === 0) problems.push(`${where} is a secret written in the file`);
      for (const m of refs)
        if (mod.variables[m[1]!]?.sensitive !== true) problems.push(`${where} comes from var.${m[1]}, not sensitive`);
    }
  }
  return problems;
}
