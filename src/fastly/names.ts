// Every name the service must provide, in one place: fastly.toml's [local_server] and [setup] use the same.
export const CONFIG_STORE = 'waiting_room_config';
export const KEY_STORE = 'waiting_room_keys';
export const PAGE_STORE = 'waiting_room_pages';
export const ORIGIN_BACKEND = 'origin';
/** The edge rate limiter's counter for `pop_admissions_per_second` (per POP). */
export const ADMISSION_COUNTER = 'waiting_room_admissions';
/**
 * The edge rate limiter's penalty box for `hammer_limit` (per POP). Its checks are counted in
 * ADMISSION_COUNTER, under each token's signature (entries that never meet `admitted` or `held`).
 */
export const HAMMER_BOX = 'waiting_room_hammering';
/** `log_endpoint` value that prints decision lines on stdout, where `fastly log-tail` shows them. */
export const STDOUT_LOG = 'stdout';
