// The one HTML escaper of the room's pages, links and hand-written answers: Mustache's, exactly.
import Mustache from 'mustache';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../../src/core/answer/html-text.js';

describe('escapeHtml', () => {
  it('escapes exactly as Mustache does', () => {
    for (const text of [
      '',
      'plain words',
      '<a href="x?a=1&b=2">\'q\' `t` /x</a>',
      '{"clientNextCheck":"Next check in {time}"}',
      '&amp; already',
      'é – 日本語 ٣',
    ]) {
      expect(escapeHtml(text)).toBe(Mustache.escape(text));
    }
    expect(escapeHtml(42)).toBe('42');
  });
});
