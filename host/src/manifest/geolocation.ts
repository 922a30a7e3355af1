// `[local_server.geolocation]`: what a geolocation lookup answers, by address.
import { isIP } from 'node:net';
import { normalizeIp } from '../ip.js';
import { ConfigError, isTable, type Reader, type Table } from './reader.js';

export interface GeoConfig {
  useDefaultLoopback: boolean;
  addresses: Record<string, Record<string, unknown>>;
}

function geoData(key: string, value: unknown): Record<string, unknown> {
  if (!isTable(value)) throw new ConfigError(key, 'expected a table of geolocation fields');
  return value;
}

export function readGeolocation(raw: unknown, reader: Reader): GeoConfig {
  const geo: GeoConfig = { useDefaultLoopback: true, addresses: {} };
  if (raw === undefined) return geo;
  const key = 'local_server.geolocation';
  if (!isTable(raw)) throw new ConfigError(key, 'expected a table');
  if (raw.use_default_loopback !== undefined) {
    if (typeof raw.use_default_loopback !== 'boolean')
      throw new ConfigError(`${key}.use_default_loopback`, 'expected a boolean');
    geo.useDefaultLoopback = raw.use_default_loopback;
  }
  let entries: Table | undefined;
  if (raw.format === 'inline-toml') {
    if (!isTable(raw.addresses)) throw new ConfigError(`${key}.addresses`, 'expected a table of addresses');
    entries = raw.addresses;
  } else if (raw.format === 'json') {
    const json = reader.json(`${key}.file`, raw.file);
    if (!isTable(json)) throw new ConfigError(`${key}.file`, 'JSON file must hold an object of addresses');
    entries = json;
  } else if (raw.format !== undefined) {
    throw new ConfigError(`${key}.format`, `expected "inline-toml" or "json", got ${JSON.stringify(raw.format)}`);
  }
  for (const [addr, data] of Object.entries(entries ?? {})) {
    if (isIP(addr) === 0) throw new ConfigError(`${key}.addresses.${addr}`, 'not an IP address');
    geo.addresses[normalizeIp(addr)] = geoData(`${key}.addresses.${addr}`, data);
  }
  return geo;
}
