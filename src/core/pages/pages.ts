// Waiting and deny pages: a Mustache template from `waiting_room_pages` (base64, as the Fastly
// solution pattern stores it) or the built-in one from pages/, rendered with the visitor's numbers.
// The view (pages-view.ts) speaks the answer's language; the built-in CSS and scripts (pages/parts/)
// are every template's partials (page-parts.ts).
// Pure and runtime-neutral: atob + TextDecoder exist in SpiderMonkey (js-compute) and Node alike.
import Mustache from 'mustache';
import { escapeHtml, partTags, unknownPartials, type PartName, waitingPage } from '../answer/index.js';
import { MAX_PARSES, sandboxMemory } from '../memory/index.js';
import deny from '../../../pages/deny.html';
import prequeue from '../../../pages/prequeue.html';
import waiting from '../../../pages/waiting.html';
import denyScript from '../../../pages/parts/deny.js?raw';
import prequeueScript from '../../../pages/parts/prequeue.js?raw';
import style from '../../../pages/parts/style.css?raw';
import waitingScript from '../../../pages/parts/waiting.js?raw';
import type { PageLanguage } from '../i18n/index.js';
import { templateView, type PageVars } from './pages-view.js';
import type { PageName } from '../types.js';

/** What a page is rendered from (pages-view.ts makes a template's view of it). */
export type { PageVars };

export { templateView } from './pages-view.js';

export const builtinPages: Record<PageName, string> = {
  startwaiting: waitingPage(waiting, 'startwaiting'),
  keepwaiting: waitingPage(waiting, 'keepwaiting'),
  prequeue,
  deny,
};

/** The partials every template may name (page-parts.ts says what each holds). */
export const builtinPartials: Record<PartName, string> = {
  style,
  'waiting-script': waitingScript,
  'prequeue-script': prequeueScript,
  'deny-script': denyScript,
};

const RENDER = { escape: escapeHtml };

// Mustache keeps each template it parses (the built-in pages and partials, made at build time by the
// warm-up, and the operator's) by its text: in the sandbox's memory, bounded as an operator's edits
// come and go, with room for four pages of as many page sets as a sandbox keeps rooms' settings
// (Mustache's types call the parsed template a string).
Mustache.templateCache = sandboxMemory.table<string, string>('derived', 'templates parsed', 4 * MAX_PARSES);

/**
 * UTF-8 text from bytes, or null when the bytes are not UTF-8. js-compute's TextDecoder has no
 * `fatal` mode (it always replaces bad bytes with U+FFFD), so validity is checked by re-encoding:
 * only valid UTF-8 survives the round trip byte for byte.
 */
function decodeUtf8(bytes: Uint8Array): string | null {
  const text = new TextDecoder().decode(bytes);
  if (!text.includes('\uFFFD')) return text;
  const again = new TextEncoder().encode(text);
  const hasBom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);
  return same(again, bytes) || (hasBom && same(again, bytes.subarray(3))) ? text : null;
}

/** The stored value as template text, or a reason it cannot be one. */
function decodeStored(storedBase64: string): { text: string } | { problem: string } {
  const compact = storedBase64.replace(/\s+/g, '');
  if (compact === '') return { problem: 'is empty' };
  let binary: string;
  try {
    binary = atob(compact);
  } catch {
    return { problem: 'is not valid base64' };
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const text = decodeUtf8(bytes);
  return text === null ? { problem: 'is not UTF-8 text once decoded from base64' } : { text };
}

/** Why a stored page was not shown: its value is no text (`unreadable`), or no template (`template`). */
export type PageFallback = 'unreadable' | 'template';

/**
 * The page for `name`: the stored template when there is a usable one, else the built-in page.
 * A broken stored page must never cost the visitor their page, so every failure falls back and
 * tells the operator through `diag` which store entry to fix (`key`, the page's name unless given),
 * and the caller through `fellBack`.
 */
export function renderPage(
  name: PageName,
  storedBase64: string | null,
  vars: PageVars,
  diag: (m: string) => void,
  /** The answer's language; absent: English, with `vars.message`. */
  language?: PageLanguage,
  stored: { key?: string; fellBack?: (why: PageFallback) => void } = {},
): string {
  if (storedBase64 !== null) {
    const key = stored.key ?? name;
    const decoded = decodeStored(storedBase64);
    if ('problem' in decoded) {
      diag(`waiting_room_pages.${key} ${decoded.problem}; serving the built-in page`);
      stored.fellBack?.('unreadable');
    } else {
      try {
        const facts = storedFacts(key, decoded.text, diag);
        // A template written in one language (made before the languages, say) gets the room's default
        // language's figures: "about 5 minutes" in its English sentences, not the visitor's Arabic.
        const speaks = language && !facts.multilingual ? (language.single ?? language) : language;
        return Mustache.render(decoded.text, templateView(vars, speaks), builtinPartials, RENDER);
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        diag(`waiting_room_pages.${key} is not a valid Mustache template (${why}); serving the built-in page`);
        stored.fellBack?.('template');
      }
    }
  }
  return Mustache.render(builtinPages[name], templateView(vars, language), builtinPartials, RENDER);
}

/** What a stored template is, found once per template text in a sandbox. */
interface StoredFacts {
  /** It speaks the answer's language (SPEAKS_LANGUAGE). */
  multilingual: boolean;
}
const storedSeen = sandboxMemory.table<string, StoredFacts>('derived', 'stored templates looked at', 16);

/**
 * A template speaks the answer's language when it prints a catalog string (`t.KEY`), the page's
 * language or direction, or the language links. One that does none of these is written in one language.
 */
const SPEAKS_LANGUAGE = /\{\{\{?[#^&]?\s*(?:t\.|lang\s*\}|dir\s*\}|language(?:Links|LinksHtml)?\s*\}|clientText\s*\})/;

/**
 * A stored template's facts, looked at once per template text. One naming a partial that does not
 * exist is still shown (Mustache renders the partial as nothing), and the operator told, then
 * (`npm run pages` refuses it). Throws as Mustache does on a template it cannot parse.
 */
function storedFacts(key: string, template: string, diag: (m: string) => void): StoredFacts {
  let facts = storedSeen.get(template);
  if (facts !== undefined) return facts;
  const unknown = unknownPartials(template);
  if (unknown.length > 0) {
    diag(
      `waiting_room_pages.${key} names ${partTags(unknown)}, which do not exist: rendered as nothing. ` +
        `A template may use ${partTags()}; fix it and store it again (npm run pages checks it)`,
    );
  }
  storedSeen.set(template, (facts = { multilingual: SPEAKS_LANGUAGE.test(template) }));
  return facts;
}
