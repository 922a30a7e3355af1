// Requests to backends (send.ts, through fastly_http_req's send calls): what is posted to the main
// thread, and how its answer becomes a response handle, a streamed body, a status and error detail.
import { describe, expect, it } from 'vitest';
import { httpBody } from '../../../host/src/abi/http-body.js';
import { httpReq } from '../../../host/src/abi/http-req.js';
import { httpResp } from '../../../host/src/abi/http-resp.js';
import { remoteItemOf } from '../../../host/src/abi/send.js';
import { BADF, ERROR, INVAL, INVALID_HANDLE, LIMITEXCEEDED, OK } from '../../../host/src/guest/status.js';
import { newBody } from '../../../host/src/guest/bodies.js';
import type { OneWay, SendErrorTag, WaitResult } from '../../../host/src/protocol.js';
import { backendConfig, Guest, inTurn, OUTSIDE } from './sandbox-fixture.js';

const ORIGIN = backendConfig('origin', 'http://127.0.0.1:8080/');
const ANSWER: WaitResult = {
  ok: true,
  status: 201,
  headers: [['x-up', 'yes']],
  stream: 12,
  remoteIp: '127.0.0.1',
  remotePort: 8080,
};

function guest(wait: WaitResult = ANSWER): [Guest, number] {
  const g = new Guest({ manifest: { backends: { origin: ORIGIN } }, answers: { wait: () => wait } });
  const req = g.add({
    kind: 'req',
    method: 'POST',
    uri: 'http://example.test/api',
    headers: [['x-a', '1']],
    version: 2,
    autoDecompress: true,
  });
  return [g, req];
}

const sends = (g: Guest) => g.io.posts.filter((p): p is Extract<OneWay, { op: 'send' }> => p.op === 'send');

describe('starting a send (send_async)', () => {
  it('posts the request, the resolved backend and the body bytes, and spends the body handle', () => {
    const [g, req] = guest();
    const body = g.add(newBody(null, [Buffer.from('payload')]));
    const pending = g.handle(httpReq, 'send_async', req, body, ...g.str('origin'));
    expect(pending).not.toBe(INVALID_HANDLE);
    expect(g.io.posts).toEqual([
      {
        op: 'send',
        upstreamId: 1,
        backend: ORIGIN,
        req: { method: 'POST', url: 'http://example.test/api', headers: [['x-a', '1']], autoDecompress: true },
        body: Buffer.from('payload'),
        bodyStream: undefined,
        streaming: false,
      },
    ]);
    expect(g.io.calls).toEqual([]);
    expect(g.call(httpBody, 'read', body, ...g.buffer(8).args)).toBe(BADF);
  });

  it('sends no body for the invalid body handle, and gives each send its own id', () => {
    const [g, req] = guest();
    g.handle(httpReq, 'send_async', req, INVALID_HANDLE, ...g.str('origin'));
    g.handle(httpReq, 'send_async', req, INVALID_HANDLE, ...g.str('origin'));
    expect(sends(g).map((s) => [s.upstreamId, s.body])).toEqual([
      [1, null],
      [2, null],
    ]);
  });

  it("hands a body that is all a main-thread stream (the client's) over whole, without reading it", () => {
    const [g, req] = guest();
    g.handle(httpReq, 'send_async', req, g.add(newBody(7)), ...g.str('origin'));
    expect(sends(g)[0]).toMatchObject({ body: null, bodyStream: 7 });
    expect(g.io.calls).toEqual([]);
  });

  it('reads a body that is part guest bytes, part stream, and sends it whole', () => {
    const [g, req] = guest();
    g.io.answers.read = inTurn({ data: Buffer.from('-rest') }, { data: null });
    const body = g.add(newBody(7, [Buffer.from('head')]));
    g.handle(httpReq, 'send_async', req, body, ...g.str('origin'));
    expect(Buffer.from(sends(g)[0]!.body!).toString()).toBe('head-rest');
  });

  it('resolves a dynamic backend the guest registered', () => {
    const [g, req] = guest();
    const dyn = backendConfig('dyn', 'https://dyn.example/');
    g.sb.dynamicBackends.set('dyn', dyn);
    g.handle(httpReq, 'send_async', req, INVALID_HANDLE, ...g.str('dyn'));
    expect(sends(g)[0]!.backend).toBe(dyn);
  });

  it('answers INVAL for a backend that does not exist, as Viceroy does, and posts nothing', () => {
    const [g, req] = guest();
    const body = g.handle(httpBody, 'new');
    expect(g.callOut(httpReq, 'send_async', req, body, ...g.str('orgin')).status).toBe(INVAL);
    expect(g.io.posts).toEqual([]);
  });

  it('answers BADF for a request or body handle that is not one, and INVAL for a name outside memory', () => {
    const [g, req] = guest();
    expect(g.callOut(httpReq, 'send_async', 99, INVALID_HANDLE, ...g.str('origin')).status).toBe(BADF);
    expect(g.callOut(httpReq, 'send_async', req, req, ...g.str('origin')).status).toBe(BADF);
    expect(g.callOut(httpReq, 'send_async', req, INVALID_HANDLE, OUTSIDE, 6).status).toBe(INVAL);
    expect(g.io.posts).toEqual([]);
  });
});

