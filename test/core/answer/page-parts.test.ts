// The partials a template may name: which ones, where they are, and finding the ones a template names.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAGE_PARTS, partialsNamed, unknownPartials } from '../../../src/core/answer/page-parts.js';
import { builtinPartials } from '../../../src/core/pages/pages.js';
import { repoRoot } from '../../../lib/paths.js';

describe('the page parts', () => {
  it('are the files of pages/parts/, compiled in as they are', () => {
    const dir = join(repoRoot, 'pages', 'parts');
    expect(
      readdirSync(dir)
        .filter((f) => !f.endsWith('.md'))
        .sort(),
    ).toEqual(
      Object.values(PAGE_PARTS)
        .map((p) => p.file)
        .sort(),
    );
    expect(Object.keys(builtinPartials).sort()).toEqual(Object.keys(PAGE_PARTS).sort());
    for (const [name, part] of Object.entries(PAGE_PARTS))
      expect(builtinPartials[name as keyof typeof PAGE_PARTS], name).toBe(readFileSync(join(dir, part.file), 'utf8'));
  });

  it('finds every partial a template names, inside sections too, once each', () => {
    expect(partialsNamed('<style>{{> style}}</style>{{#a}}{{^b}}{{>x}}{{/b}}{{/a}}{{> style}}')).toEqual([
      'style',
      'x',
    ]);
    expect(unknownPartials('{{> style}}{{#a}}{{> deny-script}}{{> nope}}{{/a}}')).toEqual(['nope']);
    expect(unknownPartials('<p>{{t.checkNow}}</p>')).toEqual([]);
  });
});
