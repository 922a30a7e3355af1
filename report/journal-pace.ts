// What the controller's journal says of a room in `target_mode = auto`: its write lines carry, per auto
// room, the rate the autopilot chose (`pace_rate`, new visitors a minute, 0 while stopped), its state
// (`pace_state`) and the origin's objective (`origin_latency_ms` at `origin_latency_percentile`,
// `origin_error_percent`). Values come as strings (a write line's settings) or numbers; one that is
// not a usable number is left out and counted.

/** The origin's objective as the journal gave it. */
export interface JournalObjective {
  latencyMs: number;
  /** 50..99.9 */
  percentile: number;
  /** origin_error_percent / 100 */
  errorShare: number;
}

export interface PaceEntry {
  ms: number;
  /** The room was in auto in this write (target_mode "auto"), said it was not (another mode), or did not say (null). */
  auto: boolean | null;
  /** New visitors a minute the autopilot chose (0 while stopped); null when the line did not say. */
  rate: number | null;
  state: string | null;
  objective: JournalObjective | null;
}

const KEYS = [
  'target_mode',
  'pace_rate',
  'pace_state',
  'origin_latency_ms',
  'origin_latency_percentile',
  'origin_error_percent',
] as const;

/** A number from a journal value, within [least, most]; null when absent, NaN when unusable. */
function numberOf(v: unknown, least: number, most: number): number | null {
  if (v === undefined || v === null) return null;
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) && n >= least && n <= most ? n : Number.NaN;
}

/**
 * The autopilot's part of one room's values in a write line; null when they carry none of it.
 * `bad()` is called once for each value present but unusable (it is left out).
 */
export function paceEntry(ms: number, v: Record<string, unknown>, bad: () => void): PaceEntry | null {
  if (!KEYS.some((k) => v[k] !== undefined)) return null;
  const read = (key: (typeof KEYS)[number], least: number, most: number): number | null => {
    const n = numberOf(v[key], least, most);
    if (n !== null && Number.isNaN(n)) {
      bad();
      return null;
    }
    return n;
  };
  const rate = read('pace_rate', 0, 1e9);
  const latencyMs = read('origin_latency_ms', 0, 86_400_000);
  const percentile = read('origin_latency_percentile', 50, 99.9);
  const errorPercent = read('origin_error_percent', 0, 100);
  const mode = v.target_mode;
  if (mode !== undefined && typeof mode !== 'string') bad();
  const state = typeof v.pace_state === 'string' && v.pace_state.length <= 32 ? v.pace_state : null;
  if (v.pace_state !== undefined && state === null) bad();
  const auto = typeof mode === 'string' ? mode === 'auto' : null;
  return {
    ms,
    auto,
    rate,
    state,
    objective:
      latencyMs === null
        ? null
        : { latencyMs, percentile: percentile ?? 90, errorShare: errorPercent === null ? 0.01 : errorPercent / 100 },
  };
}

/**
 * One write line's rooms into `paces`. The controller puts an auto room's fields on every write line,
 * so a room that had them and has none on a later write left auto: it is noted as manual from then.
 */
export function notePaces(
  paces: Map<string, PaceEntry[]>,
  ms: number,
  rooms: Record<string, unknown>,
  bad: () => void,
): void {
  for (const [room, values] of Object.entries(rooms)) {
    if (typeof values !== 'object' || values === null) continue;
    const entry = paceEntry(ms, values as Record<string, unknown>, bad);
    if (entry === null) continue;
    const list = paces.get(room) ?? [];
    list.push(entry);
    paces.set(room, list);
  }
  for (const [room, list] of paces) {
    const said = rooms[room] as Record<string, unknown> | undefined;
    if (list.at(-1)!.auto !== false && (said === undefined || paceEntry(ms, said, () => {}) === null))
      list.push({ ms, auto: false, rate: null, state: null, objective: null });
  }
}

/** In force at a minute: whether the room was in auto (a line with the autopilot's figures but no mode counts as auto). */
export type InForce = Omit<PaceEntry, 'ms' | 'auto'> & { auto: boolean };

/**
 * What was in force at the end of the minute starting at `minuteMs`: each field as the last write by
 * then that gave it (a line may carry only what changed); null before the first.
 */
export function paceAt(list: readonly PaceEntry[] | undefined, minuteMs: number): InForce | null {
  const before = (list ?? []).filter((e) => e.ms < minuteMs + 60_000);
  if (before.length === 0) return null;
  const last = <K extends 'auto' | 'rate' | 'state' | 'objective'>(key: K): PaceEntry[K] | null => {
    for (let i = before.length - 1; i >= 0; i--) if (before[i]![key] !== null) return before[i]![key];
    return null;
  };
  return { auto: last('auto') ?? true, rate: last('rate'), state: last('state'), objective: last('objective') };
}

/** The percentile the origin's times are read at: the objective's in force, else the journal's first, else 90. */
export function percentileAt(list: readonly PaceEntry[] | undefined, minuteMs: number): number {
  return (
    paceAt(list, minuteMs)?.objective?.percentile ??
    list?.find((e) => e.objective !== null)?.objective?.percentile ??
    90
  );
}
