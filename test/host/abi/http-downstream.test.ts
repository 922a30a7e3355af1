// fastly_http_downstream: the client's metadata, and the next request a reused sandbox serves.
import { describe, expect, it } from 'vitest';
import { httpDownstream } from '../../../host/src/abi/http-downstream.js';
import { httpReq } from '../../../host/src/abi/http-req.js';
import { INVALID_HANDLE, LIMITEXCEEDED, NONE, OK, UNSUPPORTED } from '../../../host/src/abi/status.js';
import { downstream, harness } from './sandbox-fixture.js';

type T = ReturnType<typeof harness>;

function askNext(t: T, timeoutMs?: number): number {
  const opts = t.area(8);
  if (timeoutMs !== undefined) t.sb.mem.w64(opts, BigInt(timeoutMs));
  const out = t.area(4);
  expect(t.call(httpDownstream.next_request, timeoutMs === undefined ? 0 : 1 << 1, opts, out)).toBe(OK);
  return t.u32(out);
}

describe('fastly_http_downstream: the client', () => {
  it("answers the client's and the server's address as bytes, and the request id", () => {
    const t = harness({ request: downstream({ clientIp: '2001:db8::7', serverIp: '127.0.0.1', traceId: 'abc123' }) });
    const ip = t.area(16);
    const nw = t.area(4);
    expect(t.call(httpDownstream.downstream_client_ip_addr, INVALID_HANDLE, ip, nw)).toBe(OK);
    expect(t.u32(nw)).toBe(16);
    expect([...t.sb.mem.copyIn(ip, 4)]).toEqual([0x20, 0x01, 0x0d, 0xb8]);
    expect(t.call(httpDownstream.downstream_server_ip_addr, INVALID_HANDLE, ip, nw)).toBe(OK);
    expect([...t.sb.mem.copyIn(ip, t.u32(nw))]).toEqual([127, 0, 0, 1]);
    const buf = t.area(32);
    expect(t.call(httpDownstream.downstream_client_request_id, INVALID_HANDLE, buf, 32, nw)).toBe(OK);
    expect(t.text(buf, t.u32(nw))).toBe('abc123');
  });

  it('answers NONE for every TLS question (the local host speaks plain HTTP)', () => {
    const t = harness();
    expect(t.call(httpDownstream.downstream_tls_protocol, t.area(32), 32, t.area(4))).toBe(NONE);
    expect(t.call(httpDownstream.downstream_tls_ja4, t.area(32), 32, t.area(4))).toBe(NONE);
  });

  it('names the request a handle points at: a second visitor on a reused sandbox gets their own address', () => {
    const t = harness({ request: downstream({ clientIp: '192.0.2.1' }) });
    const first = t.area(4);
    t.call(httpReq.body_downstream_get, first, t.area(4));
    t.sb.current!.responded = true;
    t.nextRequests.push(downstream({ clientIp: '192.0.2.2' }));
    const [req, body] = [t.area(4), t.area(4)];
    expect(t.call(httpDownstream.next_request_wait, askNext(t), req, body)).toBe(OK);
    const ip = t.area(4);
    t.call(httpDownstream.downstream_client_ip_addr, t.u32(req), ip, t.area(4));
    expect([...t.sb.mem.copyIn(ip, 4)]).toEqual([192, 0, 2, 2]);
    t.call(httpDownstream.downstream_client_ip_addr, t.u32(first), ip, t.area(4));
    expect([...t.sb.mem.copyIn(ip, 4)]).toEqual([192, 0, 2, 1]);
  });
});

describe('fastly_http_downstream: the next request', () => {
  it('ends the request served so far, then hands over the next one as request and body handles', () => {
    const t = harness({ request: downstream({ rid: 1 }) });
    t.sb.current!.responded = true;
    t.nextRequests.push(downstream({ rid: 2, method: 'POST' }));
    const [req, body] = [t.area(4), t.area(4)];
    expect(t.call(httpDownstream.next_request_wait, askNext(t), req, body)).toBe(OK);
    expect(t.line.posted).toEqual([{ op: 'done', rid: 1, error: undefined }]);
    expect(t.sb.handles.get(t.u32(req), 'req').method).toBe('POST');
    expect(t.sb.served).toBe(2);
  });

  it('answers NONE with invalid handles when no request comes in time', () => {
    const t = harness();
    t.sb.current!.responded = true;
    const [req, body] = [t.area(4), t.area(4)];
    expect(t.call(httpDownstream.next_request_wait, askNext(t, 50), req, body)).toBe(NONE);
    expect([t.u32(req), t.u32(body)]).toEqual([INVALID_HANDLE, INVALID_HANDLE]);
    expect(t.sb.current).toBeNull();
  });

  it("waits at most Viceroy's 10 s, or less when the guest asks", () => {
    const t = harness();
    expect(t.sb.handles.get(askNext(t, 60_000), 'nextreq').timeoutMs).toBe(10_000);
    const u = harness();
    expect(u.sb.handles.get(askNext(u, 250), 'nextreq').timeoutMs).toBe(250);
  });

  it('refuses a second outstanding ask, and a wait before the current request is answered', () => {
    const t = harness();
    const h = askNext(t);
    expect(t.call(httpDownstream.next_request, 0, t.area(8), t.area(4))).toBe(LIMITEXCEEDED);
    expect(t.call(httpDownstream.next_request_wait, h, t.area(4), t.area(4))).toBe(UNSUPPORTED);
  });

  it('lets the guest abandon its ask and ask again', () => {
    const t = harness();
    expect(t.call(httpDownstream.next_request_abandon, askNext(t))).toBe(OK);
    expect(askNext(t)).toBeGreaterThan(0);
  });
});
