// One template, pages/waiting.html, serves both waiting pages: what differs between them (the title,
// the heading, the first sentence) stands in `{{#isKeepWaiting}}…{{/isKeepWaiting}}` and
// `{{^isKeepWaiting}}…{{/isKeepWaiting}}` sections. Rendered as it is, the template shows the right
// words for either page. Each page is also made from it ahead of time, with those sections settled,
// so a page stored in `waiting_room_pages` (at most 8,000 base64 characters) carries one wording,
// not both. No imports: the page tool (scripts/pages-to-store.ts) runs it under Node as well.
import type { PageName } from '../types.js';

/** The file (pages/waiting.html) that holds both waiting pages, and the pages it serves. */
export const WAITING_TEMPLATE = 'waiting';
export const WAITING_PAGES: readonly PageName[] = ['startwaiting', 'keepwaiting'];

/**
 * `template` as the page `name` shows it: the sections of the flag kept or dropped, tags removed.
 * Sections of the flag must not nest (they hold words, not markup with more sections of it).
 */
export function waitingPage(template: string, name: PageName): string {
  const keep = name === 'keepwaiting';
  return template
    .replace(/\{\{#isKeepWaiting\}\}([\s\S]*?)\{\{\/isKeepWaiting\}\}/g, (_all, words: string) => (keep ? words : ''))
    .replace(/\{\{\^isKeepWaiting\}\}([\s\S]*?)\{\{\/isKeepWaiting\}\}/g, (_all, words: string) => (keep ? '' : words));
}
