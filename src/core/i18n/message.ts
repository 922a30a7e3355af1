// Messages in ICU MessageFormat, parsed by @messageformat/parser and formatted here without Intl:
// `{name}` is an argument, `{n, plural, =1 {…} one {…} other {…}}` picks by the language's plural
// rule (make-plural), `{x, select, a {…} other {…}}` by value, `#` is the plural's number written as
// the language writes numbers. Nothing else (no `{n, number}`, no dates): the room passes numbers
// and lets the message word them.
import { parse, type PluralCategory, type Token } from '@messageformat/parser';
import { formatNumber } from './number.js';
import type { NumberSymbols, PluralRule } from './types.js';

/**
 * A message's parts as the room keeps them: the parser's tokens without their source positions
 * (`ctx`), which the room never reads. Compiled messages are kept in the sandbox's memory, and the
 * runtime collects its whole heap after every request, so the positions were half their objects for the collector.
 */
export type Part =
  | { readonly type: 'content'; readonly value: string }
  | { readonly type: 'argument' | 'function'; readonly arg: string }
  | { readonly type: 'octothorpe' }
  | {
      readonly type: 'plural' | 'select' | 'selectordinal';
      readonly arg: string;
      readonly pluralOffset?: number;
      readonly cases: readonly { readonly key: string; readonly tokens: Compiled }[];
    };
export type Compiled = readonly Part[];

function slim(tokens: readonly Token[]): Compiled {
  return tokens.map((t): Part => {
    switch (t.type) {
      case 'content':
        return { type: 'content', value: t.value };
      case 'argument':
      case 'function':
        return { type: t.type, arg: t.arg };
      case 'octothorpe':
        return { type: 'octothorpe' };
      default:
        return {
          type: t.type,
          arg: t.arg,
          ...(t.pluralOffset === undefined ? {} : { pluralOffset: t.pluralOffset }),
          cases: t.cases.map((c) => ({ key: c.key, tokens: slim(c.tokens) })),
        };
    }
  });
}
export type MessageArgs = Readonly<Record<string, string | number>>;

export interface Language {
  plural: PluralRule;
  number: NumberSymbols;
}

/** The message's tokens, or why it cannot be one (plural cases this language lacks, bad syntax). */
export function compileMessage(
  text: string,
  categories: readonly PluralCategory[],
): { tokens: Compiled } | { problem: string } {
  try {
    return { tokens: slim(parse(text, { cardinal: [...categories], ordinal: [] })) };
  } catch (error) {
    return { problem: (error instanceof Error ? error.message : String(error)).split('\n')[0]! };
  }
}

/** Every argument the message reads, and whether it reads it as a plural's number. */
export function messageArguments(
  tokens: Compiled,
  into = new Map<string, 'plain' | 'plural' | 'select'>(),
): Map<string, 'plain' | 'plural' | 'select'> {
  for (const t of tokens) {
    if (t.type === 'argument' || t.type === 'function') {
      if (!into.has(t.arg)) into.set(t.arg, 'plain');
    } else if (t.type === 'plural' || t.type === 'selectordinal' || t.type === 'select') {
      into.set(t.arg, t.type === 'select' ? 'select' : 'plural');
      for (const c of t.cases) messageArguments(c.tokens, into);
    }
  }
  return into;
}

/** The plural categories each plural of the message has a case for, by argument. */
export function pluralCases(
  tokens: Compiled,
  into: { arg: string; keys: string[] }[] = [],
): { arg: string; keys: string[] }[] {
  for (const t of tokens) {
    if (t.type === 'plural' || t.type === 'selectordinal' || t.type === 'select') {
      if (t.type === 'plural') into.push({ arg: t.arg, keys: t.cases.map((c) => c.key) });
      for (const c of t.cases) pluralCases(c.tokens, into);
    }
  }
  return into;
}

function value(arg: unknown, language: Language): string {
  if (typeof arg === 'number') return formatNumber(arg, language.number);
  return arg === undefined ? '' : String(arg);
}

function formatTokens(tokens: Compiled, args: MessageArgs, language: Language, hash: number | null): string {
  let out = '';
  for (const t of tokens) {
    switch (t.type) {
      case 'content':
        out += t.value;
        break;
      case 'argument':
      case 'function':
        out += value(args[t.arg], language);
        break;
      case 'octothorpe':
        out += hash === null ? '#' : formatNumber(hash, language.number);
        break;
      case 'select': {
        const v = String(args[t.arg] ?? '');
        const chosen = t.cases.find((c) => c.key === v) ?? t.cases.find((c) => c.key === 'other');
        if (chosen) out += formatTokens(chosen.tokens, args, language, hash);
        break;
      }
      case 'plural':
      case 'selectordinal': {
        const n = Number(args[t.arg]);
        const offset = t.pluralOffset ?? 0;
        const exact = t.cases.find((c) => c.key === `=${n}`);
        const category = Number.isFinite(n) ? language.plural(n - offset) : 'other';
        const chosen = exact ?? t.cases.find((c) => c.key === category) ?? t.cases.find((c) => c.key === 'other');
        if (chosen) out += formatTokens(chosen.tokens, args, language, n - offset);
        break;
      }
    }
  }
  return out;
}

/** The message's text for these arguments; a missing argument reads as empty text. */
export function formatMessage(tokens: Compiled, args: MessageArgs, language: Language): string {
  return formatTokens(tokens, args, language, null);
}
