// A preview's page: the page the link names, rendered as the room renders it, with the marker first.
import { describe, expect, it } from 'vitest';
import { englishLanguage } from '../../../src/core/i18n/index.js';
import { PREVIEW_MARKER_ID, renderPreview } from '../../../src/core/pages/index.js';
import { parseConfig } from '../../../src/core/settings/index.js';
import type { PreviewClaims } from '../../../src/core/tokens/index.js';

const NOW_MS = Date.UTC(2026, 11, 7, 9);
const config = parseConfig(() => null, 'shop').config;
const render = (claims: Partial<PreviewClaims>, stored: string | null = null) =>
  renderPreview({
    claims: { room: 'shop', page: 'keepwaiting', exp: NOW_MS / 1000 + 600, ...claims },
    config,
    language: englishLanguage(''),
    nowMs: NOW_MS,
    storedPage: () => stored,
    diag: () => {},
    proof: null,
  });

describe('renderPreview', () => {
  it('puts the marker first in the body, saying what the page is and until when the link works', () => {
    const html = render({ mode: 'fifo' });
    const marker = html.indexOf(`id="${PREVIEW_MARKER_ID}"`);
    expect(marker).toBeGreaterThan(html.indexOf('<body>'));
    expect(marker).toBeLessThan(html.indexOf('<main>'));
    expect(html).toContain('Preview of room shop: keepwaiting, fifo, en-US.');
    expect(html).toContain('Link valid until 09:10 UTC.');
  });

  it('puts it first of all in a stored template without a body, which it renders with the made-up figures', () => {
    const html = render({}, Buffer.from('<p>{{waitTimeSummary}}</p>').toString('base64'));
    expect(html.startsWith(`<p id="${PREVIEW_MARKER_ID}"`)).toBe(true);
    expect(html).toMatch(/<p>about 4 to 15 minutes<\/p>$/);
  });

  it('shows the 429 without the reload it has for a visitor', () => {
    const html = render({ page: 'hammer' });
    expect(html).toContain('You are still in line');
    expect(html).not.toContain('http-equiv="refresh"');
  });
});
