// fastly_http_req: requests the guest builds or was handed, their headers, and sends to backends
// (the backend resolved once here and sent with the request; the answer as response and body handles).
import type { HostFn } from '../../../host/src/abi/types.js';
import { describe, expect, it } from 'vitest';
import { httpReq } from '../../../host/src/abi/http-req.js';
import { BADF, ERROR, HTTPINVALID, INVAL, INVALID_HANDLE, NONE, OK } from '../../../host/src/abi/status.js';
import type { Rpc, WaitResult } from '../../../host/src/protocol.js';
import { backend, downstream, harness, snapshot } from './sandbox-fixture.js';

type T = ReturnType<typeof harness>;

function newReq(t: T): number {
  const out = t.area(4);
  expect(t.call(httpReq.new, out)).toBe(OK);
  return t.u32(out);
}

function set(t: T, call: HostFn | undefined, h: number, ...texts: string[]): number {
  const args = texts.flatMap((s) => t.put(s));
  return t.call(call, h, ...args);
}

function get(t: T, call: HostFn | undefined, h: number, ...texts: string[]): string | number {
  const args = texts.flatMap((s) => t.put(s));
  const buf = t.area(256);
  const nw = t.area(4);
  const status = t.call(call, h, ...args, buf, 256, nw);
  return status === OK ? t.text(buf, t.u32(nw)) : status;
}

/** A multi-value answer (names or values): items each ended by NUL, resumed from a cursor. */
function multi(t: T, call: HostFn | undefined, h: number, len: number, ...texts: string[]): string[] {
  const args = texts.flatMap((s) => t.put(s));
  const items: string[] = [];
  let cursor = 0;
  for (;;) {
    const buf = t.area(len);
    const ending = t.area(8);
    const nw = t.area(4);
    expect(t.call(call, h, ...args, buf, len, cursor, ending, nw)).toBe(OK);
    items.push(...t.text(buf, t.u32(nw)).split('\0').filter((s) => s !== ''));
    const next = t.u64(ending);
    if (next === 0xffff_ffff_ffff_ffffn) return items;
    cursor = Number(next);
  }
}

