// Where key bytes live while a CryptoKey made from them is in use. js-compute 3.46's importKey keeps
// a pointer to the bytes it was given instead of copying them, and SpiderMonkey moves small buffers
// when it collects garbage: a key imported from a buffer made during a request signs with whatever
// took the bytes' place once a collection ran (measured on the Wasm build: wrong HMACs after a
// minor GC in the same request, and on every later request of a reused sandbox). This buffer is
// made when the module loads (at build time, in the snapshot), is large enough to live outside the
// collector's nursery, and never moves; keys are imported from copies placed in it.

/** Room for every key a sandbox imports in its life (a few per key rotation), used as a ring. */
const RING_BYTES = 256 * 1024;
const ring = new Uint8Array(RING_BYTES);
let next = 0;

/** A copy of `bytes` in memory that never moves; the copy stays intact for the next RING_BYTES of copies. */
export function pinnedCopy(bytes: Uint8Array): Uint8Array {
  if (bytes.length > RING_BYTES / 64) return bytes.slice();
  if (next + bytes.length > RING_BYTES) next = 0;
  const at = next;
  ring.set(bytes, at);
  // Eight-byte steps keep each copy aligned.
  next = at + ((bytes.length + 7) & ~7);
  return ring.subarray(at, at + bytes.length);
}
