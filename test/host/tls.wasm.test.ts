import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOrigin, type Origin } from '../../lib/origin.js';
import { selfSignedCertificate } from '../../lib/certificate.js';
import { startHost, type RunningHost } from '../../lib/host-process.js';
import { hostFixture } from '../../lib/paths.js';
import { buildWasm } from '../../lib/wasm-build.js';

// A production origin is HTTPS; locally it is reached by IP with the certificate checked against
// cert_host, as Viceroy does.
let origin: Origin;
let host: RunningHost;

beforeAll(async () => {
  const tls = await selfSignedCertificate('origin.test');
  origin = await startOrigin({ tls });
  const url = `https://127.0.0.1:${origin.port}`;
  host = await startHost({
    wasm: await buildWasm(hostFixture('proxy.js')),
    manifest: {
      local_server: {
        backends: {
          trusted: { url, cert_host: 'origin.test', ca_certificate: tls.cert },
          untrusted: { url, cert_host: 'origin.test' },
          wrong_name: { url, cert_host: 'elsewhere.test', ca_certificate: tls.cert },
        },
      },
    },
  });
});

afterAll(async () => {
  await Promise.all([host?.stop(), origin?.stop()]);
});

describe('HTTPS backends', () => {
  it('proxies to an HTTPS origin whose certificate is trusted through ca_certificate', async () => {
    const res = await fetch(`${host.url}/secure/path?backend=trusted`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ method: 'GET', path: '/secure/path?backend=trusted' });
  });

  it.each([
    ['a certificate no configured CA vouches for', 'untrusted'],
    ['a certificate for another name than cert_host', 'wrong_name'],
  ])('refuses %s: the app sees a send error and answers 502', async (_name, backend) => {
    const before = origin.received.length;
    const res = await fetch(`${host.url}/secure?backend=${backend}`);
    expect(res.status).toBe(502);
    expect(await res.text()).toMatch(new RegExp(`^backend ${backend} failed: `));
    // The handshake failed, so the origin never saw the request.
    expect(origin.received.length).toBe(before);
  });
});