describe('a streaming send', () => {
  it('posts what the body holds, then each write as it happens, and the end on close', () => {
    const [g, req] = guest();
    const body = g.add(newBody(null, [Buffer.from('first')]));
    g.handle(httpReq, 'send_async_streaming', req, body, ...g.str('origin'));
    g.call(httpBody, 'write', body, ...g.str('more'), 0, g.alloc(4));
    g.call(httpBody, 'close', body);
    expect(g.io.posts).toEqual([
      expect.objectContaining({ op: 'send', upstreamId: 1, body: Buffer.from('first'), streaming: true }),
      { op: 'upChunk', upstreamId: 1, data: new Uint8Array(Buffer.from('more')) },
      { op: 'upEnd', upstreamId: 1 },
    ]);
  });

  it('is what send_async_v2 starts when its streaming flag is set', () => {
    const [g, req] = guest();
    g.handle(httpReq, 'send_async_v2', req, g.add(newBody()), ...g.str('origin'), 1);
    g.handle(httpReq, 'send_async_v2', req, g.add(newBody()), ...g.str('origin'), 0);
    expect(sends(g).map((s) => s.streaming)).toEqual([true, false]);
  });
});

/** pending_req_wait_v2 on `pending`: status, response and body handles, and the error detail's tag and mask. */
function waitV2(g: Guest, pending: number) {
  const [detail, resp, body] = [g.record(16, {}), g.alloc(4), g.alloc(4)];
  const status = g.call(httpReq, 'pending_req_wait_v2', pending, detail, resp, body);
  return { status, tag: g.u32(detail), mask: g.u32(detail + 4), resp: g.u32(resp), body: g.u32(body) };
}

describe('waiting for the answer', () => {
  it('asks the main thread once, then gives the response and its streamed body', () => {
    const [g, req] = guest();
    const pending = g.handle(httpReq, 'send_async', req, INVALID_HANDLE, ...g.str('origin'));
    g.io.answers.read = inTurn({ data: Buffer.from('created') }, { data: null });
    const r = waitV2(g, pending);
    expect(g.io.calls[0]).toEqual({ op: 'wait', upstreamId: 1 });
    expect(r).toMatchObject({ status: OK, tag: 1, mask: 0 });
    expect(g.callOut(httpResp, 'status_get', r.resp).value & 0xffff).toBe(201);
    const up = g.buffer(8);
    g.call(httpResp, 'header_value_get', r.resp, ...g.str('x-up'), ...up.args);
    expect(up.text()).toBe('yes');
    expect(g.readBody(r.body)).toBe('created');
    expect(g.io.calls[1]).toEqual({ op: 'read', stream: 12, max: 1024 });
  });

  it('keeps where the answer came from, for get_addr_dest_ip and get_addr_dest_port', () => {
    const [g, req] = guest();
    const { resp } = waitV2(g, g.handle(httpReq, 'send_async', req, INVALID_HANDLE, ...g.str('origin')));
    const ip = g.buffer(16);
    expect(g.call(httpResp, 'get_addr_dest_ip', resp, ip.buf, ip.nw)).toBe(OK);
    expect([...ip.bytes()]).toEqual([127, 0, 0, 1]);
    expect(g.callOut(httpResp, 'get_addr_dest_port', resp).value & 0xffff).toBe(8080);
  });

  it.each<[SendErrorTag, number]>([
    ['dns_error', 3],
    ['destination_not_found', 4],
    ['connection_refused', 7],
    ['connection_terminated', 8],
    ['connection_timeout', 9],
    ['tls_certificate_error', 11],
    ['http_incomplete_response', 13],
    ['http_response_timeout', 16],
    ['http_protocol_error', 19],
    ['internal_error', 22],
    ['tls_protocol_error', 24],
  ])('answers ERROR for %s with its send_error_detail tag %i and no handles', (tag, number) => {
    const [g, req] = guest({ ok: false, tag, message: 'failed' });
    const pending = g.handle(httpReq, 'send_async', req, INVALID_HANDLE, ...g.str('origin'));
    expect(waitV2(g, pending)).toEqual({
      status: ERROR,
      tag: number,
      mask: 0,
      resp: INVALID_HANDLE,
      body: INVALID_HANDLE,
    });
  });

  it('spends the pending handle: a second wait is BADF and asks nothing', () => {
    const [g, req] = guest();
    const pending = g.handle(httpReq, 'send_async', req, INVALID_HANDLE, ...g.str('origin'));
    waitV2(g, pending);
    expect(g.call(httpReq, 'pending_req_wait', pending, g.alloc(4), g.alloc(4))).toBe(BADF);
    expect(g.io.calls).toHaveLength(1);
  });
});

