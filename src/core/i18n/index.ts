export * from './catalogs/en-US.js';
export * from './locales.js';
export * from './message.js';
export * from './negotiate.js';
export * from './overrides.js';
export * from './page-language.js';
export * from './page-text.js';
export * from './strings.js';
