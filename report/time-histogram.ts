// The origin's times to headers in bounded memory, read back as people expect: a time under a second is
// kept to the ms (the edge writes whole ms), a longer one to three significant figures (1,506 ms as
// 1,510, at most 0.5% off). A minute holds at most a few thousand distinct keys whatever its requests.

/** The key a time is kept under: itself below 1,000 ms, else rounded to three significant figures. */
export function timeKey(ms: number): number {
  if (ms < 1_000) return Math.round(ms);
  const scale = 10 ** (Math.floor(Math.log10(ms)) - 2);
  return Math.round(ms / scale) * scale;
}

export class TimeHistogram {
  private readonly counts = new Map<number, number>();
  count = 0;

  add(ms: number): void {
    const k = timeKey(ms);
    this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
    this.count++;
  }

  merge(other: TimeHistogram): void {
    for (const [k, n] of other.counts) this.counts.set(k, (this.counts.get(k) ?? 0) + n);
    this.count += other.count;
  }

  /** The time at quantile q (0..1) by nearest rank, ms; null when empty. */
  quantile(q: number): number | null {
    if (this.count === 0) return null;
    const rank = Math.min(this.count, Math.max(1, Math.ceil(q * this.count)));
    let seen = 0;
    for (const [k, n] of [...this.counts].sort((a, b) => a[0] - b[0])) {
      seen += n;
      if (seen >= rank) return k;
    }
    return null;
  }
}
