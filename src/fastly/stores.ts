/// <reference types="@fastly/js-compute" />
// The three stores as the core's `Stores`, and the one place their failures are caught: the core
// trusts what it reads here. Opening a store that the service lacks throws; that must cost the
// operator a diagnostic, not the visitor a crash, so a missing store reads as empty, and is
// reported once per sandbox (a service's stores are fixed for its version). A read that fails (a
// token's kid is visitor-chosen, and a name the store refuses throws) reads as absent, and says so.
import { ConfigStore } from 'fastly:config-store';
import { SecretStore } from 'fastly:secret-store';
import type { SandboxMemory } from '../core/memory/index.js';
import type { Stores } from '../core/types.js';
import { CONFIG_STORE, KEY_STORE, PAGE_STORE } from './names.js';

type Diag = (message: string) => void;

function open<T>(name: string, make: () => T, diag: Diag, memory: SandboxMemory | undefined): T | null {
  try {
    return make();
  } catch (error) {
    if (!memory || memory.firstTime(`store ${name} cannot be opened`)) {
      diag(`store "${name}" could not be opened (${String(error)}); treating it as empty`);
    }
    return null;
  }
}

function readFailed(name: string, key: string, error: unknown, diag: Diag): null {
  diag(`store "${name}": reading "${key.slice(0, 64)}" failed (${String(error)}); treating it as absent`);
  return null;
}

/** One Config Store read; the store and key passed in, so a read allocates no closure. */
function configGet(store: ConfigStore, name: string, key: string, diag: Diag): string | null {
  try {
    return store.get(key);
  } catch (error) {
    return readFailed(name, key, error, diag);
  }
}

/** The stores for one request; `memory` is the sandbox's, which remembers what was reported. */
export function fastlyStores(diag: Diag, memory?: SandboxMemory): Stores {
  let config: ConfigStore | null | undefined;
  let pages: ConfigStore | null | undefined;
  let keys: SecretStore | null | undefined;
  /** Why a read of waiting_room_config failed in this request (the status answers 503 for it). */
  let failed: string | null = null;
  return {
    // Every setting is read on every request, so no closure per read here.
    setting(key) {
      if (config === undefined) config = open(CONFIG_STORE, () => new ConfigStore(CONFIG_STORE), diag, memory);
      if (config === null) {
        failed = `store "${CONFIG_STORE}" could not be opened`;
        return null;
      }
      try {
        return config.get(key);
      } catch (error) {
        failed = `reading "${key.slice(0, 64)}" from store "${CONFIG_STORE}" failed`;
        return readFailed(CONFIG_STORE, key, error, diag);
      }
    },
    settingFailure: () => failed,
    async key(kid) {
      if (keys === undefined) keys = open(KEY_STORE, () => new SecretStore(KEY_STORE), diag, memory);
      if (keys === null) return null;
      try {
        const entry = await keys.get(kid);
        return entry === null ? null : entry.plaintext();
      } catch (error) {
        return readFailed(KEY_STORE, kid, error, diag);
      }
    },
    page(key: string) {
      if (pages === undefined) pages = open(PAGE_STORE, () => new ConfigStore(PAGE_STORE), diag, memory);
      return pages === null ? null : configGet(pages, PAGE_STORE, key, diag);
    },
  };
}
