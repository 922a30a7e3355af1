// "Did you mean ...?": the known names closest to a mistyped one, for the tools' error messages.

/** Edits from a to b: insertions, deletions, substitutions and swaps of two neighbours, one each. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) rows.push([i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The names `word` most likely meant, best first, at most `max`: those within a few edits (a third of
 * the word's length, at least 2) and at most one edit farther than the nearest (a typo one edit from
 * allow_percentage is not also fallback_percentage, five away); else those that contain it whole
 * (`percentage` -> allow_percentage, fallback_percentage), the nearest first. Empty when nothing is close.
 */
export function closest(word: string, names: readonly string[], max = 3): string[] {
  const w = word.toLowerCase();
  const limit = Math.max(2, Math.floor(w.length / 3));
  const byDistance = names.map((name) => ({ name, d: editDistance(w, name.toLowerCase()) })).sort((a, b) => a.d - b.d);
  const best = byDistance[0]?.d ?? Infinity;
  const near = byDistance.filter((c) => c.d <= limit && c.d <= best + 1).map((c) => c.name);
  if (near.length > 0) return near.slice(0, max);
  const containing = w.length >= 4 ? byDistance.filter((c) => c.name.toLowerCase().includes(w)).map((c) => c.name) : [];
  return containing.slice(0, max);
}
