// The lottery ticket (seed pattern step 10): a wait token's outcome is fixed when it is signed,
// because the draw is seeded by the token's own signature. Presenting the same token again can
// never re-roll; `allow_percentage` only moves the winning threshold.

/** The token's number in [0, 1): its signature's first 6 bytes as an unsigned integer / 2^48. */
export function drawValue(signature: Uint8Array): number {
  let n = 0;
  // 6 bytes = 48 bits: exact in a double, and plenty of resolution for a percentage.
  for (let i = 0; i < 6; i++) n = n * 256 + (signature[i] ?? 0);
  return n / 2 ** 48;
}

export function drawWins(signature: Uint8Array, allowPercentage: number): boolean {
  return drawValue(signature) * 100 < allowPercentage;
}
