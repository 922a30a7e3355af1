// The settings family's door: code outside src/core/settings/ imports from here only. Each setting
// is declared once (declared.ts: default, places, form); config*.ts read a room's values with those
// declarations, layout.ts says where each value lives, problem.ts what a problem is.
export { parseConfig } from './config.js';
export type { Get, Reader } from './config-reader.js';
export {
  type ChoiceSetting,
  declared,
  type Declaration,
  defaultOf,
  type Form,
  MAX_COOKIE_LIFETIME_SECONDS,
  MAX_MESSAGE_CHARS,
  MAX_PERIOD_SECONDS,
  type Place,
  SETTING_NAMES,
  type SettingName,
} from './declared.js';
export { MESSAGE_PREFIX, MESSAGE_TAG_SETTING } from './config-language.js';
export { readStatusBasis, STATUS_SETTINGS, statusBasisText } from './config-status.js';
export { DEFAULT_VARIANT, isVariantName } from './config-variants.js';
export {
  CONTROLLER_KEY,
  DEFAULT_ROOM,
  LIVE_SETTINGS,
  liveKey,
  type MergedSettings,
  mergeRoomSettings,
  percentageKey,
  rawList,
  readRoomRaws,
  ROOM_ID,
  type RoomRaws,
  ROUTING_KEY,
  roomKey,
  SETTINGS_KEY,
  settingName,
  storeFromSettings,
  storeKeyOf,
  storeWrites,
  valueAt,
} from './layout.js';
export {
  describeProblem,
  problemMessage,
  problemPlace,
  problemText,
  type SettingProblem,
  shownProblem,
} from './problem.js';
export { parseRoomConfig, TAKEN_IN_PART, usableRoomSettings } from './room-config.js';
export { readRoomConfig } from './settings-read.js';
export { CONFIG_STORE_VALUE_LIMIT, configValueChars, type SettingInfo, settingsTable } from './settings.js';
export { MAX_PROOF_SECONDS } from './config-proof.js';
export { scheduleEntryAt } from './schedule-entry.js';
export { GENERAL_LANE, LANE_ID, MAX_LANES } from './config-lanes.js';
