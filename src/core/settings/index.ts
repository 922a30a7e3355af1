// The settings family's door: code outside src/core/settings/ imports from here only. What each
// setting is (its name, default, places and check) is declared once in declared.ts; config*.ts read
// a room's values with it, layout.ts says where each value lives, problem.ts what a problem is.
export {
  describeProblem,
  parseConfig,
  parseRoomConfig,
  TAKEN_IN_PART,
  usableRoomSettings,
} from './config.js';
export type { Get, Reader } from './config-reader.js';
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
export { readRoomConfig } from './settings-read.js';
export {
  CONFIG_STORE_VALUE_LIMIT,
  configValueChars,
  MAX_COOKIE_LIFETIME_SECONDS,
  MAX_MESSAGE_CHARS,
  MAX_PERIOD_SECONDS,
  type SettingInfo,
  settingsTable,
} from './settings.js';
