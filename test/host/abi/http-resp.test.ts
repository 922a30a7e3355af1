// fastly_http_resp: responses the guest builds, and the one it sends downstream: whole, streamed,
// or a backend's body passed through.
import { describe, expect, it } from 'vitest';
import { httpBody } from '../../../host/src/abi/http-body.js';
import { httpResp } from '../../../host/src/abi/http-resp.js';
import { BADF, ERROR, INVAL, NONE, OK } from '../../../host/src/guest/status.js';
import { newBody } from '../../../host/src/guest/bodies.js';
import { Guest, inTurn, OUTSIDE, UNTOUCHED } from './sandbox-fixture.js';

const status = (g: Guest, h: number) => g.callOut(httpResp, 'status_get', h).value & 0xffff;

/** A response with status 403 and one header, ready to send. */
function response(g: Guest): number {
  const h = g.handle(httpResp, 'new');
  g.call(httpResp, 'status_set', h, 403);
  g.call(httpResp, 'header_append', h, ...g.str('content-type'), ...g.str('text/html'));
  return h;
}

describe('a response the guest builds', () => {
  it('starts as 200 over HTTP/1.1, and keeps the status and version set', () => {
    const g = new Guest();
    const h = g.handle(httpResp, 'new');
    expect([status(g, h), g.callOut(httpResp, 'version_get', h).value]).toEqual([200, 2]);
    expect(g.call(httpResp, 'status_set', h, 503)).toBe(OK);
    expect(g.call(httpResp, 'version_set', h, 1)).toBe(OK);
    expect([status(g, h), g.callOut(httpResp, 'version_get', h).value]).toEqual([503, 1]);
  });

  it('writes the status as a u16 and leaves the bytes after it alone', () => {
    const g = new Guest();
    const out = g.alloc(4);
    expect(g.call(httpResp, 'status_get', g.handle(httpResp, 'new'), out)).toBe(OK);
    expect([g.u16(out), g.u16(out + 2)]).toEqual([200, 0xeeee]);
  });

  it('takes statuses 100 to 999 and answers INVAL for others, as Viceroy', () => {
    const g = new Guest();
    const h = g.handle(httpResp, 'new');
    expect([100, 999].map((s) => g.call(httpResp, 'status_set', h, s))).toEqual([OK, OK]);
    expect([99, 1000, 0].map((s) => g.call(httpResp, 'status_set', h, s))).toEqual([INVAL, INVAL, INVAL]);
    expect(status(g, h)).toBe(999);
  });

  it('accepts framing and keepalive settings, which change nothing here', () => {
    const g = new Guest();
    const h = g.handle(httpResp, 'new');
    expect(g.call(httpResp, 'framing_headers_mode_set', h, 1)).toBe(OK);
    expect(g.call(httpResp, 'http_keepalive_mode_set', h, 0)).toBe(OK);
    expect(g.call(httpResp, 'framing_headers_mode_set', 99, 1)).toBe(BADF);
  });

  it('has no address of its own: get_addr_dest_ip and _port answer NONE', () => {
    const g = new Guest();
    const h = g.handle(httpResp, 'new');
    expect(g.call(httpResp, 'get_addr_dest_ip', h, g.alloc(16), g.alloc(4))).toBe(NONE);
    expect(g.callOut(httpResp, 'get_addr_dest_port', h)).toEqual({ status: NONE, value: UNTOUCHED });
  });

  it('is spent by close; BADF for a handle that is not a response', () => {
    const g = new Guest();
    const h = g.handle(httpResp, 'new');
    expect(g.call(httpResp, 'close', h)).toBe(OK);
    expect(g.call(httpResp, 'close', h)).toBe(BADF);
    expect(g.call(httpResp, 'status_set', h, 200)).toBe(BADF);
    expect(g.callOut(httpResp, 'status_get', g.handle(httpBody, 'new')).status).toBe(BADF);
  });

  it('answers INVAL for an out-slot outside guest memory', () => {
    const g = new Guest();
    expect(g.call(httpResp, 'new', OUTSIDE)).toBe(INVAL);
    expect(g.call(httpResp, 'status_get', g.handle(httpResp, 'new'), OUTSIDE)).toBe(INVAL);
  });
});

