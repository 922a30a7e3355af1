// The header calls fastly_http_req and fastly_http_resp share: names lower-cased, values as bytes,
// multi-value lists NUL-terminated and resumable from a cursor.
import { describe, expect, it } from 'vitest';
import { httpReq } from '../../../host/src/abi/http-req.js';
import { httpResp } from '../../../host/src/abi/http-resp.js';
import { BADF, BUFLEN, HTTPINVALID, INVAL, NONE, OK } from '../../../host/src/guest/status.js';
import type { AbiModule } from '../../../host/src/abi/types.js';
import { Guest, OUTSIDE } from './sandbox-fixture.js';

/** A new request (or response) with `headers` appended in order. */
function withHeaders(headers: Array<[string, string]>, module: AbiModule = httpReq): [Guest, number] {
  const g = new Guest();
  const h = g.handle(module, 'new');
  for (const [n, v] of headers)
    expect(g.call(module, 'header_append', h, ...g.str(n, 'latin1'), ...g.str(v, 'latin1'))).toBe(OK);
  return [g, h];
}

function names(g: Guest, h: number, module: AbiModule = httpReq): string[] {
  const m = g.multi(256);
  expect(g.call(module, 'header_names_get', h, ...m.args())).toBe(OK);
  return m.items();
}

function values(g: Guest, h: number, name: string): string[] {
  const m = g.multi(256);
  expect(g.call(httpReq, 'header_values_get', h, ...g.str(name), ...m.args())).toBe(OK);
  return m.items();
}

describe('names and values', () => {
  it('lists each name once, lower-cased, in first-seen order, and every value of a name', () => {
    const [g, h] = withHeaders([
      ['Set-Cookie', 'a=1'],
      ['X-Id', '7'],
      ['set-cookie', 'b=2'],
    ]);
    expect(names(g, h)).toEqual(['set-cookie', 'x-id']);
    expect(values(g, h, 'SET-COOKIE')).toEqual(['a=1', 'b=2']);
    expect(values(g, h, 'absent')).toEqual([]);
  });

  it('header_value_get writes the first value; NONE when there is none (Viceroy answers INVAL)', () => {
    const [g, h] = withHeaders([
      ['x-a', 'one'],
      ['x-a', 'two'],
    ]);
    const out = g.buffer(16);
    expect(g.call(httpReq, 'header_value_get', h, ...g.str('x-a'), ...out.args)).toBe(OK);
    expect(out.text()).toBe('one');
    expect(g.call(httpReq, 'header_value_get', h, ...g.str('x-b'), ...out.args)).toBe(NONE);
  });

  it('header_value_get answers BUFLEN with the size needed', () => {
    const [g, h] = withHeaders([['x-a', 'a longer value']]);
    g.fitsExactly(14, (out) => g.call(httpReq, 'header_value_get', h, ...g.str('x-a'), ...out));
  });

  it('keeps value bytes as they are (one char a byte)', () => {
    const [g, h] = withHeaders([['x-name', 'caf\xe9 \xc3\xa9']]);
    const out = g.buffer(16);
    g.call(httpReq, 'header_value_get', h, ...g.str('x-name'), ...out.args);
    expect([...out.bytes()]).toEqual([...Buffer.from('caf\xe9 \xc3\xa9', 'latin1')]);
  });
});

describe('the multi-value cursor', () => {
  it('stops at the last item that fits, gives where to resume, and -1 once the list is done', () => {
    const [g, h] = withHeaders([
      ['aaa', '1'],
      ['bbb', '2'],
      ['ccc', '3'],
    ]);
    const m = g.multi(9);
    expect(g.call(httpReq, 'header_names_get', h, ...m.args(0))).toBe(OK);
    expect([m.items(), m.endingCursor()]).toEqual([['aaa', 'bbb'], 2n]);
    expect(g.call(httpReq, 'header_names_get', h, ...m.args(2))).toBe(OK);
    expect([m.items(), m.endingCursor()]).toEqual([['ccc'], -1n]);
  });

  it('answers BUFLEN with the size of the first item (and its NUL) when not even that fits', () => {
    const [g, h] = withHeaders([['x-long-name', '1']]);
    const m = g.multi(4);
    expect(g.call(httpReq, 'header_names_get', h, ...m.args())).toBe(BUFLEN);
    expect([g.u32(m.nw), m.endingCursor()]).toEqual([12, -1n]);
  });

  it('writes no ending cursor when its pointer is 0, as Viceroy', () => {
    const [g, h] = withHeaders([['x-a', '1']]);
    const [buf, len, , , nw] = g.multi(16).args();
    expect(g.call(httpReq, 'header_names_get', h, buf, len, 0, 0, nw)).toBe(OK);
    expect(g.u32(nw)).toBe(4);
  });
});

