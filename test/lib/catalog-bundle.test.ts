// The Wasm build stores every catalog but English as one string (lib/catalog-bundle.ts), and the room
// parses it on a sandbox's first answer in that language: what it parses must be the catalog as the
// source writes it, every message under its own key, the language's facts unchanged.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogModuleText } from '../../lib/catalog-bundle.js';
import { repoRoot } from '../../lib/paths.js';
import { catalogFromMessages, localeByTag } from '../../src/core/i18n/locales.js';

const dir = join(repoRoot, 'src', 'core', 'i18n', 'catalogs');
const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'en-US.ts');

describe('a catalog as the Wasm build stores it', () => {
  it('covers every language but English', () => {
    expect(files).toHaveLength(37);
  });

  it.each(files)('%s reads back as the source catalog', async (file) => {
    const text = await catalogModuleText(join(dir, file));
    const module = (await import(`data:text/javascript,${encodeURIComponent(text)}`)) as {
      info: unknown;
      messages: string;
    };
    const locale = localeByTag(file.slice(0, -'.ts'.length))!;
    expect(module.info).toEqual(locale.info);
    expect(catalogFromMessages(module.messages)).toEqual(locale.catalog);
    // One string: the heap holds one object for the whole catalog until a visitor reads the language.
    expect(typeof module.messages).toBe('string');
  });
});
