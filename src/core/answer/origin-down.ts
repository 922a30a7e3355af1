// The 502 the room answers when the origin cannot be reached, in the visitor's language: tiny, uncached,
// and back in a moment (Retry-After).
import { escapeHtml, htmlOpen } from './html-text.js';
import type { Strings } from '../i18n/index.js';

/** The 502's page. */
export function originDownHtml(strings: Strings): string {
  return (
    `${htmlOpen(strings)}<head><meta charset="utf-8"><title>${escapeHtml(strings.text('originDownTitle'))}</title></head>` +
    `<body><h1>${escapeHtml(strings.text('originDownHeading'))}</h1><p>${escapeHtml(strings.text('originDownBody'))}</p></body></html>`
  );
}

export function originUnavailable(strings: Strings): Response {
  return new Response(originDownHtml(strings), {
    status: 502,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store, private', 'Retry-After': '5' },
  });
}
