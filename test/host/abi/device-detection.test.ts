// fastly_device_detection: the data the manifest gives one exact user agent.
import { describe, expect, it } from 'vitest';
import { deviceDetection } from '../../../host/src/abi/device-detection.js';
import { BUFLEN, NONE, OK } from '../../../host/src/abi/status.js';
import { harness, snapshot } from './sandbox-fixture.js';

const phone = { device: { name: 'Test Phone', is_mobile: true } };
const h = () => harness({ snapshot: snapshot({ deviceDetection: { 'TestPhone/1.0': phone } }) });

describe('fastly_device_detection', () => {
  it('answers the listed user agent with its data as JSON', () => {
    const t = h();
    const [p, l] = t.put('TestPhone/1.0');
    const buf = t.area(256);
    const nw = t.area(4);
    expect(t.call(deviceDetection.lookup, p, l, buf, 256, nw)).toBe(OK);
    expect(JSON.parse(t.text(buf, t.u32(nw)))).toEqual(phone);
  });

  it('answers NONE for any other user agent, even one that differs only in case', () => {
    const t = h();
    for (const agent of ['testphone/1.0', 'Mozilla/5.0', '']) {
      const [p, l] = t.put(agent);
      expect(t.call(deviceDetection.lookup, p, l, t.area(256), 256, t.area(4))).toBe(NONE);
    }
  });

  it('answers BUFLEN with the length needed', () => {
    const t = h();
    const [p, l] = t.put('TestPhone/1.0');
    const nw = t.area(4);
    expect(t.call(deviceDetection.lookup, p, l, t.area(8), 8, nw)).toBe(BUFLEN);
    expect(t.u32(nw)).toBe(JSON.stringify(phone).length);
  });
});
