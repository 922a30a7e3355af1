// One request's strings: its language's built-in catalog, under the operator's overrides for that
// language (the room's page set first, then the shared ones), formatted with the language's plural
// rule and numbers. Made once per answer (answer-body.ts), never kept between requests.
import type { MessageKey } from './catalogs/en-US.js';
import type { Locale } from './locales.js';
import { sandboxMemory } from '../memory/index.js';
import { compileMessage, formatMessage, type Compiled, type MessageArgs } from './message.js';

/** Compiled built-in messages, by tag and key: the English ones made at build time, the others as a sandbox first uses them (page-text.ts warmPageText). */
const builtinCompiled = sandboxMemory.table<string, Compiled>(
  'derived',
  'built-in messages compiled',
  Number.POSITIVE_INFINITY,
);

function builtin(locale: Locale, key: MessageKey): Compiled {
  const id = `${locale.info.tag} ${key}`;
  let tokens = builtinCompiled.get(id);
  if (tokens === undefined) {
    const compiled = compileMessage(locale.catalog[key], locale.categories);
    // A built-in message that does not compile is a defect the catalog test catches; show its text.
    tokens = 'tokens' in compiled ? compiled.tokens : [{ type: 'content', value: locale.catalog[key] }];
    builtinCompiled.set(id, tokens);
  }
  return tokens;
}

/** An operator's messages for one language, compiled and checked (overrides.ts). */
export type OverrideMessages = Readonly<Partial<Record<MessageKey, { text: string; tokens: Compiled }>>>;

export class Strings {
  constructor(
    readonly locale: Locale,
    /** Overrides, the first that has a key wins (the room's, then the shared ones). */
    private readonly overrides: readonly OverrideMessages[] = [],
  ) {}

  get tag(): string {
    return this.locale.info.tag;
  }

  /** The operator's message for `key`, the first override that has it; undefined for none. */
  private override(key: MessageKey): { text: string; tokens: Compiled } | undefined {
    for (const o of this.overrides) {
      const hit = o[key];
      if (hit !== undefined) return hit;
    }
    return undefined;
  }

  private find(key: MessageKey): { text: string; tokens: Compiled } {
    return this.override(key) ?? { text: this.locale.catalog[key], tokens: builtin(this.locale, key) };
  }

  /** The message for `key`, formatted with `args`. */
  text(key: MessageKey, args: MessageArgs = {}): string {
    return formatMessage(this.find(key).tokens, args, { plural: this.locale.plural, number: this.locale.info.number });
  }

  /** Whether `key` is the built-in catalog's message (no override of the operator's has it). */
  builtin(key: MessageKey): boolean {
    return this.override(key) === undefined;
  }

  /** The message as written (for the page's script, which fills plain `{name}` arguments itself). */
  source(key: MessageKey): string {
    return this.find(key).text;
  }

  /** A `|`-separated list message (weekdays, months) as its items. */
  list(key: MessageKey): string[] {
    return this.text(key).split('|');
  }
}
