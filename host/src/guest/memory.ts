// Reads and writes of one guest instance's linear memory. Views are rebuilt when the memory grows
// (its buffer is replaced), and every access is bounds-checked, so a bad pointer is the guest's
// INVAL, not a crash of the host.
import { BUFLEN, HostError, INVAL, OK } from './status.js';

export class GuestMemory {
  private buffer: ArrayBuffer;
  private u8: Uint8Array;
  private dv: DataView;

  constructor(private readonly memory: WebAssembly.Memory) {
    this.buffer = memory.buffer;
    this.u8 = new Uint8Array(this.buffer);
    this.dv = new DataView(this.buffer);
  }

  /** The whole memory as bytes, current after any grow. */
  bytes(): Uint8Array {
    if (this.memory.buffer !== this.buffer) {
      this.buffer = this.memory.buffer;
      this.u8 = new Uint8Array(this.buffer);
      this.dv = new DataView(this.buffer);
    }
    return this.u8;
  }

  view(): DataView {
    this.bytes();
    return this.dv;
  }

  get byteLength(): number {
    return this.bytes().length;
  }

  private check(ptr: number, len: number): void {
    if (ptr < 0 || len < 0 || ptr + len > this.bytes().length)
      throw new HostError(INVAL, `guest pointer ${ptr}+${len} is outside its memory`);
  }

  latin1(ptr: number, len: number): string {
    this.check(ptr, len);
    return Buffer.from(this.buffer, ptr, len).toString('latin1');
  }

  utf8(ptr: number, len: number): string {
    this.check(ptr, len);
    return Buffer.from(this.buffer, ptr, len).toString('utf8');
  }

  copyIn(ptr: number, len: number): Uint8Array {
    this.check(ptr, len);
    return this.u8.slice(ptr, ptr + len);
  }

  set(data: Uint8Array, ptr: number): void {
    this.check(ptr, data.length);
    this.u8.set(data, ptr);
  }

  w8(p: number, v: number): void {
    this.view().setUint8(p, v);
  }
  w16(p: number, v: number): void {
    this.view().setUint16(p, v, true);
  }
  w32(p: number, v: number): void {
    this.view().setUint32(p, v >>> 0, true);
  }
  w64(p: number, v: bigint): void {
    this.view().setBigUint64(p, BigInt.asUintN(64, v), true);
  }
  r8(p: number): number {
    return this.view().getUint8(p);
  }
  r16(p: number): number {
    return this.view().getUint16(p, true);
  }
  r32(p: number): number {
    return this.view().getUint32(p, true);
  }
  r64(p: number): bigint {
    return this.view().getBigUint64(p, true);
  }

  /** Copies `data` out if it fits, otherwise reports the size needed, as the guest retries with it. */
  writeOut(data: Uint8Array, buf: number, max: number, nwritten: number): number {
    if (data.length > max) {
      this.w32(nwritten, data.length);
      return BUFLEN;
    }
    this.set(data, buf);
    this.w32(nwritten, data.length);
    return OK;
  }

  /** Viceroy's multi-value encoding: items each followed by NUL, resumable from a cursor. */
  writeMulti(items: string[], buf: number, len: number, cursor: number, ending: number, nwritten: number): number {
    let off = 0;
    let i = cursor;
    const m = this.bytes();
    for (; i < items.length; i++) {
      const bytes = Buffer.from(items[i] ?? '', 'latin1');
      const need = bytes.length + 1;
      if (off + need > len) {
        if (off === 0) {
          this.w32(nwritten, need);
          if (ending) this.w64(ending, -1n);
          return BUFLEN;
        }
        break;
      }
      this.check(buf + off, need);
      m.set(bytes, buf + off);
      m[buf + off + bytes.length] = 0;
      off += need;
    }
    if (ending) this.w64(ending, i < items.length ? BigInt(i) : -1n);
    this.w32(nwritten, off);
    return OK;
  }
}
