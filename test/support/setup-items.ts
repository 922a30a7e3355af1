// The items `fastly compute publish` puts in a new service's settings store: fastly.toml's
// [setup.config_stores.waiting_room_config.items], key -> value, as the store then holds them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { repoRoot } from '../../lib/paths.js';
import { CONFIG_STORE } from '../../src/fastly/names.js';

type Items = Record<string, { value: string }>;

export function setupItems(): Record<string, string> {
  const manifest = parse(readFileSync(join(repoRoot, 'fastly.toml'), 'utf8')) as {
    setup: { config_stores: Record<string, { items?: Items }> };
  };
  const items = manifest.setup.config_stores[CONFIG_STORE]?.items ?? {};
  return Object.fromEntries(Object.entries(items).map(([key, item]) => [key, item.value]));
}
