// fastly_http_req: the downstream request, requests the guest builds (method, URI, version, the
// settings it may give), the original headers, and polling or selecting pending sends.
import { describe, expect, it } from 'vitest';
import { httpBody } from '../../../host/src/abi/http-body.js';
import { httpReq } from '../../../host/src/abi/http-req.js';
import { httpResp } from '../../../host/src/abi/http-resp.js';
import { BADF, ERROR, HTTPINVALID, INVAL, INVALID_HANDLE, OK } from '../../../host/src/guest/status.js';
import type { WaitResult } from '../../../host/src/protocol.js';
import { backendConfig, Guest, inTurn } from './sandbox-fixture.js';

const ORIGIN = backendConfig('origin', 'http://127.0.0.1:8080/');
const ANSWER: WaitResult = { ok: true, status: 204, headers: [], stream: 3, remoteIp: '127.0.0.1', remotePort: 8080 };

function text(g: Guest, call: 'method_get' | 'uri_get', h: number): string {
  const out = g.buffer(128);
  expect(g.call(httpReq, call, h, ...out.args)).toBe(OK);
  return out.text('latin1');
}

describe('fastly_http_req.body_downstream_get', () => {
  it("gives the client's request and its body, streamed from the main thread", () => {
    const g = new Guest({
      request: { method: 'POST', url: 'http://example.test/join?x=1', bodyStream: 5 },
      answers: { read: inTurn({ data: Buffer.from('form') }, { data: null }) },
    });
    const [req, body] = [g.alloc(4), g.alloc(4)];
    expect(g.call(httpReq, 'body_downstream_get', req, body)).toBe(OK);
    expect([text(g, 'method_get', g.u32(req)), text(g, 'uri_get', g.u32(req))]).toEqual([
      'POST',
      'http://example.test/join?x=1',
    ]);
    expect(g.readBody(g.u32(body))).toBe('form');
    expect(g.io.calls[0]).toEqual({ op: 'read', stream: 5, max: 1024 });
  });

  it('answers ERROR between requests of a reused sandbox', () => {
    const g = new Guest({ request: null });
    expect(g.call(httpReq, 'body_downstream_get', g.alloc(4), g.alloc(4))).toBe(ERROR);
  });
});

describe('a request the guest builds', () => {
  it('starts as GET / over HTTP/1.1 with no headers', () => {
    const g = new Guest();
    const h = g.handle(httpReq, 'new');
    expect([text(g, 'method_get', h), text(g, 'uri_get', h), g.callOut(httpReq, 'version_get', h).value]).toEqual([
      'GET',
      '/',
      2,
    ]);
    const names = g.multi(16);
    expect(g.call(httpReq, 'header_names_get', h, ...names.args())).toBe(OK);
    expect(names.items()).toEqual([]);
  });

  it('keeps any token method as spelled; HTTPINVALID for one that is not a token (Viceroy: ERROR)', () => {
    const g = new Guest();
    const h = g.handle(httpReq, 'new');
    expect(g.call(httpReq, 'method_set', h, ...g.str('purge'))).toBe(OK);
    expect(text(g, 'method_get', h)).toBe('purge');
    for (const bad of ['', 'GET /', 'G(T', 'caf\xe9'])
      expect(g.call(httpReq, 'method_set', h, ...g.str(bad, 'latin1')), bad).toBe(HTTPINVALID);
    expect(text(g, 'method_get', h)).toBe('purge');
  });

  it('answers BUFLEN with the size needed for a method or URI that does not fit', () => {
    const g = new Guest();
    const h = g.handle(httpReq, 'new');
    g.call(httpReq, 'uri_set', h, ...g.str('https://example.test/a/long/path'));
    g.fitsExactly(32, (out) => g.call(httpReq, 'uri_get', h, ...out));
    g.call(httpReq, 'method_set', h, ...g.str('OPTIONS'));
    g.fitsExactly(7, (out) => g.call(httpReq, 'method_get', h, ...out));
  });

  it('keeps a URI as given; HTTPINVALID for an empty one or one with spaces or NUL (Viceroy: ERROR)', () => {
    const g = new Guest();
    const h = g.handle(httpReq, 'new');
    expect(g.call(httpReq, 'uri_set', h, ...g.str('http://example.test/%20?q=a+b'))).toBe(OK);
    for (const bad of ['', 'http://example.test/a b', '/\0'])
      expect(g.call(httpReq, 'uri_set', h, ...g.str(bad)), bad).toBe(HTTPINVALID);
    expect(text(g, 'uri_get', h)).toBe('http://example.test/%20?q=a+b');
  });

  it('takes the HTTP versions the ABI names (0 to 4) and answers INVAL for others, as Viceroy', () => {
    const g = new Guest();
    const h = g.handle(httpReq, 'new');
    expect(g.call(httpReq, 'version_set', h, 3)).toBe(OK);
    expect(g.callOut(httpReq, 'version_get', h).value).toBe(3);
    expect(g.call(httpReq, 'version_set', h, 5)).toBe(INVAL);
    expect(g.callOut(httpReq, 'version_get', h).value).toBe(3);
  });

  it('accepts framing and cache settings, which change nothing here, on a request handle only', () => {
    const g = new Guest();
    const h = g.handle(httpReq, 'new');
    const resp = g.handle(httpResp, 'new');
    for (const [call, args] of [
      ['framing_headers_mode_set', [1]],
      ['cache_override_set', [1, 0, 0]],
      ['cache_override_v2_set', [1, 0, 0, 0, 0]],
    ] as const) {
      expect(g.call(httpReq, call, h, ...args), call).toBe(OK);
      expect(g.call(httpReq, call, resp, ...args), call).toBe(BADF);
    }
  });

  it('sends auto-decompression as the guest set it (bit 0, gzip)', () => {
    const g = new Guest({ manifest: { backends: { origin: ORIGIN } } });
    const h = g.handle(httpReq, 'new');
    expect(g.call(httpReq, 'auto_decompress_response_set', h, 1)).toBe(OK);
    g.handle(httpReq, 'send_async', h, INVALID_HANDLE, ...g.str('origin'));
    g.call(httpReq, 'auto_decompress_response_set', h, 0);
    g.handle(httpReq, 'send_async', h, INVALID_HANDLE, ...g.str('origin'));
    expect(g.io.posts.map((p) => p.op === 'send' && p.req.autoDecompress)).toEqual([true, false]);
  });

  it('is spent by close: BADF after, and close of anything else is BADF', () => {
    const g = new Guest();
    const h = g.handle(httpReq, 'new');
    expect(g.call(httpReq, 'close', h)).toBe(OK);
    expect(g.call(httpReq, 'close', h)).toBe(BADF);
    expect(g.call(httpReq, 'method_get', h, ...g.buffer(8).args)).toBe(BADF);
    expect(g.call(httpReq, 'close', g.handle(httpBody, 'new'))).toBe(BADF);
  });
});

