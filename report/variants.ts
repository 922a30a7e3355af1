// An A/B test of the waiting page (`page_variants`), from the decision log: per room and variant, the
// waiting visitors, those admitted and those who left before their turn, and the waits the admitted
// lived, as the report defines each (aggregate.ts: a visitor is a ticket chain, counted in the variant
// of the first line of theirs that names one); then each variant against the room's first (`a` when
// it ran), with intervals (ab-stats.ts) and a verdict in plain words.
import { type Interval, median, medianDifference, medianInterval, shareDifference, wilson } from './ab-stats.js';

/** A variant's visitors in one room, each counted once (a sampled log: the sampled ones). */
export interface VariantCounts {
  visitors: number;
  admitted: number;
  /** Left before their turn: a waiting ticket of theirs never drawn and never followed by another. */
  left: number;
  /** Visitors shown the built-in page at least once because the variant's page could not be (`variantFallback`). */
  fellBack: number;
  /** The waits lived by the admitted whose chain began in the log, seconds. */
  waits: number[];
}

/** What the tally keeps of a visitor (a ticket chain of aggregate.ts). */
export interface VariantChain {
  /** What the visitor counts for: its first ticket's weight when that ticket is in the edge's sample, else 0. */
  weight: number;
  /** The variant the visitor is counted in (their first line naming one), null until then. */
  variant: string | null;
  /** Where the visitor's story ended as far as the log shows: admitted, or gone before their turn. */
  fate: 'admitted' | 'left' | null;
  /** The visitor was shown the built-in page instead of their variant's (counted once). */
  fellBack: boolean;
}

/**
 * Tallies visitors by variant as the aggregator meets them, each visitor in the sample counted once
 * (not at its weight: the intervals are of the visitors seen). Memory: a number an admitted visitor.
 */
export class VariantTally {
  readonly rooms = new Map<string, Map<string, VariantCounts>>();

  private of(room: string, variant: string): VariantCounts {
    let byVariant = this.rooms.get(room);
    if (byVariant === undefined) this.rooms.set(room, (byVariant = new Map()));
    let c = byVariant.get(variant);
    if (c === undefined) byVariant.set(variant, (c = { visitors: 0, admitted: 0, left: 0, fellBack: 0, waits: [] }));
    return c;
  }

  /** A line of the visitor's naming their variant (`variant`), and whether its page fell back. */
  seen(room: string, line: { variant?: string; variantFallback?: string }, chain: VariantChain): void {
    if (chain.weight <= 0 || line.variant === undefined) return;
    if (chain.variant === null) {
      chain.variant = line.variant;
      this.of(room, chain.variant).visitors++;
    }
    if (line.variantFallback !== undefined && !chain.fellBack) {
      chain.fellBack = true;
      this.of(room, chain.variant).fellBack++;
    }
  }

  /** The visitor admitted after a wait (`waitSeconds` null: it began before the log). */
  admitted(room: string, chain: VariantChain, waitSeconds: number | null): void {
    if (chain.fate === 'admitted') return;
    if (chain.variant !== null && chain.weight > 0) {
      const c = this.of(room, chain.variant);
      c.admitted++;
      // A ticket of theirs closed as gone before they came back under another.
      if (chain.fate === 'left') c.left--;
      if (waitSeconds !== null) c.waits.push(waitSeconds);
    }
    chain.fate = 'admitted';
  }

  /** A ticket of the visitor's closed, never drawn nor followed by another: they left before their turn. */
  left(room: string, chain: VariantChain): void {
    if (chain.fate !== null) return;
    chain.fate = 'left';
    if (chain.variant !== null && chain.weight > 0) this.of(room, chain.variant).left++;
  }
}

/** A share of a variant's visitors, with its interval. */
export interface Share {
  count: number;
  share: number;
  interval: Interval;
}

/** One variant's figures. */
export interface VariantRow {
  variant: string;
  visitors: number;
  fellBack: number;
  left: Share | null;
  admitted: Share | null;
  /** The median wait of the admitted, seconds, with its interval; null when no wait was measured. */
  medianWait: { seconds: number; interval: Interval; measured: number } | null;
}

