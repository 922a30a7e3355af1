// A service as the project deploys it, in the stand-in: the three stores the code opens
// (waiting_room_config, waiting_room_keys, waiting_room_pages) linked to a service with one active
// version, the config store holding `config` (e.g. local/config.json's items).
import { randomBytes } from 'node:crypto';
import { CONFIG_STORE, KEY_STORE, PAGE_STORE } from '../src/fastly/names.js';
import type { FastlyApi } from './server.js';

export interface SeededService {
  serviceId: string;
  configStoreId: string;
  secretStoreId: string;
  pageStoreId: string;
}

export function seedService(
  api: Pick<FastlyApi, 'config' | 'secrets' | 'services'>,
  options: {
    serviceId?: string;
    config?: Record<string, string>;
    pages?: Record<string, string>;
    secrets?: string[];
  } = {},
): SeededService {
  const serviceId = options.serviceId ?? 'SVC';
  const config = api.config.create(CONFIG_STORE, `${serviceId}-config`);
  const pages = api.config.create(PAGE_STORE, `${serviceId}-pages`);
  const keys = api.secrets.create(KEY_STORE, `${serviceId}-keys`);
  api.config.seed(config.id, options.config ?? {});
  api.config.seed(pages.id, options.pages ?? {});
  for (const name of options.secrets ?? []) {
    // A usable signing key, as `npm run keys` makes one: 64 random bytes, base64.
    const key = randomBytes(64).toString('base64');
    api.secrets.putSecret(keys.id, 'PUT', { name, secret: Buffer.from(key).toString('base64') });
  }
  api.services.create(serviceId, [
    { name: CONFIG_STORE, resource_id: config.id, resource_type: 'config' },
    { name: PAGE_STORE, resource_id: pages.id, resource_type: 'config' },
    { name: KEY_STORE, resource_id: keys.id, resource_type: 'secret-store' },
  ]);
  return { serviceId, configStoreId: config.id, secretStoreId: keys.id, pageStoreId: pages.id };
}
