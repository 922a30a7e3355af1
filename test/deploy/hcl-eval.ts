// A small evaluator of the Terraform expressions deploy/terraform/ builds its seeds and names with:
// literals, templates, var./local./path. references, conditionals, ==, !=, !, ||, &&, and the functions
// jsonencode, merge and coalesce. hcl2json parses each expression (the syntax is HCL's own); anything
// else is refused, so a seed the tests cannot evaluate fails them rather than passing unread.
import { getExpressionAst, type TFExpressionSyntaxTree } from '@cdktf/hcl2json';

type Node = TFExpressionSyntaxTree.ExpressionType;

export interface Scope {
  /** Each variable's value: its default, or what the test sets. */
  vars: Record<string, unknown>;
  /** The module's locals as hcl2json gives them (evaluated when referenced). */
  locals: Record<string, unknown>;
  /** Other roots: `path`, a dynamic block's iterator. */
  roots?: Record<string, unknown>;
}

/** Terraform's jsonencode: object keys sorted, and <, >, &, U+2028 and U+2029 escaped as Go does. */
export function jsonencode(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    return JSON.stringify(value).replace(
      /[<>&\u2028\u2029]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  }
  if (Array.isArray(value)) return `[${value.map(jsonencode).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${jsonencode(k)}:${jsonencode((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

/** A string hcl2json gives: literal text and `${...}` parts (a whole `${x}` is x's value, not text). */
function templateParts(text: string): Array<{ literal: string } | { expr: string }> {
  const parts: Array<{ literal: string } | { expr: string }> = [];
  let i = 0;
  while (i < text.length) {
    const start = text.indexOf('${', i);
    if (start < 0) {
      parts.push({ literal: text.slice(i) });
      break;
    }
    if (start > i) parts.push({ literal: text.slice(i, start) });
    let depth = 0;
    let end = start + 1;
    for (; end < text.length; end++) {
      if (text[end] === '{') depth++;
      else if (text[end] === '}' && --depth === 0) break;
    }
    if (depth !== 0) throw new Error(`unbalanced interpolation in ${text}`);
    parts.push({ expr: text.slice(start + 2, end) });
    i = end + 1;
  }
  return parts;
}

/** The expressions inside a value's strings (`${...}`), at any depth: what the reference checks read. */
export function expressionsIn(value: unknown): string[] {
  if (typeof value === 'string')
    return templateParts(value).flatMap((p) => ('expr' in p ? [p.expr, ...expressionsIn(p.expr)] : []));
  if (Array.isArray(value)) return value.flatMap(expressionsIn);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(expressionsIn);
  return [];
}

/** A value as hcl2json gives it (literals, `${...}` strings, objects, lists), evaluated in `scope`. */
export async function evaluate(value: unknown, scope: Scope): Promise<unknown> {
  if (typeof value === 'string') {
    if (!value.includes('${')) return value;
    const parts = templateParts(value);
    if (parts.length === 1 && 'expr' in parts[0]!) return evalExpression(parts[0].expr, scope);
    let text = '';
    for (const p of parts) text += 'literal' in p ? p.literal : String(await evalExpression(p.expr, scope));
    return text;
  }
  if (Array.isArray(value)) return Promise.all(value.map((v) => evaluate(v, scope)));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = await evaluate(v, scope);
    return out;
  }
  return value;
}

export async function evalExpression(expr: string, scope: Scope): Promise<unknown> {
  const ast = await getExpressionAst('expression.tf', expr);
  if (ast === null) throw new Error(`cannot parse ${expr}`);
  return evalNode(ast, scope);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function asBool(v: unknown, what: string): boolean {
  if (typeof v !== 'boolean') throw new Error(`${what} is not a bool: ${JSON.stringify(v)}`);
  return v;
}

async function traverse(node: Node, scope: Scope): Promise<unknown> {
  const meta = node.meta as TFExpressionSyntaxTree.ScopeTraversalExpressionMeta;
  const [first, ...rest] = meta.traversal.map((t) => t.segment);
  let value: unknown;
  if (first === 'var' || first === 'local') {
    const name = rest.shift()!;
    const table = first === 'var' ? scope.vars : scope.locals;
    if (!Object.hasOwn(table, name)) throw new Error(`${first}.${name} is not declared`);
    value = first === 'var' ? table[name] : await evaluate(table[name], scope);
  } else if (scope.roots !== undefined && Object.hasOwn(scope.roots, first!)) value = scope.roots[first!];
  else throw new Error(`cannot evaluate a reference to ${first}`);
  for (const segment of rest) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment))
      throw new Error(`${meta.fullAccessor}: no ${segment}`);
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

const FUNCTIONS: Record<string, (args: unknown[]) => unknown> = {
  jsonencode: ([v]) => jsonencode(v),
  merge: (args) => Object.assign({}, ...args.filter((a) => a !== null)),
  coalesce: (args) => args.find((a) => a !== null && a !== ''),
};

async function evalNode(node: Node, scope: Scope): Promise<unknown> {
  const kids = (node.children ?? []) as Node[];
  const meta = (node.meta ?? {}) as unknown as Record<string, unknown>;
  switch (node.type) {
    case 'literalValue': {
      const { type, value } = meta as { type: string; value: string };
      if (type === 'string') return value;
      if (type === 'number') return Number(value);
      if (type === 'bool') return value === 'true';
      if (value === 'null') return null;
      throw new Error(`literal ${value}`);
    }
    case 'template': {
      const values = await Promise.all(kids.map((k) => evalNode(k, scope)));
      return values.length === 1 ? values[0] : values.map(String).join('');
    }
    case 'scopeTraversal':
      return traverse(node, scope);
    case 'function': {
      const fn = FUNCTIONS[meta.name as string];
      if (fn === undefined) throw new Error(`function ${String(meta.name)} is not evaluated here`);
      return fn(await Promise.all(kids.map((k) => evalNode(k, scope))));
    }
    case 'conditional':
      return evalNode(asBool(await evalNode(kids[0]!, scope), String(meta.value)) ? kids[1]! : kids[2]!, scope);
    case 'binaryOp': {
      const a = await evalNode(kids[0]!, scope);
      const b = await evalNode(kids[1]!, scope);
      if (meta.operator === 'equal') return same(a, b);
      if (meta.operator === 'notEqual') return !same(a, b);
      if (meta.operator === 'logicalOr') return asBool(a, 'left of ||') || asBool(b, 'right of ||');
      if (meta.operator === 'logicalAnd') return asBool(a, 'left of &&') && asBool(b, 'right of &&');
      throw new Error(`operator ${String(meta.operator)}`);
    }
    case 'unaryOp':
      if (meta.operator === 'logicalNot') return !asBool(await evalNode(kids[0]!, scope), String(meta.value));
      throw new Error(`operator ${String(meta.operator)}`);
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, text] of Object.entries(meta.items as Record<string, string>))
        out[key.startsWith('"') ? (JSON.parse(key) as string) : key] = await evalExpression(text, scope);
      return out;
    }
    case 'tuple':
      return Promise.all(kids.map((k) => evalNode(k, scope)));
    default:
      // Parentheses: a node of no type around one expression.
      if (String(node.type) === '' && kids.length === 1) return evalNode(kids[0]!, scope);
  }
  throw new Error(`expression ${String(meta.value ?? node.type)} is not evaluated here`);
}
