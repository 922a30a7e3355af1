// fastly_backend: questions about a named backend, answered as Viceroy answers them locally.
import type { HostFn } from '../../../host/src/abi/types.js';
import { describe, expect, it } from 'vitest';
import { backend } from '../../../host/src/abi/backend.js';
import { INVAL, NONE, OK, UNSUPPORTED } from '../../../host/src/abi/status.js';
import { backend as config, harness, snapshot } from './sandbox-fixture.js';

const h = () =>
  harness({
    snapshot: snapshot({
      backends: {
        origin: config('origin', { hostname: 'shop.test', port: 8080 }),
        secure: config('secure', { protocol: 'https:', port: 443, overrideHost: 'www.shop.test' }),
      },
    }),
  });

function ask(t: ReturnType<typeof h>, call: HostFn | undefined, name: string): { status: number; u32: number; u16: number } {
  const [p, l] = t.put(name);
  const out = t.area(4);
  const status = t.call(call, p, l, out);
  return { status, u32: t.u32(out), u16: t.u16(out) };
}

function text(t: ReturnType<typeof h>, call: HostFn | undefined, name: string): string | number {
  const [p, l] = t.put(name);
  const buf = t.area(128);
  const nw = t.area(4);
  const status = t.call(call, p, l, buf, 128, nw);
  return status === OK ? t.text(buf, t.u32(nw)) : status;
}

describe('fastly_backend', () => {
  it('says whether a backend exists, without an error for one that does not', () => {
    const t = h();
    expect(ask(t, backend.exists, 'origin')).toMatchObject({ status: OK, u32: 1 });
    expect(ask(t, backend.exists, 'nope')).toMatchObject({ status: OK, u32: 0 });
  });

  it('answers host, port, TLS and override host from the manifest', () => {
    const t = h();
    expect(text(t, backend.get_host, 'origin')).toBe('shop.test');
    expect(ask(t, backend.get_port, 'origin').u16).toBe(8080);
    expect(ask(t, backend.is_ssl, 'origin').u32).toBe(0);
    expect(ask(t, backend.is_ssl, 'secure').u32).toBe(1);
    expect(text(t, backend.get_override_host, 'secure')).toBe('www.shop.test');
    expect(text(t, backend.get_override_host, 'origin')).toBe(NONE);
  });

  it('answers UNSUPPORTED for the timeout getters, as Viceroy does, once the name is known', () => {
    const t = h();
    for (const call of [backend.get_connect_timeout_ms, backend.get_first_byte_timeout_ms, backend.get_between_bytes_timeout_ms]) {
      expect(ask(t, call, 'origin').status).toBe(UNSUPPORTED);
      expect(ask(t, call, 'nope').status).toBe(INVAL);
    }
  });

  it('reads health as unknown, keepalive as off, TLS versions as none, and a static backend as not dynamic', () => {
    const t = h();
    expect(ask(t, backend.is_healthy, 'origin')).toMatchObject({ status: OK, u32: 0 });
    expect(ask(t, backend.get_tcp_keepalive_enable, 'origin')).toMatchObject({ status: OK, u32: 0 });
    expect(ask(t, backend.get_ssl_min_version, 'secure').status).toBe(NONE);
    expect(ask(t, backend.is_dynamic, 'origin')).toMatchObject({ status: OK, u32: 0 });
  });

  it('answers INVAL for every question about a backend it does not know', () => {
    const t = h();
    expect(ask(t, backend.get_port, 'nope').status).toBe(INVAL);
    expect(text(t, backend.get_host, 'nope')).toBe(INVAL);
    expect(ask(t, backend.is_healthy, 'nope').status).toBe(INVAL);
  });
});
