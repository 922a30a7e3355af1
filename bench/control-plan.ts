// `npm run bench:control-plan`: how long the controller's plan takes against the tickets it tracks,
// and how fast lines reach the rooms, in the controller's own thread and through the planner thread
// (control/rooms/worker-rooms.ts). N new visitors join a queueing room (a 50% chance, 30 s windows) over
// the two windows before the first plan, each a wait ticket with its successor named; then one plan
// a second for a window. Prints a table; asserts nothing.
//   N=100000,1000000 npm run bench:control-plan
import { performance } from 'node:perf_hooks';
import { takesNoArguments } from '../lib/cli.js';
import { createControlModel } from '../control/model/index.js';
import { Rooms, type RoomsPort, WorkerRooms } from '../control/rooms/index.js';
import { parseLogLine } from '../control/sources/index.js';
import { storeFromSettings } from '../src/core/settings/index.js';
import { decisionLine } from '../src/core/log/index.js';

takesNoArguments(
  'npm run bench:control-plan',
  `usage: npm run bench:control-plan   (prints plan times against tickets tracked; writes nothing)
  N=100000,1000000   the crowds to measure, comma-separated
  TICKS=30           plans, one a second after the crowd came`,
);

const D = 30;
const T0 = Date.UTC(2026, 10, 26, 10);
const SETTINGS = storeFromSettings({
  allow_percentage: '50',
  new_users_per_minute: '6000',
  wait_period_duration: String(D),
});
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const TICKS = Number(process.env.TICKS ?? 30);
const CROWDS = (process.env.N ?? '100000,1000000').split(',').map(Number);

let seed = 1;
const rnd = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647;
const tid = (): string => {
  let s = '';
  for (let i = 0; i < 8; i++) s += ALPHABET[Math.floor(rnd() * 64)];
  return s;
};

/** N newcomers over the two windows before T0 + 2d, each given a wait ticket for the next window: the lines as the edge logs them. */
function crowd(n: number): string[] {
  seed = 1;
  return Array.from({ length: n }, (_, i) => {
    const nowMs = T0 + Math.floor((i / n) * 2 * D * 1000);
    const exp = (Math.floor(nowMs / 1000 / D) + 1) * D;
    return decisionLine({
      nowMs,
      pop: i % 3 === 0 ? 'LHR' : i % 3 === 1 ? 'FRA' : 'IAD',
      room: 'default',
      rule: null,
      waitPeriodSeconds: D,
      decision: 'start',
      outcome: 'startwaiting',
      reason: 'no_token',
      kid: 'k',
      method: 'GET',
      path: '/',
      identity: 'ip',
      status: 200,
      result: { used: null, setToken: `h.p.${tid()}`, set: { dec: 'wait', exp }, nextToken: `h.p.${tid()}`, pct: null },
    });
  });
}

interface Row {
  where: string;
  n: number;
  /** The controller's own thread's time a line, µs: its parse, and then the model's work or the batching for the planner thread. */
  parseUsPerLine: number;
  mainUsPerLine: number;
  ingestPerSec: number;
  firstPlanMs: number;
  medianPlanMs: number;
  maxPlanMs: number;
  rssMb: number;
}

async function measure(where: 'own thread' | 'planner thread', lines: string[]): Promise<Row> {
  const n = lines.length;
  const log = (m: string): void => void (process.env.VERBOSE && console.error(m));
  const worker = where === 'planner thread' ? await WorkerRooms.start({ log, planTimeoutMs: 3_600_000 }) : null;
  const rooms: RoomsPort = worker ?? new Rooms(() => createControlModel(), log);
  rooms.settings(SETTINGS, T0);
  const ctx = { holding: false, writeIntervalMs: 0 };
  // As Controller.line does: parse, then hand over the line and its text (timed apart).
  let started = performance.now();
  const parsed = lines.map((text) => {
    const verdict = parseLogLine(text, T0 + 3 * D * 1000);
    if (verdict.kind !== 'decision') throw new Error(`not a decision line: ${text}`);
    return verdict.line;
  });
  const parseUsPerLine = ((performance.now() - started) * 1000) / n;
  started = performance.now();
  for (let i = 0; i < n; i++) rooms.observe(parsed[i]!, lines[i]);
  const mainUsPerLine = ((performance.now() - started) * 1000) / n;
  started -= (parseUsPerLine * n) / 1000;
  // In the worker, the lines are in once the first plan's answer is back: its plan time is subtracted.
  let nowMs = T0 + 2 * D * 1000;
  const plans: number[] = [];
  const plan = async (): Promise<void> => {
    const t = performance.now();
    await rooms.plan(nowMs, ctx);
    plans.push(worker?.lastPlanMs ?? performance.now() - t);
  };
  await plan();
  const ingestMs = performance.now() - started - plans[0]!;
  started = performance.now();
  for (let i = 1; i < TICKS; i++) {
    nowMs += 1000;
    await plan();
  }
  const rssMb = process.memoryUsage().rss / 2 ** 20;
  await rooms.close?.();
  const sorted = plans.slice(1).sort((a, b) => a - b);
  return {
    where,
    n,
    parseUsPerLine,
    mainUsPerLine,
    ingestPerSec: n / (ingestMs / 1000),
    firstPlanMs: plans[0]!,
    medianPlanMs: sorted[Math.floor(sorted.length / 2)] ?? NaN,
    maxPlanMs: sorted.at(-1) ?? NaN,
    rssMb,
  };
}

const rows: Row[] = [];
for (const n of CROWDS) {
  const lines = crowd(n);
  for (const where of ['own thread', 'planner thread'] as const) {
    rows.push(await measure(where, lines));
    const r = rows.at(-1)!;
    console.error(`${r.where} ${r.n}: done`);
  }
}
const f = (x: number, digits = 0): string =>
  x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
console.log(
  '| tickets | rooms in | parse, µs a line | observe, µs a line | lines a second in | first plan, ms | plan, median ms | plan, max ms | RSS, MB |',
);
console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows)
  console.log(
    `| ${f(r.n)} | ${r.where} | ${f(r.parseUsPerLine, 2)} | ${f(r.mainUsPerLine, 2)} | ${f(r.ingestPerSec)} | ${f(r.firstPlanMs, 1)} | ${f(r.medianPlanMs, 1)} | ${f(r.maxPlanMs, 1)} | ${f(r.rssMb)} |`,
  );
