// Distinct made-up token ids (8 base64url characters, as the edge's), spread over the draw numbers:
// the same `seed`, the same ids.
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The base64url alphabet, in its order: a character's index is its 6 bits. */
export const ALPHABET_ORDER = ALPHABET;

export function tokenIds(n: number, seed: number): string[] {
  let x = seed;
  return Array.from({ length: n }, () => {
    let id = '';
    for (let i = 0; i < 8; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      id += ALPHABET[x >>> 26]!;
    }
    return id;
  });
}
