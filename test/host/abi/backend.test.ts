// fastly_backend: what a guest may ask about a backend by name, answered as Viceroy answers locally.
import { describe, expect, it } from 'vitest';
import { backend } from '../../../host/src/abi/backend.js';
import { INVAL, NONE, OK, UNSUPPORTED } from '../../../host/src/guest/status.js';
import { backendConfig, Guest, OUTSIDE, UNTOUCHED } from './sandbox-fixture.js';

function guest(): Guest {
  const g = new Guest({
    manifest: {
      backends: {
        origin: backendConfig('origin', 'http://127.0.0.1:8080/'),
        api: backendConfig('api', 'https://api.example/', { overrideHost: 'www.example' }),
      },
    },
  });
  g.sb.dynamicBackends.set('dyn', backendConfig('dyn', 'http://dyn.example:9000/'));
  return g;
}

/** A u32 getter's status and value for backend `name`. */
const ask = (g: Guest, call: string, name: string) => g.callOut(backend, call, ...g.str(name));

describe('fastly_backend.exists', () => {
  it('is 1 for a configured or a dynamic backend, 0 for any other name, OK either way', () => {
    const g = guest();
    expect(['origin', 'dyn', 'orgin', ''].map((name) => ask(g, 'exists', name))).toEqual([
      { status: OK, value: 1 },
      { status: OK, value: 1 },
      { status: OK, value: 0 },
      { status: OK, value: 0 },
    ]);
  });
});

describe('a name like an object property (constructor, toString)', () => {
  it('is no backend: exists is 0 and the getters answer INVAL', () => {
    const g = guest();
    expect(ask(g, 'exists', 'constructor')).toEqual({ status: OK, value: 0 });
    expect(ask(g, 'is_ssl', 'toString').status).toBe(INVAL);
    expect(g.call(backend, 'get_host', ...g.str('constructor'), ...g.buffer(64).args)).toBe(INVAL);
  });
});

describe('the u32 getters', () => {
  it('is_healthy is 0 (unknown) for every backend, as Viceroy has no health checks', () => {
    const g = guest();
    expect(ask(g, 'is_healthy', 'origin')).toEqual({ status: OK, value: 0 });
  });

  it('is_dynamic tells a registered backend from a configured one', () => {
    const g = guest();
    expect([ask(g, 'is_dynamic', 'origin').value, ask(g, 'is_dynamic', 'dyn').value]).toEqual([0, 1]);
  });

  it('is_ssl is 1 for an https backend only', () => {
    const g = guest();
    expect([ask(g, 'is_ssl', 'api').value, ask(g, 'is_ssl', 'origin').value]).toEqual([1, 0]);
  });

  it('the keepalive settings read 0, as Viceroy pools nothing', () => {
    const g = guest();
    for (const call of [
      'get_http_keepalive_time',
      'get_tcp_keepalive_enable',
      'get_tcp_keepalive_interval',
      'get_tcp_keepalive_probes',
      'get_tcp_keepalive_time',
    ])
      expect(ask(g, call, 'origin'), call).toEqual({ status: OK, value: 0 });
  });

  it('answer INVAL for a name that is no backend, as Viceroy does, and write nothing', () => {
    const g = guest();
    for (const call of ['is_healthy', 'is_dynamic', 'is_ssl', 'get_tcp_keepalive_enable'])
      expect(ask(g, call, 'orgin'), call).toEqual({ status: INVAL, value: UNTOUCHED });
  });
});

describe('fastly_backend.get_host and get_override_host', () => {
  it('write the host name and the override host', () => {
    const g = guest();
    const host = g.buffer(64);
    expect(g.call(backend, 'get_host', ...g.str('api'), ...host.args)).toBe(OK);
    expect(host.text()).toBe('api.example');
    const override = g.buffer(64);
    expect(g.call(backend, 'get_override_host', ...g.str('api'), ...override.args)).toBe(OK);
    expect(override.text()).toBe('www.example');
  });

  it('answer NONE for a backend without an override host, as Viceroy does', () => {
    const g = guest();
    expect(g.call(backend, 'get_override_host', ...g.str('origin'), ...g.buffer(64).args)).toBe(NONE);
  });

  it('answer BUFLEN with the size needed when the name does not fit', () => {
    const g = guest();
    g.fitsExactly('api.example'.length, (out) => g.call(backend, 'get_host', ...g.str('api'), ...out));
    g.fitsExactly('www.example'.length, (out) => g.call(backend, 'get_override_host', ...g.str('api'), ...out));
  });

  it('answer INVAL for an unknown backend', () => {
    const g = guest();
    expect(g.call(backend, 'get_host', ...g.str('nope'), ...g.buffer(64).args)).toBe(INVAL);
    expect(g.call(backend, 'get_override_host', ...g.str('nope'), ...g.buffer(64).args)).toBe(INVAL);
  });
});

describe('fastly_backend.get_port', () => {
  it("writes the URL's port, or the scheme's, as a u16", () => {
    const g = guest();
    const out = g.alloc(4);
    expect(g.call(backend, 'get_port', ...g.str('origin'), out)).toBe(OK);
    expect([g.u16(out), g.u16(out + 2)]).toEqual([8080, 0xeeee]);
    expect(g.call(backend, 'get_port', ...g.str('api'), out)).toBe(OK);
    expect(g.u16(out)).toBe(443);
  });
});

describe('settings Viceroy does not report', () => {
  it('the timeouts answer UNSUPPORTED once the name is known, as in Viceroy, and INVAL for an unknown one', () => {
    const g = guest();
    for (const call of ['get_connect_timeout_ms', 'get_first_byte_timeout_ms', 'get_between_bytes_timeout_ms']) {
      expect(ask(g, call, 'origin'), call).toEqual({ status: UNSUPPORTED, value: UNTOUCHED });
      expect(ask(g, call, 'orgin').status, call).toBe(INVAL);
    }
  });

  it('the TLS versions answer NONE once the name is known (Viceroy answers UNSUPPORTED), and INVAL for an unknown one', () => {
    const g = guest();
    for (const call of ['get_ssl_min_version', 'get_ssl_max_version']) {
      expect(ask(g, call, 'api'), call).toEqual({ status: NONE, value: UNTOUCHED });
      expect(ask(g, call, 'apii').status, call).toBe(INVAL);
    }
  });
});

describe('a backend name outside guest memory', () => {
  it('answers INVAL, for exists too', () => {
    const g = guest();
    for (const call of ['exists', 'is_ssl', 'get_port', 'get_connect_timeout_ms'])
      expect(g.call(backend, call, OUTSIDE, 6, g.alloc(4)), call).toBe(INVAL);
  });
});
