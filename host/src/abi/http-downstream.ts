// fastly_http_downstream: the client's metadata, and the next request for a reused sandbox.
import type { Sandbox } from '../guest/sandbox.js';
import { botAnswers, type BotAnswers } from './bot-verdict.js';
import { ipBytesOut } from './ip-out.js';
import { originalHeaderCount, originalHeaderNames } from './http-req.js';
import { HostError, INVALID_HANDLE, LIMITEXCEEDED, NONE, OK, UNSUPPORTED } from '../guest/status.js';
import type { AbiModule } from './types.js';

/** Viceroy's longest wait for a next request, and the timeout bit of next_request_options_mask. */
export const NEXT_REQUEST_MAX_WAIT_MS = 10_000;
const NEXT_REQUEST_TIMEOUT = 1 << 1;

const answerNone = (): number => NONE;
const bots = (sb: Sandbox, h: number): BotAnswers => botAnswers(sb.downstreamOf(h)?.headers ?? []);

export const httpDownstream: AbiModule = {
  next_request: (sb, mask: number, opts: number, out: number) => {
    if (sb.pendingNext !== null) throw new HostError(LIMITEXCEEDED, 'the guest already waits for a next request');
    const asked = mask & NEXT_REQUEST_TIMEOUT ? Number(sb.mem.r64(opts)) : NEXT_REQUEST_MAX_WAIT_MS;
    const h = sb.handles.add({ kind: 'nextreq', timeoutMs: Math.min(asked, NEXT_REQUEST_MAX_WAIT_MS) });
    sb.pendingNext = h;
    sb.mem.w32(out, h);
    return OK;
  },
  next_request_wait: (sb, h: number, reqOut: number, bodyOut: number) => {
    const promise = sb.handles.get(h, 'nextreq');
    if (sb.current && !sb.current.responded) {
      throw new HostError(UNSUPPORTED, 'a next request was awaited before the current one was answered');
    }
    sb.handles.delete(h);
    sb.pendingNext = null;
    // The request served so far is over: its response finishes on the main thread from here.
    sb.end();
    const next = sb.awaitNext(promise.timeoutMs);
    if (!next) {
      sb.mem.w32(reqOut, INVALID_HANDLE);
      sb.mem.w32(bodyOut, INVALID_HANDLE);
      return NONE;
    }
    const d = sb.begin(next);
    sb.mem.w32(reqOut, sb.handles.add(d.req));
    sb.mem.w32(bodyOut, sb.handles.add(d.body));
    return OK;
  },
  next_request_abandon: (sb, h: number) => {
    sb.handles.take(h, 'nextreq');
    sb.pendingNext = null;
    return OK;
  },
  downstream_client_ip_addr: (sb, h: number, out: number, nw: number) =>
    ipBytesOut(sb, sb.downstreamOf(h)?.clientIp, out, nw),
  downstream_server_ip_addr: (sb, h: number, out: number, nw: number) =>
    ipBytesOut(sb, sb.downstreamOf(h)?.serverIp, out, nw),
  downstream_client_request_id: (sb, h: number, buf: number, max: number, nw: number) =>
    sb.mem.writeOut(Buffer.from(sb.downstreamOf(h)?.traceId ?? ''), buf, max, nw),
  downstream_tls_cipher_openssl_name: answerNone,
  downstream_tls_protocol: answerNone,
  downstream_tls_client_hello: answerNone,
  downstream_tls_raw_client_certificate: answerNone,
  downstream_tls_client_servername: answerNone,
  downstream_tls_ja3_md5: answerNone,
  downstream_tls_ja4: answerNone,
  downstream_client_h2_fingerprint: answerNone,
  downstream_client_oh_fingerprint: answerNone,
  // As Viceroy: the verdict comes from the X-Fastly-Bot-* headers the client sent (bot-verdict.ts),
  // of the request the handle names.
  downstream_bot_analyzed: (sb, h: number, out: number) => {
    sb.mem.w32(out, bots(sb, h).analyzed);
    return OK;
  },
  downstream_bot_detected: (sb, h: number, out: number) => {
    sb.mem.w32(out, bots(sb, h).detected);
    return OK;
  },
  downstream_bot_verified: (sb, h: number, out: number) => {
    const verified = bots(sb, h).verified;
    if (verified === null) return NONE;
    sb.mem.w32(out, verified);
    return OK;
  },
  downstream_bot_name: (sb, h: number, buf: number, max: number, nw: number) => {
    const name = bots(sb, h).name;
    return name === null ? NONE : sb.mem.writeOut(Buffer.from(name, 'latin1'), buf, max, nw);
  },
  downstream_bot_category: (sb, h: number, buf: number, max: number, nw: number) => {
    const category = bots(sb, h).category;
    return category === null ? NONE : sb.mem.writeOut(Buffer.from(category, 'latin1'), buf, max, nw);
  },
  downstream_bot_category_kind: (sb, h: number, out: number) => {
    const kind = bots(sb, h).categoryKind;
    if (kind === null) return NONE;
    sb.mem.w32(out, kind);
    return OK;
  },
  downstream_original_header_names: (
    sb,
    h: number,
    buf: number,
    len: number,
    cursor: number,
    ending: number,
    nw: number,
  ) => originalHeaderNames(sb, h, buf, len, cursor, ending, nw),
  downstream_original_header_count: (sb, h: number, out: number) => originalHeaderCount(sb, h, out),
};
