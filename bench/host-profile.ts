// Where the local host's CPU time goes under load: the `.cpuprofile` files `node --cpu-prof` writes for
// each thread, summarised per function and per category, the main thread apart from the guest workers.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from '../lib/paths.js';

const round = (n: number, digits = 2): number => Number(n.toFixed(digits));

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  positionTicks?: { line: number; ticks: number }[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

type Category = 'wasm' | 'host JS' | 'node/V8 internals' | 'instantiate' | 'GC' | 'idle' | 'blocked in Atomics.wait';

function categorise(frame: ProfileNode['callFrame']): Category {
  const { functionName, url } = frame;
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(garbage collector)') return 'GC';
  // The WebAssembly.Instance constructor (memory + data segments per request) is native, so it
  // shows as its own frame.
  if (functionName === 'Instance' && url === '') return 'instantiate';
  if (url.startsWith('wasm://') || /^(\$|wasm-function|js-to-wasm|wasm-to-js)/.test(functionName)) return 'wasm';
  if (url.includes('/host/dist/') || url.includes('/host/src/')) return 'host JS';
  return 'node/V8 internals';
}

const sourceLines = new Map<string, string[]>();
async function linesOf(url: string): Promise<string[]> {
  if (!sourceLines.has(url)) {
    const text = await readFile(url.replace(/^file:\/\//, ''), 'utf8').catch(() => '');
    sourceLines.set(url, text.split('\n'));
  }
  return sourceLines.get(url)!;
}

/**
 * The share of a host-JS frame's self time that was spent on a line calling Atomics.wait. A blocked
 * worker is charged to the JS function that called Atomics.wait (the builtin has no frame of its
 * own); positionTicks say which line was running, so waiting is told apart from working without
 * knowing the host's function names.
 */
async function waitingFraction(node: ProfileNode): Promise<number> {
  const ticks = node.positionTicks ?? [];
  const all = ticks.reduce((sum, t) => sum + t.ticks, 0);
  if (all === 0 || !node.callFrame.url.startsWith('file://')) return 0;
  const lines = await linesOf(node.callFrame.url);
  const waiting = ticks.filter((t) => lines[t.line - 1]?.includes('Atomics.wait')).reduce((sum, t) => sum + t.ticks, 0);
  return waiting / all;
}

interface ThreadGroupSummary {
  threads: number;
  sampledMs: number;
  shares: Record<string, number>;
  /** Functions by self time; `share` is of this group's sampled time. */
  top: { function: string; where: string; selfMs: number; share: number; category: Category }[];
}

export interface ProfileSummary {
  main: ThreadGroupSummary;
  workers: ThreadGroupSummary;
}

/**
 * Self time per function and per category. The main thread (HTTP, backends, stores) and the guest
 * workers are summarised apart: the workers' idle and blocked time says whether they or the main
 * thread are the bottleneck.
 */
async function summariseProfiles(profiles: CpuProfile[]): Promise<ProfileSummary> {
  const byFunction = new Map<
    string,
    { selfUs: number; where: string; name: string; category: Category; thread: string }
  >();
  const groups = {
    main: { threads: 0, total: 0, byCategory: new Map<Category, number>() },
    workers: { threads: 0, total: 0, byCategory: new Map<Category, number>() },
  };
  for (const profile of profiles) {
    const thread = profile.nodes.some((node) => node.callFrame.url.includes('/host/dist/cli.js')) ? 'main' : 'workers';
    const group = groups[thread];
    group.threads++;
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    const selfUs = new Map<number, number>();
    profile.samples.forEach((id, i) => {
      // timeDeltas[i] is the gap before sample i; charge it to the sampled frame.
      selfUs.set(id, (selfUs.get(id) ?? 0) + Math.max(0, profile.timeDeltas[i] ?? 0));
    });
    for (const [id, us] of selfUs) {
      const node = nodes.get(id);
      if (!node) continue;
      group.total += us;
      const add = (category: Category, amount: number): void => {
        group.byCategory.set(category, (group.byCategory.get(category) ?? 0) + amount);
      };
      let category = categorise(node.callFrame);
      if (category === 'host JS') {
        const waiting = us * (await waitingFraction(node));
        add('blocked in Atomics.wait', waiting);
        add('host JS', us - waiting);
        if (waiting > us / 2) category = 'blocked in Atomics.wait';
      } else {
        add(category, us);
      }
      const where = node.callFrame.url
        ? `${node.callFrame.url.replace(/^file:\/\//, '').replace(`${repoRoot}/`, '')}:${node.callFrame.lineNumber + 1}`
        : '';
      const name = node.callFrame.functionName || '(anonymous)';
      const key = `${thread}:${name}@${where}`;
      const entry = byFunction.get(key) ?? { selfUs: 0, where, name, category, thread };
      entry.selfUs += us;
      byFunction.set(key, entry);
    }
  }
  const summarise = (thread: 'main' | 'workers'): ThreadGroupSummary => {
    const g = groups[thread];
    const shares: Record<string, number> = {};
    for (const [category, us] of [...g.byCategory].sort((a, b) => b[1] - a[1]))
      shares[category] = round((100 * us) / g.total, 1);
    const top = [...byFunction.values()]
      .filter((f) => f.thread === thread)
      .sort((a, b) => b.selfUs - a.selfUs)
      .slice(0, 10)
      .map((f) => ({
        function: f.name,
        where: f.where,
        selfMs: round(f.selfUs / 1000, 1),
        share: round((100 * f.selfUs) / g.total, 1),
        category: f.category,
      }));
    return { threads: g.threads, sampledMs: round(g.total / 1000), shares, top };
  };
  return { main: summarise('main'), workers: summarise('workers') };
}

/** Every thread's profile in `dir` (written as each thread of a host exits cleanly), summarised. */
export async function readProfiles(dir: string): Promise<ProfileSummary> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.cpuprofile'));
  const profiles = await Promise.all(
    files.map(async (f) => JSON.parse(await readFile(path.join(dir, f), 'utf8')) as CpuProfile),
  );
  return summariseProfiles(profiles);
}

export function printProfile(label: string, p: ProfileSummary): void {
  const shares = (g: ThreadGroupSummary): string =>
    Object.entries(g.shares)
      .map(([k, v]) => `${k} ${v}%`)
      .join(', ');
  const top = (g: ThreadGroupSummary): void => {
    for (const f of g.top.slice(0, 8)) {
      console.log(
        `      ${f.share.toFixed(1).padStart(5)}%  ${f.selfMs.toFixed(0).padStart(6)} ms  [${f.category}] ${f.function} ${f.where}`,
      );
    }
  };
  console.log(`\n${label}:`);
  console.log(`  main thread (${p.main.sampledMs} ms sampled): ${shares(p.main)}`);
  top(p.main);
  console.log(`  ${p.workers.threads} workers (${p.workers.sampledMs} ms sampled in all): ${shares(p.workers)}`);
  top(p.workers);
}
