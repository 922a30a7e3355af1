// fastly_device_detection: the data `[local_server.device_detection]` gives one exact user agent.
import { describe, expect, it } from 'vitest';
import { deviceDetection } from '../../../host/src/abi/device-detection.js';
import { INVAL, NONE, OK } from '../../../host/src/guest/status.js';
import { Guest, OUTSIDE } from './sandbox-fixture.js';

const PHONE = { device: { name: 'Phone', is_mobile: true } };
const guest = () =>
  new Guest({ manifest: { deviceDetection: { 'UA/1 (phone)': PHONE, 'Bröwser/2': { device: { name: 'Ü' } } } } });

describe('fastly_device_detection.lookup', () => {
  it("answers the listed user agent's data as JSON", () => {
    const g = guest();
    const out = g.buffer(256);
    expect(g.call(deviceDetection, 'lookup', ...g.str('UA/1 (phone)'), ...out.args)).toBe(OK);
    expect(JSON.parse(out.text())).toEqual(PHONE);
    expect(out.written()).toBe(JSON.stringify(PHONE).length);
  });

  it('matches a user agent by its UTF-8 text', () => {
    const g = guest();
    const out = g.buffer(256);
    expect(g.call(deviceDetection, 'lookup', ...g.str('Bröwser/2'), ...out.args)).toBe(OK);
    expect(JSON.parse(out.text())).toEqual({ device: { name: 'Ü' } });
  });

  it('answers NONE for any other user agent, as Viceroy does, case and spacing included', () => {
    const g = guest();
    for (const ua of ['ua/1 (phone)', 'UA/1 (phone) ', '', 'curl/8'])
      expect(g.call(deviceDetection, 'lookup', ...g.str(ua), ...g.buffer(256).args), ua).toBe(NONE);
  });

  it('answers NONE for a user agent named like an object property', () => {
    const g = guest();
    expect(g.call(deviceDetection, 'lookup', ...g.str('constructor'), ...g.buffer(256).args)).toBe(NONE);
  });

  it('answers BUFLEN with the size needed when the JSON does not fit', () => {
    const g = guest();
    g.fitsExactly(JSON.stringify(PHONE).length, (out) =>
      g.call(deviceDetection, 'lookup', ...g.str('UA/1 (phone)'), ...out),
    );
  });

  it('answers INVAL for a user agent or buffer outside guest memory', () => {
    const g = guest();
    expect(g.call(deviceDetection, 'lookup', OUTSIDE, 4, ...g.buffer(8).args)).toBe(INVAL);
    const out = g.buffer(8);
    expect(g.call(deviceDetection, 'lookup', ...g.str('UA/1 (phone)'), OUTSIDE, 256, out.nw)).toBe(INVAL);
  });
});
