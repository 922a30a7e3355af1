// `BENCH_AGAINST=REV npm run bench`: this build against an older commit's in the same run. The older
// room (bin/main.wasm and the timed fixture, built from git in a temporary worktree) runs on a host of
// its own beside today's, each of its scenarios measured in the same rotated rounds as today's (so drift
// lands on both alike), and its own time inside the runtime taken one request of each build in turn.
// Prints, per scenario, today's cost as a multiple of the older build's; and both bundles' sizes.
import { statSync } from 'node:fs';
import path from 'node:path';
import { repoRoot, wasmFile } from '../lib/paths.js';
import { round2, type ScenarioFigures } from './room-figures.js';
import type { EchoOrigin } from '../lib/echo-origin.js';
import type { Settings } from '../lib/room-host.js';
import { buildFixture } from './build-fixture.js';
import { roomTimesAcross, type RoomTime, type TimedScenario } from './room-time.js';
import { BEFORE } from './room-scenarios.js';
import { buildAtCommit } from './worktree.js';

export interface BeforeBuild {
  commit: string;
  room: string;
  timed: string;
  bundleBytes: number;
}

/** What the older commit's build and bench fixture made (built in a temporary worktree), or why not. */
export function buildBefore(rev: string): BeforeBuild | { missing: string } {
  const script = [
    "const { execFileSync } = await import('node:child_process');",
    // The older build script, type-check skipped (its sources were checked when committed); its output to stderr.
    "execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--no-check'], { stdio: ['ignore', 2, 2] });",
    "const m = await import('./bench/build-fixture.ts');",
    "const timed = await m.buildFixture('room-timed');",
    "console.log(JSON.stringify({ room: 'bin/main.wasm', bundle: 'build/bundle.js', timed }));",
  ].join('\n');
  const built = buildAtCommit(rev, script);
  if ('missing' in built) return built;
  const { room, timed, bundle } = built.files;
  return { commit: built.commit, room: room!, timed: timed!, bundleBytes: statSync(bundle!).size };
}

export interface AgainstRow {
  scenario: string;
  hostCpuMsNow: number;
  hostCpuMsBefore: number;
  /** Today's host CPU per request over the older build's: > 1 is slower. */
  hostCpuRatio: number;
  /** The older build's requests a second over today's, each in front of the same origin: > 1 is slower. */
  throughputCostRatio: number;
  medianRatio: number;
  /** The room's own time inside the runtime, median microseconds; absent for the 256 KB page. */
  ownUsNow?: number;
  ownUsBefore?: number;
  ownRatio?: number;
}

export interface Against {
  commit: string;
  rows: AgainstRow[];
  bundleBytes: { now: number; before: number };
  wasmBytes: { now: number; before: number };
}

/** Today's scenarios next to the older build's of the same name. */
export function againstFigures(
  before: BeforeBuild,
  scenarios: ScenarioFigures[],
  ownNow: Record<string, RoomTime>,
  ownBefore: Record<string, RoomTime>,
  sizes: Pick<Against, 'bundleBytes' | 'wasmBytes'> = builtSizes(before),
): Against {
  const rows: AgainstRow[] = [];
  for (const old of scenarios.filter((f) => f.name.startsWith(BEFORE))) {
    const name = old.name.slice(BEFORE.length);
    const now = scenarios.find((f) => f.name === name)!;
    const own = ownNow[name] && ownBefore[name] ? { now: ownNow[name], before: ownBefore[name] } : null;
    rows.push({
      scenario: name,
      hostCpuMsNow: now.hostCpuMsPerRequest,
      hostCpuMsBefore: old.hostCpuMsPerRequest,
      hostCpuRatio: round2(now.hostCpuMsPerRequest / old.hostCpuMsPerRequest),
      throughputCostRatio: round2(old.reqPerSec / now.reqPerSec),
      medianRatio: round2(now.medianMs / old.medianMs),
      ...(own
        ? {
            ownUsNow: own.now.medianUs,
            ownUsBefore: own.before.medianUs,
            ownRatio: round2(own.now.medianUs / own.before.medianUs),
          }
        : {}),
    });
  }
  return { commit: before.commit, rows, ...sizes };
}

/** Both builds' bundle and Wasm sizes: today's as the bench built them (build/bundle.js, bin/main.wasm). */
function builtSizes(before: BeforeBuild): Pick<Against, 'bundleBytes' | 'wasmBytes'> {
  return {
    bundleBytes: { now: statSync(path.join(repoRoot, 'build', 'bundle.js')).size, before: before.bundleBytes },
    wasmBytes: { now: statSync(wasmFile).size, before: statSync(before.room).size },
  };
}

/** The comparison as printed. */
export function printAgainst(a: Against): void {
  console.log(
    `\nthis build against ${a.commit.slice(0, 7)}, measured in the same rounds (x > 1: this build costs more)`,
  );
  console.table(
    a.rows.map((r) => ({
      scenario: r.scenario,
      'host CPU ms/req': r.hostCpuMsNow,
      before: r.hostCpuMsBefore,
      'x CPU': r.hostCpuRatio,
      'x req/s': r.throughputCostRatio,
      'x median': r.medianRatio,
      'room us': r.ownUsNow,
      'room us before': r.ownUsBefore,
      'x room us': r.ownRatio,
    })),
  );
  const pct = (now: number, before: number): string => `${round2(((now - before) / before) * 100)}%`;
  console.log(
    `bundle ${a.bundleBytes.now.toLocaleString('en-US')} bytes against ${a.bundleBytes.before.toLocaleString('en-US')} ` +
      `(${pct(a.bundleBytes.now, a.bundleBytes.before)}); Wasm ${a.wasmBytes.now.toLocaleString('en-US')} against ` +
      `${a.wasmBytes.before.toLocaleString('en-US')} (${pct(a.wasmBytes.now, a.wasmBytes.before)})`,
  );
}

/** The room's own time inside the runtime on today's timed build and the older one's, one request of each in turn. */
export async function ownTimesAgainst(
  origin: EchoOrigin,
  settings: Settings,
  keyBytes: Uint8Array,
  scenarios: TimedScenario[],
  store: Record<string, string>,
  before: BeforeBuild,
): Promise<{ now: Record<string, RoomTime>; before: Record<string, RoomTime> }> {
  const builds = { now: await buildFixture('room-timed'), before: before.timed };
  const times = await roomTimesAcross(origin, settings, keyBytes, builds, scenarios, 1500, store, { alternate: true });
  return { now: times.now!, before: times.before! };
}
