// The header calls fastly_http_req and fastly_http_resp share, on a request's or response's list.
import type { Sandbox } from '../guest/sandbox.js';
import type { Header } from '../protocol.js';
import { HostError, HTTPINVALID, INVAL, NONE, OK } from '../guest/status.js';
import type { AbiModule } from './types.js';

const MAX_HEADER_NAME = 65535;

export function headerName(sb: Sandbox, ptr: number, len: number): string {
  if (len > MAX_HEADER_NAME) throw new HostError(INVAL, `header name of ${len} bytes`);
  const name = sb.mem.latin1(ptr, len).toLowerCase();
  if (!/^[!#$%&'*+\-.^_`|~0-9a-z]+$/.test(name))
    throw new HostError(HTTPINVALID, `"${name.slice(0, 40)}" is not a header name`);
  return name;
}

function checkedValue(value: string): string {
  if (/[\r\n\0]/.test(value)) throw new HostError(HTTPINVALID, 'a header value holds CR, LF or NUL');
  return value;
}

function headerValue(sb: Sandbox, ptr: number, len: number): string {
  return checkedValue(sb.mem.latin1(ptr, len));
}

export function uniqueNames(headers: Header[]): string[] {
  return [...new Set(headers.map(([n]) => n))];
}

function replaceAll(headers: Header[], kept: Header[]): void {
  headers.length = 0;
  headers.push(...kept);
}

export function headerCalls(kind: 'req' | 'resp'): AbiModule {
  const list = (sb: Sandbox, h: number): Header[] => sb.handles.get(h, kind).headers;
  return {
    header_names_get: (sb, h: number, buf: number, len: number, cursor: number, ending: number, nw: number) =>
      sb.mem.writeMulti(uniqueNames(list(sb, h)), buf, len, cursor, ending, nw),
    header_value_get: (sb, h: number, np: number, nl: number, buf: number, max: number, nw: number) => {
      const name = headerName(sb, np, nl);
      const found = list(sb, h).find(([n]) => n === name);
      if (!found) return NONE;
      return sb.mem.writeOut(Buffer.from(found[1], 'latin1'), buf, max, nw);
    },
    header_values_get: (
      sb,
      h: number,
      np: number,
      nl: number,
      buf: number,
      len: number,
      cursor: number,
      ending: number,
      nw: number,
    ) => {
      const name = headerName(sb, np, nl);
      const values = list(sb, h)
        .filter(([n]) => n === name)
        .map(([, v]) => v);
      return sb.mem.writeMulti(values, buf, len, cursor, ending, nw);
    },
    header_values_set: (sb, h: number, np: number, nl: number, vp: number, vl: number) => {
      const name = headerName(sb, np, nl);
      const headers = list(sb, h);
      const values = sb.mem.latin1(vp, vl).split('\0');
      if (values.at(-1) === '') values.pop();
      values.forEach(checkedValue);
      replaceAll(headers, [...headers.filter(([n]) => n !== name), ...values.map((v): Header => [name, v])]);
      return OK;
    },
    header_insert: (sb, h: number, np: number, nl: number, vp: number, vl: number) => {
      const name = headerName(sb, np, nl);
      const value = headerValue(sb, vp, vl);
      const headers = list(sb, h);
      const idx = headers.findIndex(([n]) => n === name);
      const kept = headers.filter(([n]) => n !== name);
      if (idx < 0) kept.push([name, value]);
      else kept.splice(Math.min(idx, kept.length), 0, [name, value]);
      replaceAll(headers, kept);
      return OK;
    },
    header_append: (sb, h: number, np: number, nl: number, vp: number, vl: number) => {
      const name = headerName(sb, np, nl);
      list(sb, h).push([name, headerValue(sb, vp, vl)]);
      return OK;
    },
    header_remove: (sb, h: number, np: number, nl: number) => {
      const name = headerName(sb, np, nl);
      const headers = list(sb, h);
      if (!headers.some(([n]) => n === name)) return INVAL;
      replaceAll(
        headers,
        headers.filter(([n]) => n !== name),
      );
      return OK;
    },
  };
}
