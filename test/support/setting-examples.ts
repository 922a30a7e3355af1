// One value the room uses and one it cannot, for every setting of settingsTable: what the tests of
// settings across the store's places walk. `bad` is null for a setting that takes any text.
import { type SettingName, settingsTable } from '../../src/core/settings/index.js';

export interface SettingExample {
  good: string;
  bad: string | null;
}

const TOO_LONG = 'x'.repeat(501);

/** Typed over the declared names: a setting declared without its examples fails the type-check. */
export const settingExamples: Readonly<Record<string, SettingExample>> = {
  enabled: { good: 'false', bad: 'maybe' },
  allow_percentage: { good: '30', bad: '5%' },
  allow_period_duration: { good: '600', bad: '1.5' },
  wait_period_duration: { good: '20', bad: 'soon' },
  cookie_lifetime: { good: '86400', bad: '0' },
  active_key: { good: 'key2', bad: null },
  log_endpoint: { good: 'room_log', bad: null },
  log_sample_rate: { good: '0.5', bad: '2' },
  identity: { good: 'header:x-visitor', bad: 'cookie' },
  waiting_status: { good: '503', bad: '404' },
  cookie_secure: { good: 'true', bad: 'always' },
  cookie_samesite: { good: 'Strict', bad: 'Loose' },
  jwt_jwks: { good: '{"keys":[{"kty":"EC","crv":"P-256","x":"x","y":"y","kid":"a"}]}', bad: 'not json' },
  jwt_issuer: { good: 'https://id.example', bad: null },
  jwt_audience: { good: 'shop', bad: null },
  allow_schedule: { good: '1800000000=20', bad: 'soon=5' },
  pop_admissions_per_second: { good: '50', bad: '-3' },
  hammer_limit: { good: '30', bad: 'lots' },
  new_users_per_minute: { good: '120', bad: 'many' },
  total_active_users: { good: '1000', bad: '1.5' },
  session_duration: { good: '10', bad: '0' },
  fallback_percentage: { good: '5', bad: '150' },
  target_mode: { good: 'auto', bad: 'autopilot' },
  auto_floor_per_minute: { good: '30', bad: '-5' },
  origin_latency_ms: { good: '500', bad: '0.5' },
  origin_latency_percentile: { good: '95', bad: '100' },
  origin_error_percent: { good: '2', bad: '0' },
  queueing_method: { good: 'fifo', bad: 'lifo' },
  event_prequeue_start: { good: '2026-12-01T09:30:00Z', bad: 'tomorrow' },
  event_start: { good: '2026-12-01T10:00:00Z', bad: 'tomorrow' },
  event_end: { good: '2026-12-01T12:00:00Z', bad: '2026-02-30T10:00:00Z' },
  event_end_action: { good: 'close', bad: 'stop' },
  queue_all: { good: 'true', bad: 'yes' },
  message: { good: 'Back at noon', bad: TOO_LONG },
  'message.TAG': { good: 'お待ちください', bad: TOO_LONG },
  languages: { good: 'de-DE,ja-JP', bad: 'xx-YY' },
  default_language: { good: 'de-DE', bad: 'xx-YY' },
  place_kept_seconds: { good: '300', bad: '86401' },
  queue_cursor: { good: '1800000000:10:2', bad: 'x:y' },
  queue_counts: { good: '10=5,20=9', bad: '20=9,10=5' },
  pages: { good: 'checkout', bad: 'Checkout Pages' },
  page_variants: { good: 'a:3,b:1', bad: 'A B' },
  proof_of_work: { good: 'fixed', bad: 'hard' },
  proof_seconds: { good: '3', bad: '61' },
  proof_free_share: { good: '0.5', bad: '0' },
  bot_queue: { good: 'on', bad: 'yes' },
  proof_schedule: { good: '1800000000=2', bad: '1800000000=99' },
  invite_only: { good: 'true', bad: 'yes' },
  status_basis: { good: '{"at":1800000000,"settings":{"allow_percentage":"30"}}', bad: '{"settings":{}}' },
  lanes: { good: 'members:30,presale:20', bad: 'members:30,general:10' },
  lane_names: { good: 'members:Club members', bad: 'members' },
  lane_schedule: { good: 'members@1800000000=40,general@1800000000=10', bad: 'members@soon=5' },
} satisfies Record<SettingName, SettingExample>;

/** The name a setting is written under: settingsTable's `message.TAG` row stands for each language's. */
export const writtenName = (setting: string): string => (setting === 'message.TAG' ? 'message.ja-JP' : setting);

/** Every setting of settingsTable with its examples; throws for a setting that has none, naming it. */
export function examplesOfEverySetting(): Array<{ setting: string } & SettingExample> {
  return settingsTable.map((s) => {
    const example = settingExamples[s.key];
    if (example === undefined) throw new Error(`setting ${s.key} has no example in test/support/setting-examples.ts`);
    return { setting: s.key, ...example };
  });
}
