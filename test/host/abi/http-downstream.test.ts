// fastly_http_downstream: the client's metadata (addresses, request id, TLS, bot verdict, original
// headers) and, for a reused sandbox, waiting for the next request.
import { describe, expect, it } from 'vitest';
import { httpBody } from '../../../host/src/abi/http-body.js';
import { httpDownstream, NEXT_REQUEST_MAX_WAIT_MS } from '../../../host/src/abi/http-downstream.js';
import { httpReq } from '../../../host/src/abi/http-req.js';
import { httpResp } from '../../../host/src/abi/http-resp.js';
import { BADF, INVALID_HANDLE, LIMITEXCEEDED, NONE, OK, UNSUPPORTED } from '../../../host/src/guest/status.js';
import type { DownstreamRequest, Header } from '../../../host/src/protocol.js';
import { downstreamRequest, Guest, UNTOUCHED } from './sandbox-fixture.js';

const TIMEOUT = 1 << 1;

/** The guest answers the request it is serving, as it must before it waits for another. */
function respond(g: Guest): void {
  expect(g.call(httpResp, 'send_downstream', g.handle(httpResp, 'new'), g.handle(httpBody, 'new'), 0)).toBe(OK);
}

/** next_request (with a timeout when given) then next_request_wait: the status and the handles. */
function nextRequest(g: Guest, timeoutMs?: number) {
  const opts = g.record(8, { 0: BigInt(timeoutMs ?? 0) });
  const promise = g.handle(httpDownstream, 'next_request', timeoutMs === undefined ? 0 : TIMEOUT, opts);
  const [req, body] = [g.alloc(4), g.alloc(4)];
  const status = g.call(httpDownstream, 'next_request_wait', promise, req, body);
  return { status, req: g.u32(req), body: g.u32(body), promise };
}

const reused = (next: Array<DownstreamRequest | null>) => new Guest({ next });

describe('waiting for the next request', () => {
  it('ends the request served so far, then hands over the next one with its own handles', () => {
    const second = downstreamRequest({
      rid: 2,
      url: 'http://example.test/two',
      clientIp: '2001:db8::2',
      headers: [['x-n', '2']],
    });
    const g = reused([second]);
    respond(g);
    const r = nextRequest(g);
    expect(r.status).toBe(OK);
    expect(g.io.posts.at(-1)).toMatchObject({
      op: 'done',
      rid: 1,
      error: undefined,
      usage: { configLookups: 0, backendRequests: 0 },
    });
    expect(g.ended.map((d) => d.rid)).toEqual([1]);
    const uri = g.buffer(64);
    g.call(httpReq, 'uri_get', r.req, ...uri.args);
    expect(uri.text()).toBe('http://example.test/two');
    const ip = g.buffer(16);
    expect(g.call(httpDownstream, 'downstream_client_ip_addr', r.req, ip.buf, ip.nw)).toBe(OK);
    expect(ip.written()).toBe(16);
    expect(g.readBody(r.body)).toBe('');
  });

  it('waits 10 s at most, as Viceroy, or the shorter time the guest asks', () => {
    const g = reused([]);
    respond(g);
    nextRequest(g);
    nextRequest(g, 250);
    nextRequest(g, 60_000);
    expect(g.nextWaits).toEqual([NEXT_REQUEST_MAX_WAIT_MS, 250, NEXT_REQUEST_MAX_WAIT_MS]);
    expect(NEXT_REQUEST_MAX_WAIT_MS).toBe(10_000);
  });

  it('answers NONE with invalid handles when no request comes in time, as Viceroy', () => {
    const g = reused([null]);
    respond(g);
    expect(nextRequest(g)).toMatchObject({ status: NONE, req: INVALID_HANDLE, body: INVALID_HANDLE });
  });

  it('answers UNSUPPORTED before the current request is answered, as Viceroy, and ends nothing', () => {
    const g = reused([downstreamRequest({ rid: 2 })]);
    expect(nextRequest(g).status).toBe(UNSUPPORTED);
    expect(g.ended).toEqual([]);
    expect(g.nextWaits).toEqual([]);
  });

  it('answers LIMITEXCEEDED for a second promise while one is outstanding, as Viceroy', () => {
    const g = reused([]);
    g.handle(httpDownstream, 'next_request', 0, 0);
    expect(g.callOut(httpDownstream, 'next_request', 0, 0)).toEqual({ status: LIMITEXCEEDED, value: UNTOUCHED });
  });

  it('abandon spends the promise, and a new one may be asked for', () => {
    const g = reused([]);
    const promise = g.handle(httpDownstream, 'next_request', 0, 0);
    expect(g.call(httpDownstream, 'next_request_abandon', promise)).toBe(OK);
    expect(g.call(httpDownstream, 'next_request_abandon', promise)).toBe(BADF);
    expect(g.call(httpDownstream, 'next_request_wait', promise, g.alloc(4), g.alloc(4))).toBe(BADF);
    expect(g.callOut(httpDownstream, 'next_request', 0, 0).status).toBe(OK);
  });
});

