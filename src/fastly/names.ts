// Every name the service must provide, in one place: fastly.toml's [local_server] and [setup] use the same.
export const CONFIG_STORE = 'waiting_room_config';
export const KEY_STORE = 'waiting_room_keys';
export const PAGE_STORE = 'waiting_room_pages';
export const ORIGIN_BACKEND = 'origin';
