// [local_server.geolocation]: what a lookup answers for each address.
import { describe, expect, it } from 'vitest';
import { readGeolocation } from '../../../host/src/manifest/geolocation.js';
import { readerWith, refusedKey } from './support.js';

describe('[local_server.geolocation]', () => {
  it('reads addresses in canonical form, and the loopback default', () => {
    const geo = readGeolocation(
      { format: 'inline-toml', use_default_loopback: false, addresses: { '2001:DB8::1': { city: 'Testville' } } },
      readerWith(),
    );
    expect(geo.useDefaultLoopback).toBe(false);
    expect(geo.addresses['2001:db8::1']).toEqual({ city: 'Testville' });
    expect(readGeolocation(undefined, readerWith()).useDefaultLoopback).toBe(true);
  });

  it.each([
    [
      'an address that is not one',
      { format: 'inline-toml', addresses: { 'not-an-ip': {} } },
      'local_server.geolocation.addresses.not-an-ip',
    ],
    ['an unknown format', { format: 'csv' }, 'local_server.geolocation.format'],
  ])('refuses %s, naming the key', (_what, raw, key) => {
    expect(refusedKey(() => readGeolocation(raw, readerWith()))).toBe(key);
  });
});