describe('changing headers', () => {
  it('header_insert replaces every value of a name, where its first one stood', () => {
    const [g, h] = withHeaders([
      ['x-a', '1'],
      ['x-b', '2'],
      ['x-a', '3'],
    ]);
    expect(g.call(httpReq, 'header_insert', h, ...g.str('X-A'), ...g.str('new'))).toBe(OK);
    expect(g.call(httpReq, 'header_insert', h, ...g.str('x-c'), ...g.str('4'))).toBe(OK);
    expect(names(g, h)).toEqual(['x-a', 'x-b', 'x-c']);
    expect(values(g, h, 'x-a')).toEqual(['new']);
  });

  it('header_values_set replaces a name with a NUL-separated list', () => {
    const [g, h] = withHeaders([
      ['x-a', '1'],
      ['x-b', '2'],
    ]);
    expect(g.call(httpReq, 'header_values_set', h, ...g.str('x-a'), ...g.str('p\0q\0'))).toBe(OK);
    expect(values(g, h, 'x-a')).toEqual(['p', 'q']);
    expect(names(g, h)).toEqual(['x-b', 'x-a']);
  });

  it('header_remove drops every value of a name; INVAL when it has none, as Viceroy', () => {
    const [g, h] = withHeaders([
      ['x-a', '1'],
      ['x-b', '2'],
      ['x-a', '3'],
    ]);
    expect(g.call(httpReq, 'header_remove', h, ...g.str('x-a'))).toBe(OK);
    expect(names(g, h)).toEqual(['x-b']);
    expect(g.call(httpReq, 'header_remove', h, ...g.str('x-a'))).toBe(INVAL);
  });
});

describe('refused names and values', () => {
  it('answer HTTPINVALID (Viceroy: ERROR) for a name that is not a token, and change nothing', () => {
    const [g, h] = withHeaders([['x-a', '1']]);
    for (const name of ['', 'x a', 'x:a', 'x\xe9'])
      expect(g.call(httpReq, 'header_append', h, ...g.str(name, 'latin1'), ...g.str('v')), JSON.stringify(name)).toBe(
        HTTPINVALID,
      );
    expect(names(g, h)).toEqual(['x-a']);
  });

  it('answer HTTPINVALID (Viceroy: ERROR) for a value holding CR or LF', () => {
    const [g, h] = withHeaders([]);
    expect(g.call(httpReq, 'header_append', h, ...g.str('x-a'), ...g.str('a\r\nb'))).toBe(HTTPINVALID);
    expect(g.call(httpReq, 'header_insert', h, ...g.str('x-a'), ...g.str('a\nb'))).toBe(HTTPINVALID);
    expect(names(g, h)).toEqual([]);
  });

  it('answer HTTPINVALID for a list of values one of which holds CR or LF, and keep the old values', () => {
    const [g, h] = withHeaders([['x-a', 'kept']]);
    expect(g.call(httpReq, 'header_values_set', h, ...g.str('x-a'), ...g.str('fine\0a\r\nInjected: yes\0'))).toBe(
      HTTPINVALID,
    );
    expect(values(g, h, 'x-a')).toEqual(['kept']);
  });

  it('answer INVAL for a name longer than 65535 bytes before reading it, as Viceroy', () => {
    const [g, h] = withHeaders([]);
    expect(g.call(httpReq, 'header_remove', h, 16, 65536)).toBe(INVAL);
    expect(g.call(httpReq, 'header_value_get', h, 16, 70000, ...g.buffer(4).args)).toBe(INVAL);
  });

  it('answer BADF for a handle that is not a request, and INVAL for a pointer outside memory', () => {
    const [g, h] = withHeaders([]);
    expect(g.call(httpReq, 'header_append', 99, ...g.str('x-a'), ...g.str('1'))).toBe(BADF);
    expect(g.call(httpReq, 'header_append', h, OUTSIDE, 3, ...g.str('1'))).toBe(INVAL);
    expect(g.call(httpReq, 'header_append', h, ...g.str('x-a'), OUTSIDE, 1)).toBe(INVAL);
  });
});

describe('on a response', () => {
  it('the same calls edit the response, and a request handle is BADF there', () => {
    const [g, h] = withHeaders([['Content-Type', 'text/plain']], httpResp);
    expect(names(g, h, httpResp)).toEqual(['content-type']);
    const req = g.handle(httpReq, 'new');
    expect(g.call(httpResp, 'header_insert', req, ...g.str('x-a'), ...g.str('1'))).toBe(BADF);
  });
});
