// The operator's strings for `npm run pages`: `<dir>/strings/TAG.json` files, each a JSON object of
// catalog keys and messages for one built-in language, checked exactly as the edge checks them
// (src/core/i18n/overrides.ts) and refused before anything is written: an unknown language or key, a
// message that does not parse, a plural case the language lacks, an argument the room does not pass,
// a value over the Config Store's limit. Stored compact as `strings.TAG` (or `ROOM.strings.TAG`).
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CONFIG_STORE_VALUE_LIMIT } from '../src/core/settings/index.js';
import { LOCALE_TAGS, localeByTag, checkOverrides, enUS } from '../src/core/i18n/index.js';
import { closest } from '../lib/suggest.js';
import { PAGE_STORE } from '../src/fastly/names.js';

export const STRINGS_DIR = 'strings';

export interface EncodedStrings {
  /** The built-in language's tag, as the store key names it. */
  tag: string;
  file: string;
  /** The keys it overrides. */
  keys: number;
  /** The value stored: the JSON without spaces. */
  value: string;
}

/** The strings files of `dir` (none when it has no strings folder), checked; problems as lines naming the file and key. */
export async function encodeStrings(dir: string): Promise<{ strings: EncodedStrings[]; problems: string[] }> {
  const folder = join(dir, STRINGS_DIR);
  let files: string[];
  try {
    files = (await readdir(folder)).filter((f) => f.endsWith('.json')).sort();
  } catch {
    return { strings: [], problems: [] };
  }
  const strings: EncodedStrings[] = [];
  const problems: string[] = [];
  for (const name of files) {
    const file = join(folder, name);
    const locale = localeByTag(name.slice(0, -'.json'.length));
    if (locale === undefined) {
      problems.push(`${file}: not a built-in language (name the file TAG.json, one of ${LOCALE_TAGS.join(', ')})`);
      continue;
    }
    const raw = await readFile(file, 'utf8');
    let value: string;
    try {
      value = JSON.stringify(JSON.parse(raw));
    } catch (err) {
      problems.push(`${file}: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
      continue;
    }
    const checked = checkOverrides(locale.info.tag, value);
    // The edge ignores a bad entry; this tool refuses the file whole, so it says so, and what a stray key likely meant.
    for (const p of checked.problems) {
      const message = p.message.replace(/; ignoring it$/, '');
      const meant = Object.hasOwn(enUS, p.key) ? [] : closest(p.key, Object.keys(enUS));
      problems.push(`${file}: ${p.key}: ${message}${meant.length > 0 ? `: did you mean ${meant.join(' or ')}?` : ''}`);
    }
    if (value.length > CONFIG_STORE_VALUE_LIMIT) {
      problems.push(
        `${file}: ${value.length} characters without spaces, over the ${CONFIG_STORE_VALUE_LIMIT}-character limit of one ${PAGE_STORE} value; split the overrides or shorten them`,
      );
    }
    if (checked.problems.length === 0 && value.length <= CONFIG_STORE_VALUE_LIMIT) {
      strings.push({ tag: locale.info.tag, file, keys: Object.keys(checked.messages).length, value });
    }
  }
  return { strings, problems };
}
