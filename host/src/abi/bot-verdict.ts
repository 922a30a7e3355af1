// Bot detection as Viceroy answers it (src/wiggle_abi/http_downstream.rs): there is no analysis
// locally, so the verdict is read from X-Fastly-Bot-* headers of the downstream request as the
// client sent them. A test (or a curl) can then play a detected, verified or unknown bot, and an
// app edits its own request headers without changing what it is told.

/** Category kinds in the order of their numbers (Viceroy's `downstream_bot_category_kind`). */
const CATEGORY_KINDS = [
  'none',
  'suspected',
  'accessibility',
  'ai-crawler',
  'ai-fetcher',
  'content-fetcher',
  'monitoring-site-tools',
  'online-marketing',
  'page-preview',
  'platform-integration',
  'research',
  'search-engine-crawler',
  'search-engine-optimization',
  'security-tools',
  'headless',
] as const;

/** What each `fastly_http_downstream.downstream_bot_*` call answers; null is the NONE status. */
export interface BotAnswers {
  /** `downstream_bot_analyzed`: 1 only for `x-fastly-bot-analyzed: true`, 0 otherwise (absent too). */
  analyzed: 0 | 1;
  /** `downstream_bot_detected`: likewise from `x-fastly-bot-detected`. */
  detected: 0 | 1;
  /** `downstream_bot_verified`: 1 for `x-fastly-bot-verified: true`, 0 for any other value, NONE when absent. */
  verified: 0 | 1 | null;
  /** `downstream_bot_name`: the `x-fastly-bot-name` value. */
  name: string | null;
  /** `downstream_bot_category`: the `x-fastly-bot-category` value as sent (case kept). */
  category: string | null;
  /** `downstream_bot_category_kind`: the category's number, by name (any case) or as decimal text. */
  categoryKind: number | null;
}

/** The first value of `name`, as Rust's `HeaderMap::get` picks one of several. */
function first(headers: ReadonlyArray<readonly [string, string]>, name: string): string | undefined {
  for (const [n, v] of headers) if (n === name) return v;
  return undefined;
}

/**
 * The value as text, or null where Viceroy's `HeaderValue::to_str` fails (anything but visible
 * ASCII and tab): such a name or category reads as absent. Values are Latin-1 (one char a byte).
 */
function visibleAscii(value: string | undefined): string | null {
  if (value === undefined) return null;
  return /^[\t\x20-\x7e]*$/.test(value) ? value : null;
}

/** Rust's `str::parse::<u32>()`: decimal digits after an optional `+`, within 32 bits. */
function parseU32(text: string): number | null {
  if (!/^\+?[0-9]+$/.test(text)) return null;
  const n = Number(text);
  return n <= 0xffff_ffff ? n : null;
}

function categoryKind(category: string | null): number | null {
  if (category === null) return null;
  const lower = category.toLowerCase();
  const named = (CATEGORY_KINDS as readonly string[]).indexOf(lower);
  return named >= 0 ? named : parseU32(lower);
}

/**
 * The bot verdict for a downstream request, from its original headers (names lower-case, values
 * as they arrived, in order). Pure: the hostcalls write these answers into guest memory.
 */
export function botAnswers(headers: ReadonlyArray<readonly [name: string, value: string]>): BotAnswers {
  const flag = (name: string): 0 | 1 => (first(headers, name) === 'true' ? 1 : 0);
  const verified = first(headers, 'x-fastly-bot-verified');
  const category = visibleAscii(first(headers, 'x-fastly-bot-category'));
  return {
    analyzed: flag('x-fastly-bot-analyzed'),
    detected: flag('x-fastly-bot-detected'),
    verified: verified === undefined ? null : verified === 'true' ? 1 : 0,
    name: visibleAscii(first(headers, 'x-fastly-bot-name')),
    category,
    categoryKind: categoryKind(category),
  };
}