describe('send and send_v2', () => {
  it('start and wait in one call', () => {
    const [g, req] = guest();
    const [resp, body] = [g.alloc(4), g.alloc(4)];
    expect(g.call(httpReq, 'send', req, INVALID_HANDLE, ...g.str('origin'), resp, body)).toBe(OK);
    expect(g.io.posts.map((p) => p.op)).toEqual(['send']);
    expect(g.io.calls).toEqual([{ op: 'wait', upstreamId: 1 }]);
    expect(g.callOut(httpResp, 'status_get', g.u32(resp)).value & 0xffff).toBe(201);
  });

  it('send_v2 fills the error detail of a failed send', () => {
    const [g, req] = guest({ ok: false, tag: 'connection_refused', message: 'refused' });
    const detail = g.record(16, {});
    expect(g.call(httpReq, 'send_v2', req, INVALID_HANDLE, ...g.str('origin'), detail, g.alloc(4), g.alloc(4))).toBe(
      ERROR,
    );
    expect(g.u32(detail)).toBe(7);
  });
});

describe('remoteItemOf', () => {
  it('names what the main thread must answer before an object is ready, or null when it is ready now', () => {
    expect(remoteItemOf({ kind: 'pending', upstreamId: 3, backend: ORIGIN })).toEqual({ kind: 'pending', id: 3 });
    expect(remoteItemOf({ kind: 'pending', upstreamId: 3, backend: ORIGIN, result: ANSWER })).toBeNull();
    expect(remoteItemOf(newBody(5))).toEqual({ kind: 'stream', id: 5 });
    expect(remoteItemOf(newBody(5, [Buffer.from('x')]))).toBeNull();
    expect(remoteItemOf(newBody())).toBeNull();
    expect(remoteItemOf({ kind: 'config', name: 'c' })).toBeNull();
  });
});

describe("Fastly's 32 backend requests per execution", () => {
  it('sends 32 a request, by any send call, and answers LIMITEXCEEDED from the 33rd without sending it', () => {
    const [g, req] = guest();
    for (let i = 0; i < 8; i++) {
      expect(g.callOut(httpReq, 'send_async', req, INVALID_HANDLE, ...g.str('origin')).status).toBe(OK);
      expect(g.callOut(httpReq, 'send_async_streaming', req, INVALID_HANDLE, ...g.str('origin')).status).toBe(OK);
      expect(g.callOut(httpReq, 'send_async_v2', req, INVALID_HANDLE, ...g.str('origin'), 0).status).toBe(OK);
      expect(g.call(httpReq, 'send', req, INVALID_HANDLE, ...g.str('origin'), g.alloc(4), g.alloc(4))).toBe(OK);
    }
    expect(sends(g)).toHaveLength(32);
    expect(g.call(httpReq, 'send', req, INVALID_HANDLE, ...g.str('origin'), g.alloc(4), g.alloc(4))).toBe(
      LIMITEXCEEDED,
    );
    expect(g.callOut(httpReq, 'send_async', req, INVALID_HANDLE, ...g.str('origin')).status).toBe(LIMITEXCEEDED);
    expect(sends(g)).toHaveLength(32);
    expect(g.limitReports).toEqual([
      'compute-host: GET /: limit: the 33rd backend request of this request failed (Fastly allows 32 per execution)',
    ]);
  });
});
