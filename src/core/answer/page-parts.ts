// The built-in pages' CSS and scripts, kept in pages/parts/ and offered to every template (the
// built-in ones and those stored in `waiting_room_pages`) as Mustache partials: `{{> style}}`,
// `{{> waiting-script}}`. A stored template then spends its store value on its own markup, and a
// partial, rendered with the page's own view, keeps its `{{…}}` variables. The texts are compiled in
// (pages.ts); this file only names them, with no other import than Mustache, so the page tool
// (scripts/pages-to-store.ts) checks a template under Node as the edge reads it.
import Mustache from 'mustache';

/** Each partial a template may name: its file in pages/parts/ and what it holds. */
export const PAGE_PARTS = {
  style: { file: 'style.css', holds: "the built-in pages' CSS (light and dark, the links; each page's own rules)" },
  'waiting-script': {
    file: 'waiting.js',
    holds: "the waiting pages' script (checks, countdown, proof of work, live text)",
  },
  'prequeue-script': {
    file: 'prequeue.js',
    holds: "the countdown page's script (countdown to the start in local time, checks)",
  },
  'deny-script': { file: 'deny.js', holds: "the deny page's script (a slow check every 5 minutes or more)" },
} as const;

export type PartName = keyof typeof PAGE_PARTS;
export const PART_NAMES = Object.keys(PAGE_PARTS) as PartName[];

/** The partials' names as a template writes them, for messages: `{{> style}}, {{> waiting-script}}, …`. */
export const partTags = (names: readonly string[] = PART_NAMES): string => names.map((n) => `{{> ${n}}}`).join(', ');

type Token = [string, string, number, number, Token[]?, ...unknown[]];

/** The partials `template` names, in order, each once; throws as Mustache does on a template it cannot parse. */
export function partialsNamed(template: string): string[] {
  const names = new Set<string>();
  const walk = (tokens: readonly Token[]): void => {
    for (const token of tokens) {
      if (token[0] === '>') names.add(token[1]);
      // Only a section's token holds others there (a partial's holds its indentation).
      else if ((token[0] === '#' || token[0] === '^') && Array.isArray(token[4])) walk(token[4]);
    }
  };
  walk(Mustache.parse(template) as unknown as Token[]);
  return [...names];
}

/** The partials `template` names that do not exist: Mustache renders them as nothing. */
export function unknownPartials(template: string): string[] {
  return partialsNamed(template).filter((name) => !Object.hasOwn(PAGE_PARTS, name));
}
