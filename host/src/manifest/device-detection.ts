// `[local_server.device_detection]`: the device data a lookup answers for each user agent, read as
// Viceroy reads it: `format = "inline-toml"` with a `user_agents` table, or `format = "json"` with a
// `file` holding an object of user agents. Without the section, every lookup answers "none".
import { ConfigError, isTable, type Reader } from './reader.js';

type Table = Record<string, unknown>;

export function readDeviceDetection(raw: unknown, reader: Reader): Record<string, Table> {
  const key = 'local_server.device_detection';
  if (raw === undefined) return {};
  if (!isTable(raw)) throw new ConfigError(key, 'expected a table');
  let entries: unknown;
  if (raw.format === 'inline-toml') {
    if (raw.user_agents === undefined)
      throw new ConfigError(`${key}.user_agents`, 'is missing: inline-toml needs a table of user agents');
    entries = raw.user_agents;
  } else if (raw.format === 'json') {
    entries = reader.json(`${key}.file`, raw.file);
  } else if (raw.format === undefined) {
    return {};
  } else {
    throw new ConfigError(`${key}.format`, `expected "inline-toml" or "json", got ${JSON.stringify(raw.format)}`);
  }
  if (!isTable(entries)) throw new ConfigError(`${key}.user_agents`, 'expected a table of user agents');
  const out: Record<string, Table> = {};
  for (const [agent, data] of Object.entries(entries)) {
    if (!isTable(data)) throw new ConfigError(`${key}.user_agents.${agent}`, 'expected a table of device fields');
    out[agent] = data;
  }
  return out;
}
