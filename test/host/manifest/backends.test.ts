// [local_server.backends]: each backend's address, TLS settings and timeouts.
import { describe, expect, it } from 'vitest';
import { readBackends } from '../../../host/src/manifest/backends.js';
import { readerWith, refusedKey } from './support.js';

describe('[local_server.backends]', () => {
  it('reads a URL into host, port and path prefix, with the default timeouts', () => {
    const b = readBackends({ origin: { url: 'http://127.0.0.1:8080/base' } }, readerWith()).origin!;
    expect(b).toMatchObject({
      protocol: 'http:',
      hostname: '127.0.0.1',
      port: 8080,
      pathPrefix: '/base',
      connectTimeoutMs: 1000,
      firstByteTimeoutMs: 15000,
      betweenBytesTimeoutMs: 10000,
    });
  });

  it('keeps override_host and explicit timeouts', () => {
    const b = readBackends(
      { api: { url: 'https://api.example', override_host: 'x.example', first_byte_timeout_ms: 200 } },
      readerWith(),
    ).api!;
    expect(b).toMatchObject({ protocol: 'https:', port: 443, overrideHost: 'x.example', firstByteTimeoutMs: 200 });
  });

  it.each([
    ['a url of the wrong type', { origin: { url: 42 } }, 'local_server.backends.origin.url'],
    ['an unknown key', { origin: { url: 'http://a', colour: 'red' } }, 'local_server.backends.origin.colour'],
    [
      'a negative timeout',
      { origin: { url: 'http://a', connect_timeout_ms: -1 } },
      'local_server.backends.origin.connect_timeout_ms',
    ],
    ['a backend that is not a table', { origin: 'http://a' }, 'local_server.backends.origin'],
  ])('refuses %s, naming the key', (_what, raw, key) => {
    expect(refusedKey(() => readBackends(raw, readerWith()))).toBe(key);
  });
});
