// `page_variants`: the waiting page's variants and their weights, and a value refused whole, named by
// its key, when any part of it is unusable.
import { describe, expect, it } from 'vitest';
import { isVariantName, parseConfig, problemMessage } from '../../../src/core/settings/index.js';

const parse = (value: string | null) =>
  parseConfig((key) => ({ allow_percentage: '50', ...(value === null ? {} : { page_variants: value }) })[key] ?? null);

describe('page_variants', () => {
  it('is no test when unset', () => {
    const { config, problems } = parse(null);
    expect(config.pageVariants).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('reads names with weights, 1 when left out, in the order written, and drops a weight of 0', () => {
    expect(parse('a:70, b:30').config.pageVariants).toEqual([
      { name: 'a', weight: 70 },
      { name: 'b', weight: 30 },
    ]);
    expect(parse('a,b2,c:0').config.pageVariants).toEqual([
      { name: 'a', weight: 1 },
      { name: 'b2', weight: 1 },
    ]);
    expect(parse('a, ,b,').config.pageVariants.map((v) => v.name)).toEqual(['a', 'b']);
    // One variant alone: everyone sees it.
    expect(parse('b').config.pageVariants).toEqual([{ name: 'b', weight: 1 }]);
  });

  it('refuses the whole value, naming its key, when any entry is unusable', () => {
    for (const [value, why] of [
      ['a,B', /"B" is not NAME or NAME:WEIGHT/],
      ['a,b:x', /"b:x" is not NAME or NAME:WEIGHT/],
      ['a,deny', /"deny" is a page's name/],
      ['a,strings', /"strings" is a page's name/],
      ['a,b,a', /names a twice/],
      ['a:0,b:0', /weight of 0/],
      ['a:20000', /weight over 10000/],
      ['a,b,c,d,e,f,g,h,i', /more than 8 variants/],
      [' , ', /names no variant/],
    ] as const) {
      const { config, problems } = parse(value);
      expect(config.pageVariants, value).toEqual([]);
      expect(problems.map((p) => p.key)).toEqual(['page_variants']);
      expect(problemMessage(problems[0]!), value).toMatch(why);
      expect(problemMessage(problems[0]!)).toMatch(/no test: every visitor gets the plain pages \(a\)/);
    }
  });

  it('names a variant a page file may carry: not a, not a page, lower-case letters and digits', () => {
    expect(isVariantName('b')).toBe(true);
    expect(isVariantName('spring26')).toBe(true);
    expect(isVariantName('a')).toBe(false);
    expect(isVariantName('deny')).toBe(false);
    expect(isVariantName('B')).toBe(false);
    expect(isVariantName('b-1')).toBe(false);
    expect(isVariantName('x'.repeat(17))).toBe(false);
  });
});