describe('fastly_http_req: the request', () => {
  it('hands the guest the downstream request and its body; without one the answer is ERROR', () => {
    const t = harness({ request: downstream({ method: 'purge', url: 'http://shop.test/a?b' }) });
    const [req, body] = [t.area(4), t.area(4)];
    expect(t.call(httpReq.body_downstream_get, req, body)).toBe(OK);
    expect(get(t, httpReq.method_get, t.u32(req))).toBe('purge');
    expect(get(t, httpReq.uri_get, t.u32(req))).toBe('http://shop.test/a?b');
    expect(harness({ serving: false }).call(httpReq.body_downstream_get, 1024, 1028)).toBe(ERROR);
  });

  it('takes any token as a method and refuses anything else', () => {
    const t = harness();
    const h = newReq(t);
    expect(set(t, httpReq.method_set, h, 'FOO')).toBe(OK);
    expect(get(t, httpReq.method_get, h)).toBe('FOO');
    expect(set(t, httpReq.method_set, h, 'G(T')).toBe(HTTPINVALID);
    expect(set(t, httpReq.method_set, h, '')).toBe(HTTPINVALID);
  });

  it('refuses an empty URI or one with whitespace', () => {
    const t = harness();
    const h = newReq(t);
    expect(set(t, httpReq.uri_set, h, 'http://a.test/x')).toBe(OK);
    expect(set(t, httpReq.uri_set, h, 'http://a.test/x y')).toBe(HTTPINVALID);
    expect(set(t, httpReq.uri_set, h, '')).toBe(HTTPINVALID);
  });

  it('keeps header names lower-case and every value of a repeated header, in order', () => {
    const t = harness();
    const h = newReq(t);
    set(t, httpReq.header_append, h, 'Accept', 'text/html');
    set(t, httpReq.header_append, h, 'X-Many', 'one');
    set(t, httpReq.header_append, h, 'x-many', 'two');
    expect(multi(t, httpReq.header_names_get, h, 256)).toEqual(['accept', 'x-many']);
    expect(multi(t, httpReq.header_values_get, h, 256, 'X-MANY')).toEqual(['one', 'two']);
    expect(get(t, httpReq.header_value_get, h, 'x-many')).toBe('one');
    expect(get(t, httpReq.header_value_get, h, 'x-none')).toBe(NONE);
  });

  it('pages a long multi-value answer through the cursor when the buffer holds only part of it', () => {
    const t = harness();
    const h = newReq(t);
    for (const name of ['alpha', 'bravo', 'charlie', 'delta']) set(t, httpReq.header_append, h, name, '1');
    expect(multi(t, httpReq.header_names_get, h, 14)).toEqual(['alpha', 'bravo', 'charlie', 'delta']);
  });

  it('replaces a header in place with insert, sets several values at once, and removes all of a name', () => {
    const t = harness();
    const h = newReq(t);
    set(t, httpReq.header_append, h, 'a', '1');
    set(t, httpReq.header_append, h, 'b', '1');
    set(t, httpReq.header_append, h, 'a', '2');
    expect(set(t, httpReq.header_insert, h, 'a', 'new')).toBe(OK);
    expect(t.sb.handles.get(h, 'req').headers).toEqual([['a', 'new'], ['b', '1']]);
    expect(set(t, httpReq.header_values_set, h, 'c', 'x\0y\0')).toBe(OK);
    expect(multi(t, httpReq.header_values_get, h, 64, 'c')).toEqual(['x', 'y']);
    expect(set(t, httpReq.header_remove, h, 'a')).toBe(OK);
    expect(set(t, httpReq.header_remove, h, 'a')).toBe(INVAL);
  });

  it('reads the original headers of the downstream request, whatever the guest changed since', () => {
    const t = harness({ request: downstream({ headers: [['host', 'shop.test'], ['cookie', 'a=1'], ['cookie', 'b=2']] }) });
    const [req, body] = [t.area(4), t.area(4)];
    t.call(httpReq.body_downstream_get, req, body);
    set(t, httpReq.header_remove, t.u32(req), 'cookie');
    const count = t.area(4);
    expect(t.call(httpReq.original_header_count, count)).toBe(OK);
    expect(t.u32(count)).toBe(2);
    const buf = t.area(64);
    const nw = t.area(4);
    expect(t.call(httpReq.original_header_names_get, buf, 64, 0, t.area(8), nw)).toBe(OK);
    expect(t.text(buf, t.u32(nw))).toBe('host\0cookie\0');
  });

  it('answers BADF for a handle that is not a request, and INVAL for an HTTP version it does not know', () => {
    const t = harness();
    expect(get(t, httpReq.method_get, 4242)).toBe(BADF);
    expect(t.call(httpReq.version_set, newReq(t), 9)).toBe(INVAL);
  });
});

const answered: WaitResult = { ok: true, status: 201, headers: [['content-type', 'text/plain']], stream: 33, remoteIp: '192.0.2.1', remotePort: 80 };

