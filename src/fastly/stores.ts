/// <reference types="@fastly/js-compute" />
// The three stores as the core's `Stores`. Opening a store that the service lacks throws; that must
// cost the operator a diagnostic, not the visitor a crash, so a missing store reads as empty.
import { ConfigStore } from 'fastly:config-store';
import { SecretStore } from 'fastly:secret-store';
import type { PageName, Stores } from '../core/types.js';
import { CONFIG_STORE, KEY_STORE, PAGE_STORE } from './names.js';

function open<T>(name: string, make: () => T, diag: (m: string) => void): T | null {
  try {
    return make();
  } catch (error) {
    diag(`store "${name}" could not be opened (${String(error)}); treating it as empty`);
    return null;
  }
}

function read<T>(name: string, key: string, get: () => T, diag: (m: string) => void): T | null {
  try {
    return get();
  } catch (error) {
    // Invalid key names (a token's kid is visitor-chosen) also land here.
    diag(`store "${name}": reading "${key}" failed (${String(error)})`);
    return null;
  }
}

export function fastlyStores(diag: (m: string) => void): Stores {
  let config: ConfigStore | null | undefined;
  let pages: ConfigStore | null | undefined;
  let keys: SecretStore | null | undefined;
  return {
    // Every setting is read on every request, so no closure per read here.
    setting(key) {
      if (config === undefined) config = open(CONFIG_STORE, () => new ConfigStore(CONFIG_STORE), diag);
      if (config === null) return null;
      try {
        return config.get(key);
      } catch (error) {
        diag(`store "${CONFIG_STORE}": reading "${key}" failed (${String(error)})`);
        return null;
      }
    },
    async key(kid) {
      if (keys === undefined) keys = open(KEY_STORE, () => new SecretStore(KEY_STORE), diag);
      const store = keys;
      if (store === null) return null;
      try {
        const entry = await store.get(kid);
        return entry === null ? null : entry.plaintext();
      } catch (error) {
        diag(`store "${KEY_STORE}": reading "${kid.slice(0, 64)}" failed (${String(error)})`);
        return null;
      }
    },
    page(name: PageName) {
      if (pages === undefined) pages = open(PAGE_STORE, () => new ConfigStore(PAGE_STORE), diag);
      const store = pages;
      return store === null ? null : read(PAGE_STORE, name, () => store.get(name), diag);
    },
  };
}
