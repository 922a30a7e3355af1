// Which variant of the waiting page a visitor sees, in an A/B test (setting `page_variants`): chosen
// from their token's `sub`, the keyed identity hash every token of theirs carries, so a visitor keeps
// one variant through every check, lost draw and new token, and a first visit gets the variant of the
// token its answer sets. Only the two waiting pages have variants; the countdown and the deny page are
// the same for all. A variant's page is read under its own key instead of the plain one: the same one
// store read as without a test.
import { DEFAULT_VARIANT } from '../settings/index.js';
import { decodeBase64url } from '../tokens/index.js';
import type { PageName, PageVariant } from '../types.js';
import { WAITING_PAGES } from './page-variants.js';

/**
 * Where in [0, 1) a `sub` falls, from bytes 6 to 11 of the hash: the first six order a first-come
 * queue's arrivals within a second (decision/position.ts), and the variant must not follow that order,
 * or one variant would always stand ahead of the other among those who came in the same second.
 */
export function variantFraction(sub: string): number {
  let bytes: Uint8Array;
  try {
    bytes = decodeBase64url(sub);
  } catch {
    bytes = new Uint8Array(0);
  }
  if (bytes.length < 12) {
    // Never from a token the room made (16 bytes); FNV-1a of the text keeps the answer stable anyway.
    let h = 0x811c9dc5;
    for (let i = 0; i < sub.length; i++) h = Math.imul(h ^ sub.charCodeAt(i), 0x01000193) >>> 0;
    return h / 2 ** 32;
  }
  let n = 0;
  for (let i = 6; i < 12; i++) n = n * 256 + bytes[i]!;
  return n / 2 ** 48;
}

/** The variant of `variants` (weights > 0) that a visitor whose tokens carry `sub` sees. */
export function chooseVariant(variants: readonly PageVariant[], sub: string): string {
  const total = variants.reduce((sum, v) => sum + v.weight, 0);
  const at = variantFraction(sub) * total;
  let edge = 0;
  for (const v of variants) {
    edge += v.weight;
    if (at < edge) return v.name;
  }
  return variants[variants.length - 1]!.name;
}

/**
 * The variant a visitor whose tokens carry `sub` sees (the token this answer leaves them with); null
 * when the room runs no test, or the visitor holds no token (the plain pages, and no variant to name).
 */
export function visitorVariant(variants: readonly PageVariant[], sub: string | null | undefined): string | null {
  if (variants.length === 0 || sub === null || sub === undefined) return null;
  return chooseVariant(variants, sub);
}

/** Whether page `name` has variants (the two waiting pages). */
export const hasVariants = (name: PageName): boolean => WAITING_PAGES.includes(name);

/**
 * The `waiting_room_pages` key of page `name` in the room's page set (`pages`, null for the shared
 * one) for `variant`: `NAME`, `PAGES.NAME`, and a variant's `NAME.VARIANT`, `PAGES.NAME.VARIANT`.
 * `variant` null, or the plain pages' own (`a`), or a page without variants: the plain key.
 */
export function variantPageKey(name: PageName, pages: string | null, variant: string | null): string {
  const base = pages === null ? name : `${pages}.${name}`;
  return variant === null || variant === DEFAULT_VARIANT || !hasVariants(name) ? base : `${base}.${variant}`;
}
