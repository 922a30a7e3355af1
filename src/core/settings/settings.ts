// The Config Store's limit on one value, and the declared settings (declared.ts) as a list, for the
// code that walks every setting in order.
import { declared, type Place, SETTING_NAMES } from './declared.js';

/**
 * The most characters one Config Store value holds (Fastly's limit, and Viceroy's): each setting and
 * each base64 page template must fit (the keys live in a Secret Store, which has its own limits).
 */
export const CONFIG_STORE_VALUE_LIMIT = 8000;

/**
 * A value's length as the limit counts it: in characters, that is code points (as Viceroy and the
 * local host count Fastly's 8,000), so an emoji, two UTF-16 units, is one. The one count the edge,
 * `npm run tune` and the host share.
 */
export function configValueChars(value: string): number {
  let n = value.length;
  for (let i = 1; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) {
      const p = value.charCodeAt(i - 1);
      if (p >= 0xd800 && p <= 0xdbff) n--;
    }
  }
  return n;
}

export interface SettingInfo {
  key: string;
  /** The default as an operator would write it; '' means "none". */
  default: string;
  /** Where a value of it may be written. */
  places: readonly Place[];
}

/** Every setting the room reads, in the declared order: docs/configuration.md's settings table lists them so. */
export const settingsTable: readonly SettingInfo[] = SETTING_NAMES.map((key) => ({
  key,
  default: declared[key].default,
  places: declared[key].places,
}));
