// Backends a guest registers at run time (fastly_http_req.register_dynamic_backend), read from
// js-compute's DynamicBackendConfig, then asked about and sent to like configured ones.
import { describe, expect, it } from 'vitest';
import { backend } from '../../../host/src/abi/backend.js';
import { httpReq } from '../../../host/src/abi/http-req.js';
import { INVAL, INVALID_HANDLE, OK } from '../../../host/src/guest/status.js';
import type { BackendConfig } from '../../../host/src/manifest/backends.js';
import { backendConfig, downstreamRequest, Guest, OUTSIDE } from './sandbox-fixture.js';

// The bits of the options mask (backend_config_options), by their place in it.
const [HOST_OVERRIDE, CONNECT_TIMEOUT, FIRST_BYTE_TIMEOUT, BETWEEN_BYTES_TIMEOUT, USE_SSL] = [1, 2, 3, 4, 5].map(
  (bit) => 1 << bit,
) as [number, number, number, number, number];
const [CERT_HOSTNAME, CA_CERT, SNI_HOSTNAME] = [8, 9, 11].map((bit) => 1 << bit) as [number, number, number];

const guest = () =>
  new Guest({ manifest: { backends: { origin: backendConfig('origin', 'http://127.0.0.1:8080/') } } });

function register(g: Guest, name: string, target: string, mask = 0, cfg = 0): number {
  return g.call(httpReq, 'register_dynamic_backend', ...g.str(name), ...g.str(target), mask, cfg);
}

/** The backend a send to `name` carries to the main thread. */
function sentTo(g: Guest, name: string): BackendConfig {
  g.handle(httpReq, 'send_async', g.handle(httpReq, 'new'), INVALID_HANDLE, ...g.str(name));
  const post = g.io.posts.at(-1)!;
  if (post.op !== 'send') throw new Error('no send posted');
  return post.backend;
}

describe('register_dynamic_backend', () => {
  it('registers a plain target as http on port 80, which the backend calls then know as dynamic', () => {
    const g = guest();
    expect(register(g, 'dyn', 'example.test')).toBe(OK);
    const host = g.buffer(32);
    g.call(backend, 'get_host', ...g.str('dyn'), ...host.args);
    expect([
      host.text(),
      ...['exists', 'is_dynamic', 'is_ssl'].map((c) => g.callOut(backend, c, ...g.str('dyn')).value),
    ]).toEqual(['example.test', 1, 1, 0]);
    expect(sentTo(g, 'dyn')).toMatchObject({
      url: 'http://example.test/',
      protocol: 'http:',
      port: 80,
      pathPrefix: '/',
    });
  });

  it('takes https from use_ssl, and a port or a bracketed IPv6 address from the target', () => {
    const g = guest();
    register(g, 'tls', 'secure.example', USE_SSL);
    register(g, 'port', 'example.test:8443', USE_SSL);
    register(g, 'v6', '[2001:db8::1]:8080');
    expect(sentTo(g, 'tls')).toMatchObject({ protocol: 'https:', port: 443 });
    expect(sentTo(g, 'port')).toMatchObject({ hostname: 'example.test', port: 8443 });
    expect(sentTo(g, 'v6')).toMatchObject({ hostname: '2001:db8::1', port: 8080 });
  });

  it('reads the options its mask names from the config record', () => {
    const g = guest();
    const [hp, hl] = g.str('override.example');
    const [cp, cl] = g.str('cert.example');
    const [ap, al] = g.str('-----BEGIN CERTIFICATE-----');
    const cfg = g.record(64, { 0: hp, 4: hl, 8: 250, 12: 2500, 16: 500, 28: cp, 32: cl, 36: ap, 40: al });
    const all =
      HOST_OVERRIDE | CONNECT_TIMEOUT | FIRST_BYTE_TIMEOUT | BETWEEN_BYTES_TIMEOUT | USE_SSL | CERT_HOSTNAME | CA_CERT;
    expect(register(g, 'full', 'example.test', all, cfg)).toBe(OK);
    expect(sentTo(g, 'full')).toMatchObject({
      overrideHost: 'override.example',
      connectTimeoutMs: 250,
      firstByteTimeoutMs: 2500,
      betweenBytesTimeoutMs: 500,
      certHost: 'cert.example',
      caCertificates: ['-----BEGIN CERTIFICATE-----'],
    });
    const override = g.buffer(32);
    expect(g.call(backend, 'get_override_host', ...g.str('full'), ...override.args)).toBe(OK);
    expect(override.text()).toBe('override.example');
  });

  it('keeps the default timeouts and no override without the mask bits, or without a config', () => {
    const g = guest();
    register(g, 'plain', 'example.test', 0, g.record(64, { 8: 1, 12: 1, 16: 1 }));
    register(g, 'nocfg', 'example.test', CONNECT_TIMEOUT | HOST_OVERRIDE, 0);
    for (const name of ['plain', 'nocfg']) {
      const b = sentTo(g, name);
      expect([b.connectTimeoutMs, b.firstByteTimeoutMs, b.betweenBytesTimeoutMs, b.overrideHost], name).toEqual([
        1000,
        15000,
        10000,
        undefined,
      ]);
    }
  });

  it('uses the SNI hostname as the certificate host when no certificate hostname is given', () => {
    const g = guest();
    const [sp, sl] = g.str('sni.example');
    const [cp, cl] = g.str('cert.example');
    const cfg = g.record(64, { 28: cp, 32: cl, 52: sp, 56: sl });
    register(g, 'sni', 'example.test', USE_SSL | SNI_HOSTNAME, cfg);
    register(g, 'both', 'example.test', USE_SSL | SNI_HOSTNAME | CERT_HOSTNAME, cfg);
    expect([sentTo(g, 'sni').certHost, sentTo(g, 'both').certHost]).toEqual(['sni.example', 'cert.example']);
  });

  it('lives as long as the sandbox, across the requests it serves', () => {
    const g = guest();
    register(g, 'dyn', 'example.test');
    g.sb.end();
    g.sb.begin(downstreamRequest({ rid: 2 }));
    expect(g.callOut(backend, 'exists', ...g.str('dyn')).value).toBe(1);
  });
});

describe('refused registrations', () => {
  it('answer INVAL for a name already taken, configured (Viceroy: ERROR) or registered, and keep the first', () => {
    const g = guest();
    expect(register(g, 'origin', 'elsewhere.example')).toBe(INVAL);
    register(g, 'dyn', 'first.example');
    expect(register(g, 'dyn', 'second.example')).toBe(INVAL);
    expect([sentTo(g, 'origin').hostname, sentTo(g, 'dyn').hostname]).toEqual(['127.0.0.1', 'first.example']);
  });

  it('answer INVAL for an empty name, a target that is not host[:port], or a port out of range', () => {
    const g = guest();
    const refused: Array<[string, string]> = [
      ['', 'example.test'],
      ['a', 'a:b:c'],
      ['b', 'example.test:0'],
      ['c', 'example.test:65536'],
      ['d', 'example.test:http'],
      ['e', ''],
    ];
    for (const [name, target] of refused) expect(register(g, name, target), `${name} ${target}`).toBe(INVAL);
    expect(g.sb.dynamicBackends.size).toBe(0);
  });

  it('answer INVAL for a name or target outside guest memory', () => {
    const g = guest();
    expect(g.call(httpReq, 'register_dynamic_backend', OUTSIDE, 3, ...g.str('example.test'), 0, 0)).toBe(INVAL);
    expect(g.call(httpReq, 'register_dynamic_backend', ...g.str('dyn'), OUTSIDE, 12, 0, 0)).toBe(INVAL);
  });
});
