// The little HTML the room writes by hand (the 429 and 502 pages): text escaped, and the page's
// language and direction on its <html>.
import type { Strings } from './i18n/strings.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for HTML: the operator's own wording (waiting_room_pages strings.TAG) may hold anything. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** The doctype and `<html lang dir>` of the answer's language. */
export function htmlOpen(strings: Strings): string {
  return `<!doctype html><html lang="${escapeHtml(strings.tag)}" dir="${strings.locale.info.dir}">`;
}
