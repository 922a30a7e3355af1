// A preview link's page (docs/operating.md, "Previewing a page"): the page the link names, rendered as
// the room renders it (its template, stored or built-in, its strings and message in the answer's
// language) from made-up facts (answer/preview-facts.ts), with a marker across the top saying it is a
// preview. The built-in scripts see `preview` and never check the room; the handler's headers keep any
// other script from reaching it.
import { escapeHtml, hammerHtml, MADE_UP, originDownHtml, previewFacts, previewPageName } from '../answer/index.js';
import type { PageLanguage } from '../i18n/index.js';
import type { PreviewClaims, ProofChallenge } from '../tokens/index.js';
import type { Config, PageName } from '../types.js';
import { pageVars } from './answer-body.js';
import { renderPage } from './pages.js';

export interface PreviewPageInput {
  claims: PreviewClaims;
  config: Config;
  language: PageLanguage;
  nowMs: number;
  /** The operator's stored template for a page (base64), null for the built-in one. */
  storedPage: (name: PageName) => string | null;
  diag: (message: string) => void;
  /** A made-up puzzle, when the link asks for a proof. */
  proof: ProofChallenge | null;
}

/** The marker's id, for tests and for a template that wants to place it (it is put first in <body>). */
export const PREVIEW_MARKER_ID = 'wr-preview';

const MARKER_STYLE =
  'position:sticky;top:0;z-index:2147483647;margin:0;padding:.5em 1em;background:#ffe08a;color:#1a1a1a;' +
  'font:14px/1.4 system-ui,sans-serif;text-align:center;border-bottom:2px solid #b58900';

/** What the marker says, in English whatever the page's language: it is the operator's, not the visitor's. */
export function previewMarker(claims: PreviewClaims, language: string, mode: string | null): string {
  const until = new Date(claims.exp * 1000).toISOString().slice(11, 16);
  const state = [claims.page, mode, claims.proof ? 'proof of work' : null].filter((s) => s !== null).join(', ');
  const text =
    `Preview of room ${claims.room}: ${state}, ${language}. Made-up figures; this page checks nothing and admits ` +
    `nobody. Link valid until ${until} UTC.`;
  return `<p id="${PREVIEW_MARKER_ID}" role="note" lang="en" dir="ltr" style="${MARKER_STYLE}">${escapeHtml(text)}</p>`;
}

/** `html` with `marker` first in its body (or first of all, for a template without a <body> tag). */
function withMarker(html: string, marker: string): string {
  const body = /<body\b[^>]*>/i.exec(html);
  if (body === null) return marker + html;
  const at = body.index + body[0].length;
  return html.slice(0, at) + marker + html.slice(at);
}

export function renderPreview(input: PreviewPageInput): string {
  const { claims, config, language } = input;
  const strings = language.strings;
  const name = previewPageName(claims.page);
  const waiting = name === 'startwaiting' || name === 'keepwaiting';
  const mode = waiting ? (claims.mode ?? config.queueingMethod) : null;
  const marker = previewMarker(claims, strings.tag, mode);
  if (name === null) {
    const html = claims.page === 'hammer' ? hammerHtml(strings, MADE_UP.hammerSeconds, false) : originDownHtml(strings);
    return withMarker(html, marker);
  }
  const facts = previewFacts(config, claims, input.nowMs, input.proof);
  const vars = { ...pageVars(facts), preview: true };
  return withMarker(renderPage(name, input.storedPage(name), vars, input.diag, language), marker);
}
