// Reads and writes of the guest's linear memory. Views are rebuilt when the memory grows (its
// buffer is replaced), and every read is bounds-checked so a bad pointer is an INVAL, not a crash.
import { BUFLEN, HostError, INVAL, OK } from './abi.js';

let memory: WebAssembly.Memory | null = null;
let memBuf: ArrayBuffer = new ArrayBuffer(0);
let u8 = new Uint8Array(memBuf);
let dv = new DataView(memBuf);

export function mem(): Uint8Array {
  if (memory && memory.buffer !== memBuf) {
    memBuf = memory.buffer;
    u8 = new Uint8Array(memBuf);
    dv = new DataView(memBuf);
  }
  return u8;
}
export function view(): DataView {
  mem();
  return dv;
}
export function latin1(ptr: number, len: number): string {
  mem();
  if (ptr + len > memBuf.byteLength) throw new HostError(INVAL);
  return Buffer.from(memBuf, ptr, len).toString('latin1');
}
export function utf8(ptr: number, len: number): string {
  mem();
  if (ptr + len > memBuf.byteLength) throw new HostError(INVAL);
  return Buffer.from(memBuf, ptr, len).toString('utf8');
}
export function copyIn(ptr: number, len: number): Uint8Array {
  mem();
  if (ptr + len > memBuf.byteLength) throw new HostError(INVAL);
  return u8.slice(ptr, ptr + len);
}
export const w8 = (p: number, v: number) => view().setUint8(p, v);
export const w16 = (p: number, v: number) => view().setUint16(p, v, true);
export const w32 = (p: number, v: number) => view().setUint32(p, v >>> 0, true);
export const w64 = (p: number, v: bigint) => view().setBigUint64(p, BigInt.asUintN(64, v), true);
export const r32 = (p: number) => view().getUint32(p, true);
export const r64 = (p: number) => view().getBigUint64(p, true);

/** Copies `data` out if it fits, otherwise reports the size needed, as the guest retries with it. */
export function writeOut(data: Uint8Array, buf: number, max: number, nwritten: number): number {
  if (data.length > max) {
    w32(nwritten, data.length);
    return BUFLEN;
  }
  mem().set(data, buf);
  w32(nwritten, data.length);
  return OK;
}

/** Viceroy's multi-value encoding: items each followed by NUL, resumable from a cursor. */
export function writeMulti(items: string[], buf: number, len: number, cursor: number, ending: number, nwritten: number): number {
  let off = 0;
  let i = cursor;
  const m = mem();
  for (; i < items.length; i++) {
    const bytes = Buffer.from(items[i] ?? '', 'latin1');
    const need = bytes.length + 1;
    if (off + need > len) {
      if (off === 0) {
        w32(nwritten, need);
        if (ending) w64(ending, -1n);
        return BUFLEN;
      }
      break;
    }
    m.set(bytes, buf + off);
    m[buf + off + bytes.length] = 0;
    off += need;
  }
  if (ending) w64(ending, i < items.length ? BigInt(i) : -1n);
  w32(nwritten, off);
  return OK;
}

/** Points the helpers at the running instance's memory (null between requests). */
export function attachMemory(m: WebAssembly.Memory | null): void {
  memory = m;
  memBuf = m ? m.buffer : new ArrayBuffer(0);
  u8 = new Uint8Array(memBuf);
  dv = new DataView(memBuf);
}
