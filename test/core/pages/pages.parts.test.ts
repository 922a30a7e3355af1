// The built-in pages' CSS and scripts live in pages/parts/ and reach every template as Mustache
// partials: the built-in pages render exactly as the same templates with their parts written in
// (as the pages were before the parts), a stored template
// gets the whole store value for its own markup, and one naming a partial that does not exist is
// still shown, the operator told which.
import Mustache from 'mustache';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../../src/core/answer/html-text.js';
import { builtinPages, builtinPartials, renderPage, templateView } from '../../../src/core/pages/pages.js';
import type { PageName } from '../../../src/core/types.js';
import { pageVars } from '../../pages/fake-room.js';
import { SCENARIOS } from './pages.scenarios.js';

/** A template with each part written in where its `{{> name}}` line stands, as the pages were before the parts. */
function inline(template: string): string {
  return template.replace(/^\{\{> ([\w-]+)\}\}\n/gm, (_all, name: string) => {
    const part = (builtinPartials as Record<string, string>)[name];
    if (part === undefined) throw new Error(`no part ${name}`);
    return part;
  });
}
const INLINE = Object.fromEntries(
  Object.entries(builtinPages).map(([name, template]) => [name, inline(template)]),
) as Record<PageName, string>;

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

function render(name: PageName, stored: string | null, vars = pageVars(name)) {
  const diags: string[] = [];
  return { html: renderPage(name, stored === null ? null : b64(stored), vars, (m) => diags.push(m)), diags };
}

describe('the built-in pages with their parts', () => {
  it.each(Object.entries(SCENARIOS))(
    '%s renders byte for byte as the inline template did',
    (_label, { name, vars, language }) => {
      const before = Mustache.render(INLINE[name], templateView(vars, language), undefined, { escape: escapeHtml });
      const diags: string[] = [];
      expect(renderPage(name, null, vars, (m) => diags.push(m), language)).toBe(before);
      expect(diags).toEqual([]);
    },
  );

  it.each(Object.keys(INLINE) as PageName[])(
    '%s stores as markup only, about 2 KB, leaving the rest of a store value to a page of your own',
    (name) => {
      expect(builtinPages[name]).not.toMatch(/<script>\s*[^{\s]|<style>\s*[^{\s]/);
      expect(Buffer.byteLength(builtinPages[name])).toBeLessThan(2_200);
    },
  );
});

describe('a stored template', () => {
  it("gets the built-in CSS and script through {{> style}} and {{> waiting-script}}, with this answer's figures", () => {
    const own =
      '<html lang="{{lang}}" data-t="{{clientText}}"><style>{{> style}}</style><h1 class="mine">Hold on</h1><p class="next" id="next"><span id="count"></span></p><script>{{> waiting-script}}</script></html>';
    const { html, diags } = render('keepwaiting', own, pageVars('keepwaiting', { retryAfterSeconds: 37 }));
    expect(diags).toEqual([]);
    expect(html).toContain('.card{background:var(--card)');
    expect(html).toContain('var S=+"37"||30');
    expect(html).not.toContain('{{');
  });

  it('that inlines its own CSS and script renders as it always did', () => {
    const own =
      '<style>h1{color:red}</style><h1>{{t.waitingTitleStart}}</h1><script>var S=+"{{retryAfterSeconds}}"</script>';
    expect(render('startwaiting', own)).toEqual({
      html: '<style>h1{color:red}</style><h1>You are in the queue</h1><script>var S=+"20"</script>',
      diags: [],
    });
  });

  it('naming a partial that does not exist is still shown, the part empty, and the operator told once which names exist', () => {
    const own = '<style>{{> styles}}</style><h1>Hold on</h1>{{#hasEstimate}}{{> wait-script}}{{/hasEstimate}}';
    const first = render('startwaiting', own);
    expect(first.html).toBe('<style></style><h1>Hold on</h1>');
    expect(first.diags).toHaveLength(1);
    expect(first.diags[0]).toMatch(
      /^waiting_room_pages\.startwaiting names \{\{> styles\}\}, \{\{> wait-script\}\}, which do not exist/,
    );
    expect(first.diags[0]).toContain('{{> style}}');
    expect(first.diags[0]).toContain('{{> waiting-script}}');
    expect(first.diags[0]).toContain('npm run pages');
    expect(render('startwaiting', own)).toEqual({ html: first.html, diags: [] });
  });
});
