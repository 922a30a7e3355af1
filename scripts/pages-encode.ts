// The page templates as the `waiting_room_pages` store holds them: which files make which page, and
// the checks the edge would otherwise only make at request time (Mustache syntax, known partials, one
// value's size). `npm run pages` (pages-to-store.ts) writes or uploads what this reads.
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import Mustache from 'mustache';
import { CONFIG_STORE_VALUE_LIMIT, DEFAULT_VARIANT, isVariantName } from '../src/core/settings/index.js';
import {
  PAGE_PARTS,
  partTags,
  unknownPartials,
  WAITING_PAGES,
  WAITING_TEMPLATE,
  waitingPage,
} from '../src/core/answer/index.js';
import type { PageName } from '../src/core/types.js';
import { PAGE_STORE } from '../src/fastly/names.js';

export const PAGE_NAMES: readonly PageName[] = ['startwaiting', 'keepwaiting', 'prequeue', 'deny'];
/** A template's base64 must fit one `waiting_room_pages` value. */
export const PAGE_STORE_VALUE_LIMIT = CONFIG_STORE_VALUE_LIMIT;

export interface EncodedPage {
  name: PageName;
  /** The A/B variant this page is of (`waiting.b.html`: `b`), null for the plain pages. */
  variant?: string | null;
  file: string;
  /** Characters of the template as written. */
  chars: number;
  base64: string;
}

/** The partials a template may use, one a line, for messages. */
const PARTS_LIST = Object.entries(PAGE_PARTS)
  .map(([name, part]) => `  {{> ${name}}}  ${part.holds} (pages/parts/${part.file})`)
  .join('\n');

/** A page the store cannot hold or the room cannot render; the message says which file and why. */
export class PageError extends Error {
  override name = 'PageError';
}

/** The store value for one template: base64 of its UTF-8 bytes, as the room decodes it. */
export function encodeTemplate(html: string): string {
  return Buffer.from(html, 'utf8').toString('base64');
}

function isPageName(name: string): name is PageName {
  return (PAGE_NAMES as readonly string[]).includes(name);
}

/**
 * The file a page is made from: its own, else, for the two waiting pages, the template both share
 * (src/core/answer/page-variants.ts); null when the folder has neither. `variant`: that variant's
 * files (`startwaiting.b.html`, `waiting.b.html`).
 */
function templateFor(name: PageName, files: readonly string[], variant: string | null = null): string | null {
  const suffix = variant === null ? '.html' : `.${variant}.html`;
  if (files.includes(`${name}${suffix}`)) return `${name}${suffix}`;
  const shared = `${WAITING_TEMPLATE}${suffix}`;
  return WAITING_PAGES.includes(name) && files.includes(shared) ? shared : null;
}

/** The variants a folder's files name (`waiting.b.html`: `b`), in order, warning of files the room would never read. */
function variantsIn(dir: string, files: readonly string[], warn: (message: string) => void): string[] {
  const variants = new Set<string>();
  for (const file of files) {
    if (!file.endsWith('.html')) continue;
    const [base = '', variant, ...more] = basename(file, '.html').split('.');
    const page = isPageName(base) || base === WAITING_TEMPLATE;
    if (variant === undefined) {
      if (!page)
        warn(
          `${join(dir, file)}: ignored, the room only reads ${PAGE_NAMES.join(', ')} (and ${WAITING_TEMPLATE} for the first two)`,
        );
    } else if (
      more.length === 0 &&
      page &&
      (WAITING_PAGES as readonly string[]).concat(WAITING_TEMPLATE).includes(base)
    ) {
      if (isVariantName(variant)) variants.add(variant);
      else
        warn(
          `${join(dir, file)}: ignored, ${variant === DEFAULT_VARIANT ? `variant ${DEFAULT_VARIANT} is the plain pages (${WAITING_TEMPLATE}.html)` : `"${variant}" is no variant name (1-16 lower-case letters and digits, not a page's name)`}`,
        );
    } else {
      warn(
        `${join(dir, file)}: ignored, only the waiting pages have variants (${WAITING_TEMPLATE}.NAME.html, startwaiting.NAME.html, keepwaiting.NAME.html)`,
      );
    }
  }
  return [...variants].sort();
}

/**
 * Reads `<dir>/<name>.html` for each page that exists (`<dir>/waiting.html` stands for both waiting
 * pages when they have no file of their own), and each A/B variant's waiting pages
 * (`<dir>/waiting.VARIANT.html`, or `startwaiting.VARIANT.html` and `keepwaiting.VARIANT.html`), and
 * checks what the edge would otherwise only find out at request time (and then quietly serve the
 * built-in page instead): that the template parses as Mustache and that its base64 fits one Config
 * Store value.
 */
export async function encodePages(
  dir: string,
  warn: (message: string) => void = () => undefined,
  /** The folder has other things to store (strings): no template is not an error then. */
  allowNone = false,
): Promise<EncodedPage[]> {
  let files: string[];
  try {
    files = await readdir(dir);
  } catch {
    throw new PageError(`cannot read the pages folder ${dir}`);
  }
  const targets: { name: PageName; variant: string | null; source: string }[] = [];
  const problems: string[] = [];
  for (const name of PAGE_NAMES) {
    const source = templateFor(name, files);
    if (source !== null) targets.push({ name, variant: null, source });
  }
  for (const variant of variantsIn(dir, files, warn)) {
    for (const name of WAITING_PAGES) {
      const source = templateFor(name, files, variant);
      if (source !== null) targets.push({ name, variant, source });
      else
        problems.push(
          `${join(dir, `${name}.${variant}.html`)}: variant ${variant} has no ${name} page: write ${WAITING_TEMPLATE}.${variant}.html (both waiting pages) or ${name}.${variant}.html`,
        );
    }
  }
  const pages: EncodedPage[] = [];
  for (const { name, variant, source } of targets) {
    const file = join(dir, source);
    const text = await readFile(file, 'utf8');
    const own = source.startsWith(`${name}.`);
    const html = own ? text : waitingPage(text, name);
    const problem = templateProblem(file, html);
    if (problem !== null) problems.push(problem);
    else pages.push({ name, variant, file, chars: html.length, base64: encodeTemplate(html) });
  }
  if (problems.length > 0) throw new PageError(problems.join('\n'));
  if (pages.length === 0 && !allowNone) {
    throw new PageError(
      `no page templates in ${dir} (expected ${[...PAGE_NAMES, WAITING_TEMPLATE].map((n) => `${n}.html`).join(', ')})`,
    );
  }
  return pages;
}

/** Why the store cannot hold `html` or the room cannot render it (naming `file`), or null. */
function templateProblem(file: string, html: string): string | null {
  try {
    Mustache.parse(html);
  } catch (err) {
    return `${file}: not a valid Mustache template (${err instanceof Error ? err.message : String(err)})`;
  }
  const unknown = unknownPartials(html);
  if (unknown.length > 0)
    return `${file}: names ${partTags(unknown)}, which do not exist (the page would show nothing there). A template may use:\n${PARTS_LIST}`;
  const base64 = encodeTemplate(html);
  if (base64.length > PAGE_STORE_VALUE_LIMIT)
    return (
      `${file}: ${base64.length} characters as base64, over the ${PAGE_STORE_VALUE_LIMIT}-character limit of one ` +
      `${PAGE_STORE} value (the template itself may be at most about ${Math.floor((PAGE_STORE_VALUE_LIMIT * 3) / 4)} bytes; ` +
      `it is ${Buffer.byteLength(html, 'utf8')}). Shrink inline CSS/JS or images, or use the built-in CSS and scripts: ${partTags()}.`
    );
  return null;
}
