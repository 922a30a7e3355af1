// fastly_http_resp: responses the guest builds, and the one it sends downstream (whole, streamed,
// or a backend's body piped through).
import type { HostFn } from '../../../host/src/abi/types.js';
import { describe, expect, it } from 'vitest';
import { httpBody } from '../../../host/src/abi/http-body.js';
import { httpResp } from '../../../host/src/abi/http-resp.js';
import { BADF, ERROR, HTTPINVALID, INVAL, NONE, OK } from '../../../host/src/abi/status.js';
import { downstream, harness } from './sandbox-fixture.js';

type T = ReturnType<typeof harness>;

function newResp(t: T): number {
  const out = t.area(4);
  expect(t.call(httpResp.new, out)).toBe(OK);
  return t.u32(out);
}

function newBody(t: T, text = ''): number {
  const out = t.area(4);
  t.call(httpBody.new, out);
  if (text) {
    const [p, l] = t.put(text);
    t.call(httpBody.write, t.u32(out), p, l, 0, t.area(4));
  }
  return t.u32(out);
}

function header(t: T, call: HostFn | undefined, h: number, name: string, value?: string): number {
  const [np, nl] = t.put(name);
  if (value === undefined) return t.call(call, h, np, nl);
  const [vp, vl] = t.put(value);
  return t.call(call, h, np, nl, vp, vl);
}

describe('fastly_http_resp', () => {
  it('starts as 200 and keeps a status from 100 to 999 only', () => {
    const t = harness();
    const h = newResp(t);
    const out = t.area(2);
    t.call(httpResp.status_get, h, out);
    expect(t.u16(out)).toBe(200);
    expect(t.call(httpResp.status_set, h, 404)).toBe(OK);
    t.call(httpResp.status_get, h, out);
    expect(t.u16(out)).toBe(404);
    expect(t.call(httpResp.status_set, h, 99)).toBe(INVAL);
    expect(t.call(httpResp.status_set, h, 1000)).toBe(INVAL);
  });

  it('sends a whole response downstream once, with its headers, and spends both handles', () => {
    const t = harness({ request: downstream({ rid: 41 }) });
    const h = newResp(t);
    header(t, httpResp.header_append, h, 'Set-Cookie', 'a=1');
    header(t, httpResp.header_append, h, 'set-cookie', 'b=2');
    const body = newBody(t, 'page');
    expect(t.call(httpResp.send_downstream, h, body, 0)).toBe(OK);
    expect(t.line.posted).toEqual([
      { op: 'respond', rid: 41, status: 200, headers: [['set-cookie', 'a=1'], ['set-cookie', 'b=2']], body: new TextEncoder().encode('page'), streaming: false },
    ]);
    expect(t.call(httpResp.status_get, h, t.area(2))).toBe(BADF);
    // A second response for the same request is the guest's error.
    expect(t.call(httpResp.send_downstream, newResp(t), newBody(t), 0)).toBe(ERROR);
  });

  it('streams: headers go at once, later writes follow as chunks, closing the body ends the response', () => {
    const t = harness({ request: downstream({ rid: 7 }) });
    const body = newBody(t, 'first');
    expect(t.call(httpResp.send_downstream, newResp(t), body, 1)).toBe(OK);
    const [p, l] = t.put('second');
    t.call(httpBody.write, body, p, l, 0, t.area(4));
    t.call(httpBody.close, body);
    expect(t.line.posted.map((m) => m.op)).toEqual(['respond', 'chunk', 'chunk', 'end']);
    expect(t.line.posted[0]).toMatchObject({ op: 'respond', rid: 7, streaming: true, body: null });
  });

  it("pipes a backend's body straight through rather than reading it into the worker", () => {
    const t = harness({ request: downstream({ rid: 9 }) });
    const body = newBody(t);
    t.sb.handles.get(body, 'body').remote = 12;
    expect(t.call(httpResp.send_downstream, newResp(t), body, 0)).toBe(OK);
    expect(t.line.calls).toEqual([]);
    expect(t.line.posted).toEqual([
      { op: 'respond', rid: 9, status: 200, headers: [], body: null, streaming: true, pipe: 12 },
      { op: 'end', rid: 9 },
    ]);
  });

  it('refuses header names and values a client could not parse', () => {
    const t = harness();
    const h = newResp(t);
    expect(header(t, httpResp.header_insert, h, 'bad name', 'v')).toBe(HTTPINVALID);
    expect(header(t, httpResp.header_insert, h, 'x-ok', 'split\r\nx-evil: 1')).toBe(HTTPINVALID);
    expect(header(t, httpResp.header_remove, h, 'x-absent')).toBe(INVAL);
  });

  it("answers the backend's address and port on a received response, NONE on one the guest made", () => {
    const t = harness();
    const made = newResp(t);
    expect(t.call(httpResp.get_addr_dest_port, made, t.area(2))).toBe(NONE);
    expect(t.call(httpResp.get_addr_dest_ip, made, t.area(16), t.area(4))).toBe(NONE);
    const received = t.sb.handles.add({ kind: 'resp', status: 200, headers: [], version: 2, remoteIp: '192.0.2.9', remotePort: 8443 });
    const ip = t.area(16);
    const nw = t.area(4);
    expect(t.call(httpResp.get_addr_dest_ip, received, ip, nw)).toBe(OK);
    expect([...t.sb.mem.copyIn(ip, t.u32(nw))]).toEqual([192, 0, 2, 9]);
    const port = t.area(2);
    t.call(httpResp.get_addr_dest_port, received, port);
    expect(t.u16(port)).toBe(8443);
  });
});
