// [local_server.device_detection]: the device data a lookup answers for each user agent.
import { describe, expect, it } from 'vitest';
import { readDeviceDetection } from '../../../host/src/manifest/device-detection.js';
import { readerWith, refusedKey } from './support.js';

describe('[local_server.device_detection]', () => {
  it('reads user agents inline or from a JSON file; none without the section', () => {
    const inline = readDeviceDetection(
      { format: 'inline-toml', user_agents: { 'UA/1': { device: { name: 'Phone' } } } },
      readerWith(),
    );
    expect(inline).toEqual({ 'UA/1': { device: { name: 'Phone' } } });
    const json = readDeviceDetection(
      { format: 'json', file: 'd.json' },
      readerWith({ 'd.json': '{"UA/2":{"device":{"name":"Tablet"}}}' }),
    );
    expect(json['UA/2']).toEqual({ device: { name: 'Tablet' } });
    expect(readDeviceDetection(undefined, readerWith())).toEqual({});
  });

  it.each([
    ['an unknown format', { format: 'yaml' }, 'local_server.device_detection.format'],
    ['inline-toml without user agents', { format: 'inline-toml' }, 'local_server.device_detection.user_agents'],
    [
      'an entry that is not a table',
      { format: 'inline-toml', user_agents: { 'UA/1': 'phone' } },
      'local_server.device_detection.user_agents.UA/1',
    ],
  ])('refuses %s, naming the key', (_what, raw, key) => {
    expect(refusedKey(() => readDeviceDetection(raw, readerWith()))).toBe(key);
  });
});
