// A value the room could not use as written is a problem: a value, not a sentence, so the edge's log,
// the controller and `npm run tune` each say it their way without taking a message apart again. Text
// is made from it only where it is shown (describeProblem for the edge's diagnostics).
import type { SettingProblem } from '../types.js';

export type { SettingProblem } from '../types.js';

/** A problem of a setting read from one flat set of values (parseConfig), not yet placed. */
export const settingProblem = (key: string, value: string, reason: string, instead: string): SettingProblem => ({
  key,
  scope: null,
  value,
  reason,
  instead,
});

/** Where a problem is, as the log names it: `room.shop: allow_percentage`, `settings`, or the setting alone. */
export function problemPlace(p: SettingProblem): string {
  if (p.scope === null) return p.key ?? '';
  return p.key === null ? p.scope : `${p.scope}: ${p.key}`;
}

/** What the value must be, then what the room does instead: `must be ...; using 30`. */
export const problemMessage = (p: SettingProblem): string =>
  p.instead === '' ? p.reason : `${p.reason}; ${p.instead}`;

/** `room.shop: allow_percentage: must be ...; using 30`: where it is, then the message. */
export const problemText = (p: SettingProblem): string => `${problemPlace(p)}: ${problemMessage(p)}`;

/** A problem as one record of text: where it is, the value, and the message. */
export const shownProblem = (p: SettingProblem): { key: string; value: string; message: string } => ({
  key: problemPlace(p),
  value: p.value,
  message: problemMessage(p),
});

/** One line per problem, for deps.diag. */
export function describeProblem(p: SettingProblem): string {
  return `waiting_room_config: ${problemPlace(p)}${p.value === '' ? '' : ` = "${p.value}"`} ${problemMessage(p)}`;
}
