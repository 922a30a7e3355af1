// Viceroy caps a guest's linear memory at 128 MiB. The module declares its own maximum, so the
// cap is written into the binary's memory section once at start-up, before compiling.
export const WASM_PAGE = 65536;
export const DEFAULT_MAX_MEMORY = 128 * 1024 * 1024;

function readLeb(bytes: Uint8Array, pos: number): [value: number, next: number] {
  let result = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[pos++];
    if (b === undefined) throw new Error('truncated LEB128');
    result += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if ((b & 0x80) === 0) return [result, pos];
  }
}

function leb(value: number): number[] {
  const out: number[] = [];
  let v = value;
  do {
    let b = v % 128;
    v = Math.floor(v / 128);
    if (v > 0) b |= 0x80;
    out.push(b);
  } while (v > 0);
  return out;
}

/** Returns the module with every 32-bit memory's maximum lowered to `maxBytes` (never below its minimum). */
export function capMemory(bytes: Uint8Array, maxBytes: number): Uint8Array {
  const maxPages = Math.floor(maxBytes / WASM_PAGE);
  let pos = 8;
  while (pos < bytes.length) {
    const id = bytes[pos]!;
    const [size, body] = readLeb(bytes, pos + 1);
    const end = body + size;
    if (id === 5) {
      let p = body;
      const [count, afterCount] = readLeb(bytes, p);
      p = afterCount;
      const section: number[] = [...leb(count)];
      for (let i = 0; i < count; i++) {
        const flags = bytes[p++]!;
        if (flags > 1) return bytes; // shared or 64-bit memory: leave it alone
        const [min, afterMin] = readLeb(bytes, p);
        p = afterMin;
        let max = maxPages;
        if (flags === 1) {
          const [declared, afterMax] = readLeb(bytes, p);
          p = afterMax;
          max = Math.min(declared, maxPages);
        }
        section.push(1, ...leb(min), ...leb(Math.max(min, max)));
      }
      const head = [5, ...leb(section.length)];
      const out = new Uint8Array(pos + head.length + section.length + (bytes.length - end));
      out.set(bytes.subarray(0, pos), 0);
      out.set(head, pos);
      out.set(section, pos + head.length);
      out.set(bytes.subarray(end), pos + head.length + section.length);
      return out;
    }
    pos = end;
  }
  return bytes;
}