describe('fastly_http_resp.send_downstream', () => {
  it('posts the whole response with its body, and spends both handles', () => {
    const g = new Guest();
    const resp = response(g);
    const body = g.add(newBody(null, [Buffer.from('<h1>'), Buffer.from('full</h1>')]));
    expect(g.call(httpResp, 'send_downstream', resp, body, 0)).toBe(OK);
    expect(g.io.posts).toEqual([
      {
        op: 'respond',
        rid: 1,
        status: 403,
        headers: [['content-type', 'text/html']],
        body: Buffer.from('<h1>full</h1>'),
        streaming: false,
      },
    ]);
    expect(g.call(httpResp, 'close', resp)).toBe(BADF);
    expect(g.call(httpBody, 'close', body)).toBe(BADF);
  });

  it('reads a body that is part bytes, part stream, before it posts the response', () => {
    const g = new Guest({ answers: { read: inTurn({ data: Buffer.from(' tail') }, { data: null }) } });
    g.call(httpResp, 'send_downstream', response(g), g.add(newBody(6, [Buffer.from('head')])), 0);
    expect(g.io.posts).toEqual([
      expect.objectContaining({ op: 'respond', body: Buffer.from('head tail'), streaming: false }),
    ]);
  });

  it("passes a backend's body through as a pipe, so the client gets its bytes as they come", () => {
    const g = new Guest();
    expect(g.call(httpResp, 'send_downstream', response(g), g.add(newBody(6)), 0)).toBe(OK);
    expect(g.io.posts).toEqual([
      {
        op: 'respond',
        rid: 1,
        status: 403,
        headers: [['content-type', 'text/html']],
        body: null,
        streaming: true,
        pipe: 6,
      },
      { op: 'end', rid: 1 },
    ]);
    expect(g.io.calls).toEqual([]);
  });

  it('streaming: posts the head, then what the body holds, then keeps the body open for writes', () => {
    const g = new Guest();
    const body = g.add(newBody(6, [Buffer.from('first')]));
    expect(g.call(httpResp, 'send_downstream', response(g), body, 1)).toBe(OK);
    g.call(httpBody, 'write', body, ...g.str('later'), 0, g.alloc(4));
    g.call(httpBody, 'close', body);
    expect(g.io.posts).toEqual([
      { op: 'respond', rid: 1, status: 403, headers: [['content-type', 'text/html']], body: null, streaming: true },
      { op: 'chunk', rid: 1, data: Buffer.from('first') },
      { op: 'pipe', rid: 1, stream: 6 },
      { op: 'chunk', rid: 1, data: new Uint8Array(Buffer.from('later')) },
      { op: 'end', rid: 1 },
    ]);
  });

  it('answers ERROR for a second response to one request, as Viceroy, and posts nothing more', () => {
    const g = new Guest();
    g.call(httpResp, 'send_downstream', response(g), g.handle(httpBody, 'new'), 0);
    expect(g.call(httpResp, 'send_downstream', response(g), g.handle(httpBody, 'new'), 0)).toBe(ERROR);
    expect(g.io.posts).toHaveLength(1);
  });

  it('answers ERROR between requests of a reused sandbox', () => {
    const g = new Guest({ request: null });
    expect(g.call(httpResp, 'send_downstream', response(g), g.handle(httpBody, 'new'), 0)).toBe(ERROR);
  });

  it('answers BADF for a response or body handle that is not one, and still allows a response after', () => {
    const g = new Guest();
    const resp = response(g);
    const body = g.handle(httpBody, 'new');
    expect(g.call(httpResp, 'send_downstream', body, body, 0)).toBe(BADF);
    expect(g.call(httpResp, 'send_downstream', resp, resp, 0)).toBe(BADF);
    expect(g.call(httpResp, 'send_downstream', resp, body, 0)).toBe(OK);
  });
});
