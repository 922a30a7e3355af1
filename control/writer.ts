// Writes what the model decides into waiting_room_config, through the same two paths as
// `npm run tune`: the local store file (the host re-reads it within a second) or the Fastly Config
// Store through the Fastly CLI. Every write is checked with the room's own parser first, and writes
// are spaced: Fastly's API allows 1,000 requests an hour per token, and one write is one request per
// key, so the default minimum of 20 s between writes spends at most 180 an hour on allow_schedule,
// 18% of the limit, all day long.
import { parseConfig } from '../src/core/config.js';
import { CONFIG_STORE } from '../src/fastly/names.js';
import { fastlyRunner, resolveStoreId, type FastlyRunner } from '../lib/fastly-cli.js';
import { readStore, writeStoreAtomic } from '../lib/json-store.js';
import type { SettingWrites, WriteStatus } from './types.js';

export interface Store {
  /** Every value of waiting_room_config. */
  read(): Promise<Record<string, string>>;
  /** Sets each key ('' removes it). Throws on failure, with the reason. */
  write(values: SettingWrites): Promise<void>;
  readonly name: string;
}

export function localStore(file: string): Store {
  return {
    name: `file ${file}`,
    read: () => readStore(file),
    async write(values) {
      const current = await readStore(file);
      for (const [k, v] of Object.entries(values)) {
        if (v === '') delete current[k];
        else current[k] = v;
      }
      await writeStoreAtomic(file, current);
    },
  };
}

export function fastlyStore(serviceId: string, storeId: string | undefined, dryRun: boolean, runner: FastlyRunner = fastlyRunner(dryRun, (l) => console.error(`[control] ${l}`))): Store {
  let id = storeId;
  const storeIdNow = (): string => (id ??= resolveStoreId(runner, serviceId, CONFIG_STORE));
  return {
    name: `Fastly service ${serviceId}`,
    async read() {
      const out = runner.run(['config-store-entry', 'list', '--store-id', storeIdNow(), '--json']);
      if (out === null) return {};
      const items: unknown = JSON.parse(out);
      const values: Record<string, string> = {};
      for (const item of Array.isArray(items) ? items : []) {
        const i = item as Record<string, unknown>;
        const key = i.item_key ?? i.key ?? i.Key;
        const value = i.item_value ?? i.value ?? i.Value;
        if (typeof key === 'string' && typeof value === 'string') values[key] = value;
      }
      return values;
    },
    async write(values) {
      for (const [key, value] of Object.entries(values)) {
        if (value === '') runner.run(['config-store-entry', 'delete', '--store-id', storeIdNow(), '--key', key]);
        else runner.run(['config-store-entry', 'update', '--upsert', '--store-id', storeIdNow(), '--key', key, '--value', value]);
      }
    },
  };
}

/** Refuses values the room would not use, naming the key. */
export function checkWrites(values: SettingWrites): string[] {
  const present = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
  const { problems } = parseConfig((k) => present[k] ?? (k === 'allow_percentage' ? '50' : null));
  return problems.filter((p) => Object.hasOwn(values, p.key)).map((p) => `${p.key}: ${p.message}`);
}

export class Writer {
  lastWrite: WriteStatus | null = null;
  done = 0;
  failed = 0;
  deferred = 0;
  private lastAttemptMs = -Infinity;
  /** The failure last said, so a write that keeps failing the same way is said once. */
  private toldFailure: string | null = null;

  constructor(
    private readonly store: Store,
    readonly minIntervalMs: number,
    private readonly log: (message: string) => void,
  ) {}

  /** Writes now if the interval allows; returns whether the values went out. */
  async offer(values: SettingWrites, nowMs: number): Promise<boolean> {
    if (nowMs - this.lastAttemptMs < this.minIntervalMs) {
      this.deferred++;
      return false;
    }
    this.lastAttemptMs = nowMs;
    const refused = checkWrites(values);
    if (refused.length > 0) {
      this.failed++;
      this.lastWrite = { atMs: nowMs, values, ok: false, error: `refused: ${refused.join('; ')}` };
      this.tell(`write refused, the room would not use it: ${refused.join('; ')}`);
      return false;
    }
    try {
      await this.store.write(values);
      this.done++;
      this.lastWrite = { atMs: nowMs, values, ok: true, error: null };
      if (this.toldFailure !== null) this.log(`writing to ${this.store.name} succeeds again`);
      this.toldFailure = null;
      return true;
    } catch (error) {
      this.failed++;
      const why = error instanceof Error ? error.message : String(error);
      this.lastWrite = { atMs: nowMs, values, ok: false, error: why };
      this.tell(`write to ${this.store.name} failed (${why}); the room keeps its last setting, retrying at the next plan`);
      return false;
    }
  }

  /** Says a failure once, and again only when it changes (the dashboard counts every one). */
  private tell(message: string): void {
    if (message !== this.toldFailure) this.log(message);
    this.toldFailure = message;
  }
}
