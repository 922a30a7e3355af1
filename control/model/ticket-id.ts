// A token id in the decision line is its signature's first 6 bytes in base64url: the token's draw
// number u, the same number the edge compares with the chance (src/core/draw.ts).
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const VALUE = new Map([...ALPHABET].map((c, i) => [c, i]));

/** u in [0, 1) for an 8-character id, or null when it is not one. */
export function drawValueOfId(tid: string): number | null {
  if (tid.length !== 8) return null;
  let n = 0;
  for (const c of tid) {
    const v = VALUE.get(c);
    if (v === undefined) return null;
    n = n * 64 + v;
  }
  // 8 characters carry exactly 48 bits: the 6 bytes the edge reads.
  return n / 2 ** 48;
}