/** A variant against the reference: each difference (this one minus the reference) with its interval. */
export interface VariantComparison {
  variant: string;
  against: string;
  /** Shares as fractions, the median in seconds. */
  left: { difference: number; interval: Interval } | null;
  admitted: { difference: number; interval: Interval } | null;
  medianWait: { difference: number; interval: Interval } | null;
  /** The verdict in words, one sentence per measure. */
  verdict: string[];
}

export interface RoomVariants {
  rows: VariantRow[];
  comparisons: VariantComparison[];
}

function share(count: number, of: number): Share | null {
  const interval = wilson(count, of);
  return interval === null ? null : { count, share: count / of, interval };
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
const points = (x: number): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}`;
const secs = (x: number): string => `${x > 0 ? '+' : ''}${Math.abs(x) < 10 ? x.toFixed(1) : Math.round(x)} s`;

/** "no difference shown", or which way the interval says, in words. */
function sentence(
  what: string,
  d: { difference: number; interval: Interval } | null,
  shown: (x: number) => string,
  unit: string,
  more: string,
  less: string,
): string {
  if (d === null) return `${what}: not enough visitors to compare.`;
  const ci = `${shown(d.difference)}${unit} (95% CI ${shown(d.interval.low)} to ${shown(d.interval.high)}${unit})`;
  if (d.interval.low > 0) return `${what}: ${more}, ${ci}.`;
  if (d.interval.high < 0) return `${what}: ${less}, ${ci}.`;
  return `${what}: no difference shown, ${ci}.`;
}

function compare(row: VariantRow, ref: VariantRow, counts: VariantCounts, refCounts: VariantCounts): VariantComparison {
  const diff = (x: Share | null, y: Share | null, ofX: number, ofY: number) => {
    if (x === null || y === null) return null;
    const interval = shareDifference(x.count, ofX, y.count, ofY);
    return interval === null ? null : { difference: x.share - y.share, interval };
  };
  const left = diff(row.left, ref.left, counts.visitors, refCounts.visitors);
  const admitted = diff(row.admitted, ref.admitted, counts.visitors, refCounts.visitors);
  const m = medianDifference(sorted(counts.waits), sorted(refCounts.waits));
  const medianWait = m === null ? null : { difference: m.difference, interval: m.interval };
  const v = row.variant;
  const r = ref.variant;
  return {
    variant: v,
    against: r,
    left,
    admitted,
    medianWait,
    verdict: [
      sentence(
        `Left before their turn, ${v} against ${r}`,
        left,
        points,
        ' points',
        `more left with ${v}`,
        `fewer left with ${v}`,
      ),
      sentence(
        `Admitted, ${v} against ${r}`,
        admitted,
        points,
        ' points',
        `more were admitted with ${v}`,
        `fewer were admitted with ${v}`,
      ),
      sentence(`Median wait, ${v} against ${r}`, medianWait, secs, '', `longer with ${v}`, `shorter with ${v}`),
    ],
  };
}

const sortedCache = new WeakMap<number[], number[]>();
function sorted(values: number[]): number[] {
  let s = sortedCache.get(values);
  if (s === undefined) sortedCache.set(values, (s = [...values].sort((a, b) => a - b)));
  return s;
}

/** A room's variants (the reference first: `a` when it ran, else the first by name) and each compared with it. */
export function roomVariants(byVariant: ReadonlyMap<string, VariantCounts>): RoomVariants | null {
  if (byVariant.size === 0) return null;
  const names = [...byVariant.keys()].sort((x, y) => (x === 'a' ? -1 : y === 'a' ? 1 : x.localeCompare(y)));
  const rows = names.map((variant): VariantRow => {
    const c = byVariant.get(variant)!;
    const waits = sorted(c.waits);
    const m = median(waits);
    const mi = medianInterval(waits);
    return {
      variant,
      visitors: c.visitors,
      fellBack: c.fellBack,
      left: share(c.left, c.visitors),
      admitted: share(c.admitted, c.visitors),
      medianWait: m === null || mi === null ? null : { seconds: m, interval: mi, measured: waits.length },
    };
  });
  const ref = rows[0]!;
  const comparisons = rows
    .slice(1)
    .map((row) => compare(row, ref, byVariant.get(row.variant)!, byVariant.get(ref.variant)!));
  return { rows, comparisons };
}

export const shareText = (s: Share | null): string =>
  s === null ? '–' : `${pct(s.share)} (${pct(s.interval.low)} to ${pct(s.interval.high)})`;
