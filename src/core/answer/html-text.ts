// HTML text escaped as Mustache escapes it (the pages, the language links, the 429 and 502 pages the
// room writes by hand), and a hand-written page's language and direction on its <html>.
import type { Strings } from '../i18n/index.js';
import { sandboxMemory } from '../memory/index.js';

/**
 * Mustache's own HTML escaping, character for character, done in native passes: its version calls a
 * function for every character it escapes, and a page's `data-t` (the script's messages as JSON)
 * has a hundred quotes, a cost the runtime's interpreter feels on every page.
 */
export function escapeHtml(value: unknown): string {
  const s = String(value);
  if (!/[&<>"'\x60=/]/.test(s)) return s;
  // Long texts (the page's `data-t`) repeat from answer to answer: kept once escaped.
  if (s.length < 256) return escapeText(s);
  let escaped = escapedLong.get(s);
  if (escaped === undefined) escapedLong.set(s, (escaped = escapeText(s)));
  return escaped;
}
const escapedLong = sandboxMemory.table<string, string>('derived', 'long texts escaped', 64);

function escapeText(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/\//g, '&#x2F;')
    .replace(/\x60/g, '&#x60;')
    .replace(/=/g, '&#x3D;');
}

/** The doctype and `<html lang dir>` of the answer's language. */
export function htmlOpen(strings: Strings): string {
  return `<!doctype html><html lang="${escapeHtml(strings.tag)}" dir="${strings.locale.info.dir}">`;
}