describe('client metadata', () => {
  it('gives the client and server addresses as bytes with their count', () => {
    const g = new Guest({ request: { clientIp: '192.0.2.10', serverIp: '::1' } });
    const client = g.buffer(16);
    const server = g.buffer(16);
    expect(g.call(httpDownstream, 'downstream_client_ip_addr', 0, client.buf, client.nw)).toBe(OK);
    expect(g.call(httpDownstream, 'downstream_server_ip_addr', 0, server.buf, server.nw)).toBe(OK);
    expect([[...client.bytes()], server.written(), server.bytes()[15]]).toEqual([[192, 0, 2, 10], 16, 1]);
  });

  it('answers for the request a downstream handle names, else the one being served', () => {
    const g = reused([downstreamRequest({ rid: 2, clientIp: '198.51.100.2' })]);
    const [req, body] = [g.alloc(4), g.alloc(4)];
    g.call(httpReq, 'body_downstream_get', req, body);
    respond(g);
    nextRequest(g);
    const first = g.buffer(16);
    const built = g.buffer(16);
    g.call(httpDownstream, 'downstream_client_ip_addr', g.u32(req), first.buf, first.nw);
    g.call(httpDownstream, 'downstream_client_ip_addr', g.handle(httpReq, 'new'), built.buf, built.nw);
    expect([[...first.bytes()], [...built.bytes()]]).toEqual([
      [192, 0, 2, 10],
      [198, 51, 100, 2],
    ]);
  });

  it('gives the request id, BUFLEN with its size when it does not fit', () => {
    const g = new Guest();
    const id = g.fitsExactly(32, (out) => g.call(httpDownstream, 'downstream_client_request_id', 0, ...out));
    expect(id.text()).toBe('0123456789abcdef0123456789abcdef');
  });

  it('answers NONE for the addresses between requests', () => {
    const g = new Guest({ request: null });
    expect(g.call(httpDownstream, 'downstream_client_ip_addr', 0, g.alloc(16), g.alloc(4))).toBe(NONE);
  });

  it('answers NONE for TLS and fingerprints, as Viceroy without TLS', () => {
    const g = new Guest();
    for (const call of [
      'downstream_tls_cipher_openssl_name',
      'downstream_tls_protocol',
      'downstream_tls_client_hello',
      'downstream_tls_raw_client_certificate',
      'downstream_tls_client_servername',
      'downstream_tls_ja3_md5',
      'downstream_tls_ja4',
      'downstream_client_h2_fingerprint',
      'downstream_client_oh_fingerprint',
    ])
      expect(g.call(httpDownstream, call, 0, ...g.buffer(64).args), call).toBe(NONE);
  });

  it('answers UNSUPPORTED for calls the host does not emulate, naming them', () => {
    const g = new Guest();
    expect(g.imported('fastly_http_downstream', 'downstream_compliance_region')(0, ...g.buffer(16).args)).toBe(
      UNSUPPORTED,
    );
    expect(g.io.unsupportedNames).toEqual(['fastly_http_downstream.downstream_compliance_region']);
  });
});

describe('the bot verdict, from the X-Fastly-Bot-* headers the client sent', () => {
  const BOT: Header[] = [
    ['x-fastly-bot-analyzed', 'true'],
    ['x-fastly-bot-detected', 'true'],
    ['x-fastly-bot-verified', 'false'],
    ['x-fastly-bot-name', 'Crawly'],
    ['x-fastly-bot-category', 'Search-Engine-Crawler'],
  ];

  it('is written as each call answers it, whatever the guest did to its request since', () => {
    const g = new Guest({ request: { headers: BOT } });
    const [req, body] = [g.alloc(4), g.alloc(4)];
    g.call(httpReq, 'body_downstream_get', req, body);
    g.call(httpReq, 'header_remove', g.u32(req), ...g.str('x-fastly-bot-name'));
    const u32s = [
      'downstream_bot_analyzed',
      'downstream_bot_detected',
      'downstream_bot_verified',
      'downstream_bot_category_kind',
    ].map((c) => g.callOut(httpDownstream, c, g.u32(req)));
    expect(u32s).toEqual([1, 1, 0, 11].map((value) => ({ status: OK, value })));
    const [name, category] = [g.buffer(32), g.buffer(32)];
    g.call(httpDownstream, 'downstream_bot_name', g.u32(req), ...name.args);
    g.call(httpDownstream, 'downstream_bot_category', g.u32(req), ...category.args);
    expect([name.text(), category.text()]).toEqual(['Crawly', 'Search-Engine-Crawler']);
  });

  it('is "not analysed" without the headers: 0s, and NONE for the rest', () => {
    const g = new Guest();
    expect(g.callOut(httpDownstream, 'downstream_bot_analyzed', 0)).toEqual({ status: OK, value: 0 });
    expect(g.callOut(httpDownstream, 'downstream_bot_verified', 0).status).toBe(NONE);
    expect(g.callOut(httpDownstream, 'downstream_bot_category_kind', 0).status).toBe(NONE);
    expect(g.call(httpDownstream, 'downstream_bot_name', 0, ...g.buffer(8).args)).toBe(NONE);
    expect(g.call(httpDownstream, 'downstream_bot_category', 0, ...g.buffer(8).args)).toBe(NONE);
  });

  it('answers BUFLEN with the size of a name that does not fit', () => {
    const g = new Guest({ request: { headers: BOT } });
    g.fitsExactly(6, (out) => g.call(httpDownstream, 'downstream_bot_name', 0, ...out));
  });
});

describe('the original headers of a downstream request', () => {
  it('lists each name once and counts distinct names (Viceroy counts every value)', () => {
    const g = new Guest({
      request: {
        headers: [
          ['host', 'h'],
          ['cookie', 'a'],
          ['cookie', 'b'],
        ],
      },
    });
    const m = g.multi(64);
    expect(g.call(httpDownstream, 'downstream_original_header_names', 0, ...m.args())).toBe(OK);
    expect(m.items()).toEqual(['host', 'cookie']);
    expect(g.callOut(httpDownstream, 'downstream_original_header_count', 0)).toEqual({ status: OK, value: 2 });
  });
});
