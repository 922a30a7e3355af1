// fastly_geo: the manifest's addresses, and Viceroy's default data for loopback.
import { describe, expect, it } from 'vitest';
import { geo } from '../../../host/src/abi/geo.js';
import { BUFLEN, INVAL, NONE, OK } from '../../../host/src/abi/status.js';
import { harness, snapshot } from './sandbox-fixture.js';

function lookup(h: ReturnType<typeof harness>, address: number[], max = 4096): { status: number; data?: Record<string, unknown>; nw: number } {
  const [ap, al] = h.put(Uint8Array.from(address));
  const buf = h.area(max);
  const nw = h.area(4);
  const status = h.call(geo.lookup, ap, al, buf, max, nw);
  return { status, nw: h.u32(nw), ...(status === OK ? { data: JSON.parse(h.text(buf, h.u32(nw))) as Record<string, unknown> } : {}) };
}

describe('fastly_geo', () => {
  const addresses = { '192.0.2.1': { city: 'Testville', country_code: 'XT' }, '2001:db8::1': { city: 'Sixtown' } };

  it('answers the manifest data of an IPv4 or IPv6 address as JSON', () => {
    const h = harness({ snapshot: snapshot({ geolocation: { useDefaultLoopback: true, addresses } }) });
    expect(lookup(h, [192, 0, 2, 1]).data).toEqual({ city: 'Testville', country_code: 'XT' });
    expect(lookup(h, [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]).data).toEqual({ city: 'Sixtown' });
  });

  it("answers Viceroy's default data for loopback unless the manifest turns it off, and NONE for an unknown address", () => {
    const withDefault = harness({ snapshot: snapshot() });
    expect(lookup(withDefault, [127, 0, 0, 1]).data?.city).toBe('San Francisco');
    expect(lookup(withDefault, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]).data?.city).toBe('San Francisco');
    expect(lookup(withDefault, [198, 51, 100, 9]).status).toBe(NONE);
    const without = harness({ snapshot: snapshot({ geolocation: { useDefaultLoopback: false, addresses: {} } }) });
    expect(lookup(without, [127, 0, 0, 1]).status).toBe(NONE);
  });

  it('answers INVAL for an address that is neither 4 nor 16 bytes, BUFLEN with the size needed', () => {
    const h = harness({ snapshot: snapshot({ geolocation: { useDefaultLoopback: true, addresses } }) });
    expect(lookup(h, [192, 0, 2]).status).toBe(INVAL);
    const small = lookup(h, [192, 0, 2, 1], 4);
    expect(small.status).toBe(BUFLEN);
    expect(small.nw).toBe(JSON.stringify(addresses['192.0.2.1']).length);
  });
});
