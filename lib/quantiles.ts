// Quantiles of measured numbers, one definition for the benches, the simulator and the load tools.

/**
 * The value at quantile `q` (0..1) of an ascending list, by nearest rank: the smallest value with at
 * least a share `q` of the list at or below it, always one of the values measured. NaN when empty.
 */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[at]!;
}

/** `quantile` of a list in any order (left as it is). */
export function quantileOf(values: readonly number[], q: number): number {
  return quantile(
    [...values].sort((a, b) => a - b),
    q,
  );
}

/** The middle value of a list in any order, the mean of the two middle ones when the count is even; null when empty. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