describe('the original headers (without a handle: the request being served)', () => {
  it('are the names the client sent, each once, whatever the guest changed since', () => {
    const g = new Guest({
      request: {
        headers: [
          ['host', 'example.test'],
          ['cookie', 'a=1'],
          ['cookie', 'b=2'],
        ],
      },
    });
    const [req, body] = [g.alloc(4), g.alloc(4)];
    g.call(httpReq, 'body_downstream_get', req, body);
    g.call(httpReq, 'header_remove', g.u32(req), ...g.str('cookie'));
    const m = g.multi(64);
    expect(g.call(httpReq, 'original_header_names_get', ...m.args())).toBe(OK);
    expect(m.items()).toEqual(['host', 'cookie']);
    expect(g.callOut(httpReq, 'original_header_count')).toEqual({ status: OK, value: 2 });
  });

  it('are none between requests', () => {
    const g = new Guest({ request: null });
    expect(g.callOut(httpReq, 'original_header_count').value).toBe(0);
  });
});

describe('polling and selecting pending sends', () => {
  function sent() {
    const g = new Guest({ manifest: { backends: { origin: ORIGIN } }, answers: { wait: () => ANSWER } });
    const send = () => g.handle(httpReq, 'send_async', g.handle(httpReq, 'new'), INVALID_HANDLE, ...g.str('origin'));
    return { g, send };
  }

  function poll(g: Guest, pending: number) {
    const [done, resp, body] = [g.alloc(4), g.alloc(4), g.alloc(4)];
    const status = g.call(httpReq, 'pending_req_poll', pending, done, resp, body);
    return { status, done: g.u32(done), resp: g.u32(resp), body: g.u32(body) };
  }

  it('poll asks the main thread whether the send is done, and answers done 0 with no handles while not', () => {
    const { g, send } = sent();
    g.io.answers.ready = () => false;
    const pending = send();
    expect(poll(g, pending)).toEqual({ status: OK, done: 0, resp: INVALID_HANDLE, body: INVALID_HANDLE });
    expect(g.io.calls).toEqual([{ op: 'ready', item: { kind: 'pending', id: 1 } }]);
  });

  it('poll gives the response once the send is done, and spends the pending handle', () => {
    const { g, send } = sent();
    g.io.answers.ready = () => true;
    const pending = send();
    const r = poll(g, pending);
    expect(r).toMatchObject({ status: OK, done: 1 });
    expect(g.callOut(httpResp, 'status_get', r.resp).value & 0xffff).toBe(204);
    expect(poll(g, pending).status).toBe(BADF);
  });

  it('select waits in the main thread on every send listed and gives the first answered', () => {
    const { g, send } = sent();
    g.io.answers.select = () => 1;
    const list = [send(), send()];
    const [idx, resp, body] = [g.alloc(4), g.alloc(4), g.alloc(4)];
    expect(g.call(httpReq, 'pending_req_select', g.u32s(list), 2, idx, resp, body)).toBe(OK);
    expect(g.io.calls).toEqual([
      {
        op: 'select',
        items: [
          { kind: 'pending', id: 1 },
          { kind: 'pending', id: 2 },
        ],
        timeoutMs: 0,
      },
      { op: 'wait', upstreamId: 2 },
    ]);
    expect(g.u32(idx)).toBe(1);
    expect(g.callOut(httpResp, 'status_get', g.u32(resp)).value & 0xffff).toBe(204);
  });

  it('select answers INVAL for an empty list, as Viceroy, instead of waiting on nothing', () => {
    const { g } = sent();
    expect(g.call(httpReq, 'pending_req_select', g.u32s([]), 0, g.alloc(4), g.alloc(4), g.alloc(4))).toBe(INVAL);
    expect(g.io.calls).toEqual([]);
  });

  it('select answers BADF for a listed handle that is not a pending send, before it waits', () => {
    const { g, send } = sent();
    expect(g.call(httpReq, 'pending_req_select', g.u32s([send(), 77]), 2, g.alloc(4), g.alloc(4), g.alloc(4))).toBe(
      BADF,
    );
    expect(g.io.calls).toEqual([]);
  });
});
