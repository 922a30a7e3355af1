// Waits in bounded memory: a histogram whose buckets grow by 2% (a wait of 2 h lands within 2% of its
// value), so a minute with a million admissions holds a few hundred numbers, not a million.
const GROWTH = 1.02;
const LOG = Math.log(GROWTH);

export class WaitHistogram {
  private readonly counts = new Map<number, number>();
  count = 0;

  add(seconds: number): void {
    const b = seconds < 1 ? -1 : Math.floor(Math.log(seconds) / LOG);
    this.counts.set(b, (this.counts.get(b) ?? 0) + 1);
    this.count++;
  }

  merge(other: WaitHistogram): void {
    for (const [b, n] of other.counts) this.counts.set(b, (this.counts.get(b) ?? 0) + n);
    this.count += other.count;
  }

  /** The wait at quantile q (0..1), seconds, by nearest rank, its bucket's middle; null when empty. */
  quantile(q: number): number | null {
    if (this.count === 0) return null;
    const rank = Math.min(this.count, Math.max(1, Math.ceil(q * this.count)));
    let seen = 0;
    for (const [b, n] of [...this.counts].sort((a, c) => a[0] - c[0])) {
      seen += n;
      if (seen >= rank) return b < 0 ? 0 : GROWTH ** (b + 0.5);
    }
    return null;
  }
}
