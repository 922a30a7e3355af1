// Languages for tests that need a room offering several before every catalog is in: each tag not
// built in becomes the English catalog with `[TAG] ` before every message, so what an answer says
// shows which language it chose. Use from a vi.mock factory of src/core/i18n/locales.js:
//   vi.mock('../../src/core/i18n/locales.js', async (original) => (await import('../support/fake-locales.js')).withFakeLocales(await original()));
import type { Catalog } from '../../src/core/i18n/catalogs/en-US.js';
import type * as Locales from '../../src/core/i18n/locales.js';

type LocalesModule = typeof Locales;

export const FAKE_TAGS = ['de-DE', 'ja-JP', 'zh-TW', 'ar-EG'] as const;

export function withFakeLocales(original: LocalesModule): LocalesModule {
  const english = original.LOCALES[0]!;
  const extra = FAKE_TAGS.filter((tag) => original.localeByTag(tag) === undefined).map((tag) => ({
    ...english,
    info: { ...english.info, tag, name: `name of ${tag}`, dir: tag === 'ar-EG' ? ('rtl' as const) : ('ltr' as const) },
    catalog: Object.fromEntries(Object.entries(english.catalog).map(([k, v]) => [k, k === 'weekdays' || k === 'months' ? v : `[${tag}] ${v}`])) as unknown as Catalog,
  }));
  const LOCALES = [...original.LOCALES, ...extra];
  const byTag = new Map(LOCALES.map((l) => [l.info.tag.toLowerCase(), l]));
  return { ...original, LOCALES, LOCALE_TAGS: LOCALES.map((l) => l.info.tag), localeByTag: (tag: string) => byTag.get(tag.toLowerCase()) };
}
