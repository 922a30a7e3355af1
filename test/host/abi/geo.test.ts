// fastly_geo: `[local_server.geolocation]` by address, with Viceroy's data for loopback addresses.
import { describe, expect, it } from 'vitest';
import { geo } from '../../../host/src/abi/geo.js';
import { INVAL, NONE, OK } from '../../../host/src/guest/status.js';
import type { GeoConfig } from '../../../host/src/manifest/geolocation.js';
import { ipToBytes } from '../../../host/src/ip.js';
import { Guest, OUTSIDE } from './sandbox-fixture.js';

const ADDRESSES = {
  '192.0.2.1': { city: 'Testville', as_number: 64496 },
  '2001:db8::1': { city: 'Sixville' },
  '127.0.0.2': { city: 'Home' },
};

function guest(geolocation: Partial<GeoConfig> = {}): Guest {
  return new Guest({ manifest: { geolocation: { useDefaultLoopback: true, addresses: ADDRESSES, ...geolocation } } });
}

/** The status of a lookup of `ip` and the JSON it wrote, parsed. */
function lookup(g: Guest, ip: string, max = 1024): { status: number; data: unknown } {
  const out = g.buffer(max);
  const status = g.call(geo, 'lookup', ...g.bytes(ipToBytes(ip)!), ...out.args);
  return { status, data: status === OK ? JSON.parse(out.text()) : undefined };
}

describe('fastly_geo.lookup', () => {
  it('answers the manifest data of a listed IPv4 or IPv6 address as JSON', () => {
    const g = guest();
    expect(lookup(g, '192.0.2.1')).toEqual({ status: OK, data: { city: 'Testville', as_number: 64496 } });
    expect(lookup(g, '2001:db8:0:0::1')).toEqual({ status: OK, data: { city: 'Sixville' } });
  });

  it("answers Viceroy's default data for any loopback address not listed", () => {
    const g = guest();
    expect(lookup(g, '127.0.0.1').data).toMatchObject({ city: 'San Francisco', as_name: 'Fastly, Inc' });
    expect(lookup(g, '127.9.9.9').data).toMatchObject({ city: 'San Francisco' });
    expect(lookup(g, '::1').data).toMatchObject({ city: 'San Francisco' });
    expect(lookup(g, '127.0.0.2').data).toEqual({ city: 'Home' });
  });

  it('answers NONE where it has no data (Viceroy answers OK with 0 bytes): an unlisted address, loopback without the default', () => {
    expect(lookup(guest({ useDefaultLoopback: false }), '127.0.0.1').status).toBe(NONE);
    expect(lookup(guest(), '::ffff:127.0.0.1').status).toBe(NONE);
    expect(lookup(guest(), '198.51.100.7').status).toBe(NONE);
  });

  it('answers BUFLEN with the size needed when the JSON does not fit', () => {
    const g = guest();
    g.fitsExactly(JSON.stringify(ADDRESSES['192.0.2.1']).length, (out) =>
      g.call(geo, 'lookup', ...g.bytes([192, 0, 2, 1]), ...out),
    );
  });

  it('answers INVAL for an address that is neither 4 nor 16 bytes, as Viceroy does', () => {
    const g = guest();
    expect(g.call(geo, 'lookup', ...g.bytes([192, 0, 2, 1, 0]), ...g.buffer(64).args)).toBe(INVAL);
    expect(g.call(geo, 'lookup', ...g.bytes([]), ...g.buffer(64).args)).toBe(INVAL);
  });

  it('answers INVAL for an address or buffer outside guest memory', () => {
    const g = guest();
    expect(g.call(geo, 'lookup', OUTSIDE, 4, ...g.buffer(64).args)).toBe(INVAL);
    const out = g.buffer(64);
    expect(g.call(geo, 'lookup', ...g.bytes([192, 0, 2, 1]), OUTSIDE, 64, out.nw)).toBe(INVAL);
  });
});
