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

export interface MemoryLimits {
  initial: number;
  maximum: number;
}

export const MEMORY_IMPORT = { module: 'compute_host', name: 'memory' } as const;

function nameBytes(s: string): number[] {
  const b = [...Buffer.from(s, 'utf8')];
  return [...leb(b.length), ...b];
}

/**
 * Rewrites the module so its one memory is imported instead of defined, with the cap applied.
 * A worker can then hand each new instance a zeroed, reused memory: allocating a fresh one per
 * request takes a process-wide V8 lock and page-faults megabytes in, which under load cost more
 * than the guest's own work. Returns null for modules this does not fit (no memory, several, shared).
 */
export function importMemory(bytes: Uint8Array, maxBytes: number): { bytes: Uint8Array; limits: MemoryLimits } | null {
  const maxPages = Math.floor(maxBytes / WASM_PAGE);
  const sections: Array<{ id: number; start: number; end: number; body: number }> = [];
  let pos = 8;
  while (pos < bytes.length) {
    const id = bytes[pos]!;
    const [size, body] = readLeb(bytes, pos + 1);
    sections.push({ id, start: pos, end: body + size, body });
    pos = body + size;
  }
  const mem = sections.find((s) => s.id === 5);
  if (!mem) return null;
  let p = mem.body;
  const [count, afterCount] = readLeb(bytes, p);
  p = afterCount;
  if (count !== 1) return null;
  const flags = bytes[p++]!;
  if (flags > 1) return null;
  const [initial, afterMin] = readLeb(bytes, p);
  p = afterMin;
  let maximum = maxPages;
  if (flags === 1) maximum = Math.min(readLeb(bytes, p)[0], maxPages);
  maximum = Math.max(initial, maximum);

  const entry = [...nameBytes(MEMORY_IMPORT.module), ...nameBytes(MEMORY_IMPORT.name), 0x02, 0x01, ...leb(initial), ...leb(maximum)];
  const imports = sections.find((s) => s.id === 2);
  let importSection: number[];
  if (imports) {
    const [n, afterN] = readLeb(bytes, imports.body);
    importSection = [...leb(n + 1), ...bytes.subarray(afterN, imports.end), ...entry];
  } else {
    importSection = [...leb(1), ...entry];
  }
  const importBytes = [2, ...leb(importSection.length), ...importSection];

  const parts: ArrayLike<number>[] = [bytes.subarray(0, 8)];
  let placed = false;
  for (const s of sections) {
    if (s.id === 5) continue; // the memory is now imported
    if (s.id === 2) {
      parts.push(importBytes);
      placed = true;
      continue;
    }
    // Without an import section, ours goes right after the type section (id 1), before functions.
    if (!placed && s.id !== 0 && s.id !== 1) {
      parts.push(importBytes);
      placed = true;
    }
    parts.push(bytes.subarray(s.start, s.end));
  }
  if (!placed) parts.push(importBytes);
  const total = parts.reduce((n, a) => n + a.length, 0);
  const out = new Uint8Array(total);
  let off = 0;
  for (const a of parts) {
    out.set(a, off);
    off += a.length;
  }
  return { bytes: out, limits: { initial, maximum } };
}