describe('fastly_http_req: sending to a backend', () => {
  const stores = snapshot({ backends: { origin: backend('origin') } });

  it('sends with the backend it resolved, then waits for the answer and hands over response and body', () => {
    const t = harness({ snapshot: stores, answer: (rpc: Rpc) => (rpc.op === 'wait' ? answered : null) });
    const h = newReq(t);
    set(t, httpReq.uri_set, h, 'http://origin.test/page');
    const [bp, bl] = t.put('origin');
    const pending = t.area(4);
    expect(t.call(httpReq.send_async, h, INVALID_HANDLE, bp, bl, pending)).toBe(OK);
    expect(t.line.posted[0]).toMatchObject({ op: 'send', backend: stores.backends.origin, req: { method: 'GET', url: 'http://origin.test/page' }, body: null, streaming: false });
    const [resp, body, detail] = [t.area(4), t.area(4), t.area(8)];
    expect(t.call(httpReq.pending_req_wait_v2, t.u32(pending), detail, resp, body)).toBe(OK);
    expect(t.u32(detail)).toBe(1);
    expect(t.sb.handles.get(t.u32(resp), 'resp')).toMatchObject({ status: 201, headers: [['content-type', 'text/plain']] });
    expect(t.sb.handles.get(t.u32(body), 'body').remote).toBe(33);
    // The pending handle is spent.
    expect(t.call(httpReq.pending_req_wait, t.u32(pending), resp, body)).toBe(BADF);
  });

  it('answers an unknown backend with INVAL before anything is sent', () => {
    const t = harness({ snapshot: stores });
    const [bp, bl] = t.put('nope');
    expect(t.call(httpReq.send_async, newReq(t), INVALID_HANDLE, bp, bl, t.area(4))).toBe(INVAL);
    expect(t.line.posted).toEqual([]);
  });

  it('reports a failed send as ERROR with its tag in the detail record (a u32 tag, a u32 mask of 0)', () => {
    const t = harness({ snapshot: stores, answer: () => ({ ok: false, tag: 'dns_error', message: 'no such host' }) });
    const [bp, bl] = t.put('origin');
    const [resp, body, detail] = [t.area(4), t.area(4), t.area(8)];
    t.sb.mem.w32(detail + 4, 0xffff_ffff);
    expect(t.call(httpReq.send_v2, newReq(t), INVALID_HANDLE, bp, bl, detail, resp, body)).toBe(ERROR);
    expect([t.u32(detail), t.u32(detail + 4), t.u32(resp), t.u32(body)]).toEqual([3, 0, INVALID_HANDLE, INVALID_HANDLE]);
  });

  it('polls without blocking: not ready leaves the handle pending, ready finishes it', () => {
    let ready = false;
    const t = harness({ snapshot: stores, answer: (rpc) => (rpc.op === 'ready' ? ready : answered) });
    const [bp, bl] = t.put('origin');
    const pending = t.area(4);
    t.call(httpReq.send_async, newReq(t), INVALID_HANDLE, bp, bl, pending);
    const [done, resp, body] = [t.area(4), t.area(4), t.area(4)];
    expect(t.call(httpReq.pending_req_poll, t.u32(pending), done, resp, body)).toBe(OK);
    expect([t.u32(done), t.u32(resp)]).toEqual([0, INVALID_HANDLE]);
    ready = true;
    expect(t.call(httpReq.pending_req_poll, t.u32(pending), done, resp, body)).toBe(OK);
    expect(t.u32(done)).toBe(1);
    expect(t.sb.handles.get(t.u32(resp), 'resp').status).toBe(201);
  });

  it('sends a body the guest wrote whole, and a body that is all a main-thread stream as a pipe', () => {
    const t = harness({ snapshot: stores, answer: () => answered });
    const [bp, bl] = t.put('origin');
    const written = t.sb.handles.add({ kind: 'body', chunks: [new TextEncoder().encode('form=1')], remote: null, sink: null });
    t.call(httpReq.send_async, newReq(t), written, bp, bl, t.area(4));
    const client = t.sb.handles.add({ kind: 'body', chunks: [], remote: 8, sink: null });
    t.call(httpReq.send_async, newReq(t), client, bp, bl, t.area(4));
    expect(t.line.posted[0]).toMatchObject({ body: new TextEncoder().encode('form=1'), bodyStream: undefined });
    expect(t.line.posted[1]).toMatchObject({ body: null, bodyStream: 8 });
    expect(t.line.calls).toEqual([]);
  });

  it('registers a dynamic backend for the sandbox, refusing a name already taken or a bad target', () => {
    const t = harness({ snapshot: stores });
    const reg = (name: string, target: string, mask = 0) => {
      const [np, nl] = t.put(name);
      const [tp, tl] = t.put(target);
      return t.call(httpReq.register_dynamic_backend, np, nl, tp, tl, mask, 0);
    };
    expect(reg('api', 'api.test:8443', 1 << 5)).toBe(OK);
    expect(t.sb.dynamicBackends.get('api')).toMatchObject({ hostname: 'api.test', port: 8443, protocol: 'https:' });
    expect(reg('api', 'other.test')).toBe(INVAL);
    expect(reg('origin', 'other.test')).toBe(INVAL);
    expect(reg('bad', 'host:99999')).toBe(INVAL);
    expect(reg('v6', '[2001:db8::1]')).toBe(OK);
    expect(t.sb.dynamicBackends.get('v6')).toMatchObject({ hostname: '2001:db8::1', port: 80 });
  });
});
