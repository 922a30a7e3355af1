// Each value a request reads, judged as the edge reads it (src/core/settings/ over the store as it
// would be after the write), in every scope that reads it: the service-wide settings alone (a
// request no room decides) and each room. A problem names the scope it comes from: a value the room
// compares with another (proof_seconds with wait_period_duration, event_end with event_start) may
// conflict only in a room whose own value differs, and the refusal must say so, naming the value
// compared and where it lives, or the operator looks for the fault in the wrong place.
import { settingsTable, SETTINGS_KEY } from '../src/core/settings/index.js';
import type { StoreData } from '../lib/json-store.js';
import { mergedSettings, roomSettings, storeRooms } from '../lib/room-store.js';
import { scopeLabel } from './tune-scope.js';

/** A value another value was compared with, and the store key it came from (undefined: its default). */
export interface Compared {
  setting: string;
  key: string | undefined;
  value: string;
}

export interface Judged {
  /** The request wrote this value: a refusal; else a warning about a value already there. */
  changed: boolean;
  /** The setting (null: the store value as a whole). */
  setting: string | null;
  storeKey: string;
  value: string;
  /** What the value must be, and what the room does instead. */
  need: string;
  fallback: string;
  /** The room whose own values make the problem; null: it is the service-wide values' own. */
  room: string | null;
  compared: Compared[];
}

const NAMED = settingsTable.map((s) => s.key).filter((key) => key.includes('_'));
/** Settings a problem compares with without naming them by key. */
const COMPARED_UNNAMED: Readonly<Record<string, readonly string[]>> = { default_language: ['languages'] };

/** The other settings a problem's text compares its value with. */
function comparedSettings(setting: string | null, need: string): string[] {
  const named = NAMED.filter((key) => key !== setting && new RegExp(`\\b${key}\\b`).test(need));
  return [...named, ...(setting === null ? [] : (COMPARED_UNNAMED[setting] ?? []))];
}

/** The room a store key is one of (`room.shop`, `room.shop.live`, ...), or null (`settings`). */
export function roomOfKey(key: string | undefined): string | null {
  return key === undefined ? null : (/^room\.([^.]+)/.exec(key)?.[1] ?? null);
}

/**
 * Every problem a request in each scope would meet after the writes; `changed` when the request
 * wrote the value (the setting is asked and its store key written).
 */
export function judgeScopes(
  next: StoreData,
  room: string | null,
  asked: ReadonlyMap<string, string>,
  written: Readonly<Record<string, string>>,
): Judged[] {
  const scopes = room !== null ? [room] : [null, ...storeRooms(next)];
  const judged: Judged[] = [];
  for (const scope of scopes) {
    const merged = mergedSettings(next, scope);
    for (const p of roomSettings(next, scope).problems) {
      // The room's problems are values: the setting (null: the store value as a whole), the store key
      // it was read from, what it must be and what the room does instead.
      const setting = p.key;
      const storeKey = p.scope ?? SETTINGS_KEY;
      // A request no room decides reads the service-wide settings for its log line alone.
      if (scope === null && setting === 'allow_percentage' && p.value === '') continue;
      const need = p.reason;
      const fallback = p.instead;
      const compared = comparedSettings(setting, need).map((s) => ({
        setting: s,
        key: merged.from[s],
        value: merged.values[s] ?? defaultOf(s),
      }));
      const own = roomOfKey(storeKey) !== null || compared.some((c) => roomOfKey(c.key) !== null);
      judged.push({
        // A problem without a value is about a setting left unset (`key=` removes it, and the next
        // place's value or the default applies): a warning, never a refusal of what was written.
        changed: p.value !== '' && setting !== null && asked.has(setting) && Object.hasOwn(written, storeKey),
        setting,
        storeKey,
        value: p.value,
        need,
        fallback,
        room: own ? scope : null,
        compared,
      });
    }
  }
  return judged;
}

const defaultOf = (setting: string): string => settingsTable.find((s) => s.key === setting)?.default ?? '';

/** `room checkout's own wait_period_duration, "5" (room.checkout)`. */
function comparedText(c: Compared): string {
  if (c.key === undefined)
    return c.value === '' ? `${c.setting}, unset everywhere` : `${c.setting}'s default, "${c.value}"`;
  return `${c.key === SETTINGS_KEY ? 'the service-wide' : scopeLabel(c.key)} ${c.setting}, "${c.value}" (${c.key})`;
}

/** The line an operator reads: a refusal (the request wrote the value) or a warning (it was there). */
export function judgedText(j: Judged): string {
  const shown = `setting "${j.setting ?? j.storeKey}"${j.value === '' ? '' : ` = "${j.value}"`}`;
  // A value of the room's own already names the room; a service-wide one names where it was judged.
  const where = j.room !== null && roomOfKey(j.storeKey) !== j.room ? `in room ${j.room} ` : '';
  const compared = j.compared.map((c) => `; compared with ${comparedText(c)}`).join('');
  if (j.changed)
    return `refused: ${shown} (${scopeLabel(j.storeKey)}, in ${j.storeKey}): ${where}it ${j.need}${compared}`;
  return `${shown} in ${j.storeKey} is not used as written: ${where}it ${j.need}${compared}${j.fallback === '' ? '' : `; the room falls back: ${j.fallback}`}`;
}
