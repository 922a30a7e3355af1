// The guest module's memory, rewritten in the binary once at start-up, before compiling. Viceroy
// caps a guest's linear memory at 128 MiB while the module declares its own maximum, so the cap is
// written into the module's memory section (capMemory); the memory can also become an import a
// worker reuses (importMemory), its data segments moved out into an image (memoryImage).
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

interface Section {
  id: number;
  /** Where the section's id byte is. */
  start: number;
  /** Where its contents begin, after the size. */
  body: number;
  end: number;
}

/** The module's sections in order, read one at a time, so a caller can stop at the one it wants. */
function* sections(bytes: Uint8Array): Generator<Section> {
  let pos = 8;
  while (pos < bytes.length) {
    const id = bytes[pos]!;
    const [size, body] = readLeb(bytes, pos + 1);
    yield { id, start: pos, body, end: body + size };
    pos = body + size;
  }
}

/**
 * The memory type at `pos` with its maximum capped at `maxPages` (never below the minimum, and a
 * memory without a maximum gets the cap); null for a shared or 64-bit memory, which is left alone.
 */
function readMemoryType(
  bytes: Uint8Array,
  pos: number,
  maxPages: number,
): { initial: number; maximum: number; next: number } | null {
  let p = pos;
  const flags = bytes[p++]!;
  if (flags > 1) return null;
  const [initial, afterMin] = readLeb(bytes, p);
  p = afterMin;
  let maximum = maxPages;
  if (flags === 1) {
    const [declared, afterMax] = readLeb(bytes, p);
    p = afterMax;
    maximum = Math.min(declared, maxPages);
  }
  return { initial, maximum: Math.max(initial, maximum), next: p };
}

/** Returns the module with every 32-bit memory's maximum lowered to `maxBytes` (never below its minimum). */
export function capMemory(bytes: Uint8Array, maxBytes: number): Uint8Array {
  const maxPages = Math.floor(maxBytes / WASM_PAGE);
  for (const s of sections(bytes)) {
    if (s.id !== 5) continue;
    let p = s.body;
    const [count, afterCount] = readLeb(bytes, p);
    p = afterCount;
    const section: number[] = [...leb(count)];
    for (let i = 0; i < count; i++) {
      const memory = readMemoryType(bytes, p, maxPages);
      if (!memory) return bytes;
      p = memory.next;
      section.push(1, ...leb(memory.initial), ...leb(memory.maximum));
    }
    const head = [5, ...leb(section.length)];
    const out = new Uint8Array(s.start + head.length + section.length + (bytes.length - s.end));
    out.set(bytes.subarray(0, s.start), 0);
    out.set(head, s.start);
    out.set(section, s.start + head.length);
    out.set(bytes.subarray(s.end), s.start + head.length + section.length);
    return out;
  }
  return bytes;
}

export interface MemoryLimits {
  initial: number;
  maximum: number;
  /**
   * The memory as instantiation leaves it (the data segments written over zeroes), shared by every
   * worker, when the data segments were moved out of the module into it; null when they stay in the
   * module (segments this does not understand), and a reused memory is then zeroed whole.
   */
  image: SharedArrayBuffer | null;
}

function readSleb32(bytes: Uint8Array, pos: number): [value: number, next: number] {
  let result = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[pos++];
    if (b === undefined) throw new Error('truncated LEB128');
    result |= (b & 0x7f) << shift;
    shift += 7;
    if ((b & 0x80) === 0) {
      if (shift < 32 && (b & 0x40) !== 0) result |= -1 << shift;
      return [result, pos];
    }
  }
}

/**
 * The initial memory the data section describes: zeroes with every segment written at its offset,
 * in order, as instantiation does. Only active segments of memory 0 with an `i32.const` offset are
 * understood; anything else (passive segments, offsets from globals, a segment past the end, which
 * must fail instantiation as usual) gives null.
 */
export function memoryImage(
  bytes: Uint8Array,
  dataSection: { body: number; end: number },
  sizeBytes: number,
): SharedArrayBuffer | null {
  const image = new SharedArrayBuffer(sizeBytes);
  const view = new Uint8Array(image);
  let p = dataSection.body;
  const [count, afterCount] = readLeb(bytes, p);
  p = afterCount;
  for (let i = 0; i < count; i++) {
    const [kind, afterKind] = readLeb(bytes, p);
    p = afterKind;
    if (kind === 2) {
      const [memIndex, afterIndex] = readLeb(bytes, p);
      if (memIndex !== 0) return null;
      p = afterIndex;
    } else if (kind !== 0) {
      return null;
    }
    if (bytes[p++] !== 0x41) return null; // i32.const
    const [offset, afterOffset] = readSleb32(bytes, p);
    p = afterOffset;
    if (bytes[p++] !== 0x0b) return null; // end
    const [length, afterLength] = readLeb(bytes, p);
    p = afterLength;
    const start = offset >>> 0;
    if (start + length > sizeBytes || p + length > dataSection.end) return null;
    view.set(bytes.subarray(p, p + length), start);
    p += length;
  }
  return p === dataSection.end ? image : null;
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
export function importMemory(
  bytes: Uint8Array,
  maxBytes: number,
  options: { dataToImage?: boolean } = {},
): { bytes: Uint8Array; limits: MemoryLimits } | null {
  const all = [...sections(bytes)];
  const mem = all.find((s) => s.id === 5);
  if (!mem) return null;
  const [count, afterCount] = readLeb(bytes, mem.body);
  if (count !== 1) return null;
  const memory = readMemoryType(bytes, afterCount, Math.floor(maxBytes / WASM_PAGE));
  if (!memory) return null;
  const { initial, maximum } = memory;

  const entry = [
    ...nameBytes(MEMORY_IMPORT.module),
    ...nameBytes(MEMORY_IMPORT.name),
    0x02,
    0x01,
    ...leb(initial),
    ...leb(maximum),
  ];
  const imports = all.find((s) => s.id === 2);
  let importSection: number[];
  if (imports) {
    const [n, afterN] = readLeb(bytes, imports.body);
    importSection = [...leb(n + 1), ...bytes.subarray(afterN, imports.end), ...entry];
  } else {
    importSection = [...leb(1), ...entry];
  }
  const importBytes = [2, ...leb(importSection.length), ...importSection];

  // The data segments can leave the module for an image the worker restores itself (guest/memory-pool.ts):
  // instantiation then writes nothing, and a reused memory only needs its changed pages put back.
  const data = all.find((s) => s.id === 11);
  const image = options.dataToImage && data ? memoryImage(bytes, data, initial * WASM_PAGE) : null;

  const parts: ArrayLike<number>[] = [bytes.subarray(0, 8)];
  let placed = false;
  for (const s of all) {
    if (s.id === 5) continue; // the memory is now imported
    if (image && (s.id === 11 || s.id === 12)) continue; // the data (and its count) are in the image
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
  return { bytes: out, limits: { initial, maximum, image } };
}
