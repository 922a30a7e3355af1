// `page_variants`: an A/B test of the waiting page (pages/README.md). Comma-separated variants, each
// `NAME` or `NAME:WEIGHT`; `a` is the plain pages, any other NAME the pages stored as `NAME.VARIANT`.
// A value with any unusable entry is refused whole (no test at all, reported with its key): half a
// test would compare other variants than the operator meant.
import type { Reader } from './config-reader.js';
import type { PageVariant } from '../types.js';

/** The variant the plain pages are: what a visitor gets without a test, or without a token. */
export const DEFAULT_VARIANT = 'a';
/** The most variants a test may have, and the largest weight of one. */
export const MAX_VARIANTS = 8;
export const MAX_VARIANT_WEIGHT = 10_000;
/** Names a variant may not take: its store key would read as a room's page or strings (ROOM.startwaiting). */
const RESERVED = new Set(['startwaiting', 'keepwaiting', 'prequeue', 'deny', 'strings']);
const ENTRY = /^([a-z0-9]{1,16})(?::(\d{1,5}))?$/;

/** A variant name a page file or store key may carry (not `a`, which is the plain pages). */
export const isVariantName = (name: string): boolean =>
  /^[a-z0-9]{1,16}$/.test(name) && !RESERVED.has(name) && name !== DEFAULT_VARIANT;

/** Why `text` is no usable list of variants, or the variants. */
function readVariants(text: string): PageVariant[] | string {
  const variants: PageVariant[] = [];
  for (const part of text.split(',')) {
    const entry = part.trim();
    if (entry === '') continue;
    const m = ENTRY.exec(entry);
    if (m === null)
      return `"${entry.slice(0, 40)}" is not NAME or NAME:WEIGHT (NAME 1-16 lower-case letters and digits)`;
    const name = m[1]!;
    if (RESERVED.has(name)) return `"${name}" is a page's name, not one a variant may take`;
    if (variants.some((v) => v.name === name)) return `names ${name} twice`;
    const weight = m[2] === undefined ? 1 : Number(m[2]);
    if (weight > MAX_VARIANT_WEIGHT) return `gives ${name} a weight over ${MAX_VARIANT_WEIGHT}`;
    variants.push({ name, weight });
  }
  if (variants.length === 0) return 'names no variant';
  if (variants.length > MAX_VARIANTS) return `names more than ${MAX_VARIANTS} variants`;
  if (variants.every((v) => v.weight === 0)) return 'gives every variant a weight of 0';
  return variants;
}

/** The room's variants in the order written, without those of weight 0; empty: no test. */
export function parsePageVariants(r: Reader): readonly PageVariant[] {
  const key = 'page_variants';
  const value = r.raw(key);
  if (value === null) return [];
  const variants = readVariants(value);
  if (typeof variants === 'string') {
    r.problem(key, value.slice(0, 80), variants, `no test: every visitor gets the plain pages (${DEFAULT_VARIANT})`);
    return [];
  }
  return variants.filter((v) => v.weight > 0);
}
