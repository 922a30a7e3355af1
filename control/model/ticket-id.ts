// A token id in the decision line is its signature's first 6 bytes in base64url: the token's draw
// number u, the same number the edge compares with the chance (src/core/decision/draw.ts).
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** Character code -> its 6 bits, -1 for a character outside the alphabet: read for every ticket of every plan. */
const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUE[ALPHABET.charCodeAt(i)] = i;

/** u in [0, 1) for an 8-character id, or null when it is not one. */
export function drawValueOfId(tid: string): number | null {
  if (tid.length !== 8) return null;
  let n = 0;
  for (let i = 0; i < 8; i++) {
    const c = tid.charCodeAt(i);
    const v = c < 128 ? VALUE[c]! : -1;
    if (v < 0) return null;
    n = n * 64 + v;
  }
  // 8 characters carry exactly 48 bits: the 6 bytes the edge reads.
  return n / 2 ** 48;
}
