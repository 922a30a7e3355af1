// The data Viceroy answers for a loopback address, which an app developing locally sees as its own.
import { describe, expect, it } from 'vitest';
import { geoDefaultLoopback } from '../../../host/src/abi/geo-default.js';
import { geo } from '../../../host/src/abi/geo.js';
import { OK } from '../../../host/src/guest/status.js';
import { Guest } from './sandbox-fixture.js';

describe('the default loopback geolocation', () => {
  it("is Viceroy's: Fastly's San Francisco office, every field", () => {
    expect(geoDefaultLoopback).toEqual({
      as_name: 'Fastly, Inc',
      as_number: 54113,
      area_code: 415,
      city: 'San Francisco',
      conn_speed: 'broadband',
      conn_type: 'wired',
      continent: 'NA',
      country_code: 'US',
      country_code3: 'USA',
      country_name: 'United States of America',
      latitude: 37.77869,
      longitude: -122.39557,
      metro_code: 0,
      postal_code: '94107',
      proxy_description: '?',
      proxy_type: '?',
      region: 'CA',
      utc_offset: -700,
    });
  });

  it('reaches the guest as that JSON, numbers as numbers', () => {
    const g = new Guest();
    const out = g.buffer(1024);
    expect(g.call(geo, 'lookup', ...g.bytes([127, 0, 0, 1]), ...out.args)).toBe(OK);
    expect(JSON.parse(out.text())).toEqual(geoDefaultLoopback);
    expect(out.text()).toContain('"latitude":37.77869');
  });
});
