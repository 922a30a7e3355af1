// The built-in catalogs as the Wasm build stores them: English as the source writes it (compiled into
// the snapshot at build time), every other language as one string, a JSON array of its messages in
// the English catalog's key order, that src/core/i18n/locales.ts parses on the first answer in that
// language. The runtime collects the sandbox's whole heap after every request and each string held is
// one object to it: a catalog as an object literal was about ninety, in every request of any language.
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';
import { enUS, type CatalogModule } from '../src/core/i18n/index.js';

/** The module text a catalog file is bundled as: its `info`, and its messages as one JSON string. */
export async function catalogModuleText(file: string): Promise<string> {
  const module = (await import(pathToFileURL(file).href)) as CatalogModule;
  if (!('catalog' in module)) throw new Error(`${file}: exports no catalog`);
  const messages = (Object.keys(enUS) as (keyof typeof enUS)[]).map((key) => module.catalog[key]);
  return `export const info = ${JSON.stringify(module.info)};\nexport const messages = ${JSON.stringify(JSON.stringify(messages))};\n`;
}

/** esbuild: every catalog but English (src/core/i18n/catalogs/TAG.ts) loaded as catalogModuleText. */
export const catalogPlugin: Plugin = {
  name: 'catalogs-as-text',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]core[\\/]i18n[\\/]catalogs[\\/][a-z]{2,3}-[A-Z]{2}\.ts$/ }, async (args) =>
      args.path.endsWith('en-US.ts') ? undefined : { contents: await catalogModuleText(args.path), loader: 'js' },
    );
  },
};
