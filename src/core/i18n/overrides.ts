// The operator's own wording of the built-in strings (`strings.TAG` and `SET.strings.TAG` in
// `waiting_room_pages`): a JSON object of catalog key -> ICU message. Each entry is checked as the
// built-in catalogs are, and one that would show wrong (an unknown key, bad syntax, a plural case
// the language lacks or a case it needs missing, an argument the room never passes, plural or select in a page script's
// string) is left out alone, the built-in text standing in. The edge and the tools share this check.
import { enUS, type MessageKey } from './catalogs/en-US.js';
import { localeByTag } from './locales.js';
import { compileMessage, messageArguments, pluralCases, type Compiled } from './message.js';
import type { OverrideMessages } from './strings.js';
import { sandboxMemory } from '../memory/index.js';

export interface OverrideProblem {
  /** The catalog key, '' for the value as a whole. */
  key: string;
  message: string;
}

export interface CheckedOverrides {
  messages: OverrideMessages;
  problems: OverrideProblem[];
}

/** The store key of a language's overrides: shared (`strings.TAG`) or a page set's (`SET.strings.TAG`). */
export function overridesKey(tag: string, set: string | null): string {
  return set === null ? `strings.${tag}` : `${set}.strings.${tag}`;
}

// Made at build time for every message (the warm-up checks the catalog as if it were an override).
const englishArgs = sandboxMemory.table<MessageKey, ReadonlySet<string>>(
  'derived',
  'arguments of the English messages',
  Number.POSITIVE_INFINITY,
);

/** The arguments the room passes to `key`: those of the English reference message. */
function argumentsOf(key: MessageKey): ReadonlySet<string> {
  let args = englishArgs.get(key);
  if (args === undefined) {
    const compiled = compileMessage(enUS[key], ['one', 'other']);
    args = new Set('tokens' in compiled ? messageArguments(compiled.tokens).keys() : []);
    englishArgs.set(key, args);
  }
  return args;
}

/** The list messages and how many names each holds (the room picks one by its index). */
const LIST_LENGTHS: Readonly<Record<string, number>> = { weekdays: 7, months: 12 };

/** Only text and plain `{name}` arguments: what a page's script can fill in. */
function plainOnly(tokens: Compiled): boolean {
  return tokens.every((t) => t.type === 'content' || t.type === 'argument');
}

function checkEntry(
  key: string,
  value: unknown,
  categories: Parameters<typeof compileMessage>[1],
): { tokens: Compiled } | { problem: string } {
  if (!Object.hasOwn(enUS, key)) return { problem: 'is not a message key; ignoring it' };
  if (typeof value !== 'string') return { problem: 'must be a string; ignoring it' };
  const compiled = compileMessage(value, categories);
  if ('problem' in compiled) return { problem: `is not a usable message (${compiled.problem}); ignoring it` };
  const expected = argumentsOf(key as MessageKey);
  const unknown = [...messageArguments(compiled.tokens).keys()].filter((a) => !expected.has(a));
  if (unknown.length > 0) {
    const has = expected.size === 0 ? 'none' : [...expected].map((a) => `{${a}}`).join(', ');
    return {
      problem: `uses ${unknown.map((a) => `{${a}}`).join(', ')}, which the room never passes (it passes ${has}); ignoring it`,
    };
  }
  for (const plural of pluralCases(compiled.tokens)) {
    const missing = categories.filter((c) => !plural.keys.includes(c));
    if (missing.length > 0)
      return {
        problem: `has no ${missing.join(', ')} case for {${plural.arg}}, which this language needs; ignoring it`,
      };
  }
  const items = LIST_LENGTHS[key];
  if (items !== undefined && value.split('|').length !== items)
    return { problem: `must list ${items} names separated by |; ignoring it` };
  if (key.startsWith('client') && !plainOnly(compiled.tokens))
    return {
      problem:
        "is read by the page's script, which fills only plain {name} arguments (no plural, select or #); ignoring it",
    };
  return { tokens: compiled.tokens };
}

/** The usable overrides of language `tag` in `raw`, and why each unusable one is left out. */
export function checkOverrides(tag: string, raw: string): CheckedOverrides {
  const locale = localeByTag(tag);
  if (locale === undefined)
    return {
      messages: {},
      problems: [{ key: '', message: `${JSON.stringify(tag)} is not a built-in language; ignoring it` }],
    };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { messages: {}, problems: [{ key: '', message: 'is not valid JSON; ignoring it whole' }] };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return {
      messages: {},
      problems: [{ key: '', message: 'must be a JSON object of message keys and messages; ignoring it whole' }],
    };
  }
  const messages: Partial<Record<MessageKey, { text: string; tokens: Compiled }>> = {};
  const problems: OverrideProblem[] = [];
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    const checked = checkEntry(key, value, locale.categories);
    if ('problem' in checked) problems.push({ key, message: checked.problem });
    else messages[key as MessageKey] = { text: value as string, tokens: checked.tokens };
  }
  return { messages, problems };
}
