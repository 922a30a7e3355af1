// The autopilot on a laptop, end to end: the built room on the local host in front of the demo shop
// with its capacity (scripts/demo-capacity.ts: one request at a time, the rest in line, 503 past 2 s),
// `npm run control` following the room's decision lines with a journal, and `npm run load`'s crowd,
// far more than the shop takes. The room is in target_mode=auto with a ceiling well above the shop's
// pace; the controller is never told the shop's capacity, only its times and statuses in the log.
// Judged as `npm run report` judges it, from the same log and journal, minute by minute (p90 of
// originMs, error share): after the first minute, within the objective but for the few minutes by
// which the autopilot learns where the shop breaks, the shop never swamped, and the rate chosen
// far below the ceiling throughout.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';
import { main as load } from '../../load/cli.js';
import { repoRoot } from '../../lib/paths.js';
import { LOG_ENDPOINT, startRoom, storeFiles, type Room } from '../../lib/room-host.js';
import { reportFigures } from '../../report/figures.js';
import { readDecisionLog, readJournal } from '../../report/read.js';
import type { CapacityOptions } from '../../scripts/demo-capacity.js';
import { startDemoOrigin } from '../../scripts/demo-origin.js';

const CEILING = 600;
const FLOOR = 45;
/**
 * The shop: two requests at a time, 300 ms each (400 a minute at most), 503 past 4 s in line; and its
 * objective, 2 s at p90. An admitted visitor asks about four pages over a visit, so it keeps the
 * objective up to about 75 new visitors a minute: above the floor, and below twice it, where the
 * autopilot's first doubling lands. A busy machine adds its own delay to every time the room measures
 * (the host shares two cores with the load tool and the controller): at this scale it is small beside
 * the shop's own, so the shop, not the machine, sets the pace. Other suites beside it were not small
 * (CI saw the shop's p90 past its 4 s line), so `npm test` runs this file alone, last (`*.alone.test.ts`).
 */
const SHOP: CapacityOptions = { workers: 2, serviceMs: 300, maxWaitMs: 4_000 };
const OBJECTIVE_MS = 2_000;
const MINUTES = 8;
const dir = mkdtempSync(join(tmpdir(), 'wr-autopilot-'));
const logFile = join(dir, 'room.log');
const journalFile = join(dir, 'journal.jsonl');
let room: Room | null = null;
let controller: ChildProcess | null = null;
let closeShop: () => Promise<void> = async () => {};

afterAll(async () => {
  if (controller !== null && controller.exitCode === null) controller.kill('SIGKILL');
  await room?.stop();
  await closeShop();
  rmSync(dir, { recursive: true, force: true });
});

/** `npm run control` on the file of the room's decision lines, with a journal: one Node process. */
function startController(configFile: string): { child: ChildProcess; out: string[] } {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'control/cli.ts',
      '--source',
      `file:${logFile}`,
      '--file',
      configFile,
      '--state',
      join(dir, 'control-state.json'),
      '--journal',
      journalFile,
      '--dashboard-port',
      '0',
    ],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const out: string[] = [];
  for (const stream of [child.stdout!, child.stderr!])
    stream.on('data', (chunk: Buffer) =>
      out.push(
        ...chunk
          .toString()
          .split('\n')
          .filter((l) => l !== ''),
      ),
    );
  return { child, out };
}

/** Runs the load tool with its output kept (and printed once it is over). */
async function crowd(args: string[]): Promise<{ code: number; out: string[] }> {
  const out: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  const err = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  try {
    return { code: await load(args), out };
  } finally {
    log.mockRestore();
    err.mockRestore();
  }
}

it("finds the demo shop's pace: the objective held but while it learns, the rate far below the ceiling", async () => {
  const shop = await startDemoOrigin({ port: 0, capacity: SHOP });
  closeShop = () => new Promise((resolve) => shop.server.close(() => resolve()));
  room = await startRoom({
    origin: { url: shop.url, requests: [], close: async () => {} },
    settings: {
      allow_percentage: '10',
      wait_period_duration: '20',
      identity: 'header:x-load-visitor',
      target_mode: 'auto',
      new_users_per_minute: String(CEILING),
      auto_floor_per_minute: String(FLOOR),
      origin_latency_ms: String(OBJECTIVE_MS),
    },
  });
  const configFile = join(room.dir, storeFiles.config);
  writeFileSync(logFile, '');
  // The room's decision lines, as `npm start` prints them, appended to the file the controller follows.
  let copied = 0;
  const copier = setInterval(() => {
    const lines = room!.logs().filter((l) => l.includes(`${LOG_ENDPOINT} :: `));
    if (lines.length > copied) appendFileSync(logFile, `${lines.slice(copied).join('\n')}\n`);
    copied = lines.length;
  }, 200);
  try {
    const c = startController(configFile);
    controller = c.child;
    const run = await crowd([
      '--url',
      room.url,
      '--visitors',
      '800',
      '--flash-seconds',
      '30',
      '--minutes',
      String(MINUTES),
      '--file',
      configFile,
      '--out',
      join(dir, 'load.json'),
    ]);
    expect(run.code, run.out.join('\n')).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const figures = reportFigures(await readDecisionLog(logFile), await readJournal(journalFile));
    const origin = figures.rooms.find((r) => r.id === 'default')?.origin;
    expect(origin, c.out.join('\n')).toBeDefined();
    const rows = origin!.minutes.map((m, i) => ({ ...m, admitted: figures.rooms[0]!.minutes[i]!.admissions }));
    console.log(
      `minute  admitted  rate chosen  state      to origin  p90 ms  errors\n${rows
        .map(
          (r) =>
            `${new Date(r.startMs).toISOString().slice(11, 16)}   ${String(r.admitted).padStart(8)}  ${String(r.rate ?? '-').padStart(11)}  ${(r.state ?? '-').padEnd(9)}  ${String(r.requests).padStart(9)}  ${String(r.latencyMs ?? '-').padStart(6)}  ${r.errors}`,
        )
        .join('\n')}\n${run.out.filter((l) => /^minute \d/.test(l)).join('\n')}`,
    );
    // The first clock minute is the crowd's arrival, the last is cut short: the minutes between are judged.
    const judged = rows.slice(1, -1).filter((r) => r.requests > 0);
    expect(judged.length).toBeGreaterThanOrEqual(MINUTES - 2);
    const at = (r: (typeof rows)[number]): string => new Date(r.startMs).toISOString().slice(11, 16);
    // The autopilot learns where the shop breaks by going past it (it doubles its rate, then raises in
    // steps, until a breach: docs/control/auto.md), and the visitors it let in keep browsing for a visit
    // after its cut: a few minutes over the objective, and one of them may reach the shop's 4 s line
    // (CI saw 4.2 s at p90 and 5% of that minute's pages answered 503, after a raise to 6% past the
    // shop's pace; load/README.md measured the same at the walkthrough's 2 s line). Never the shop
    // swamped as the ceiling's 600 a minute would swamp it: the line for minutes on end, most pages a 503.
    const over = judged.filter((r) => r.held === false);
    expect(over.length, `minutes over the objective: ${over.map(at).join(', ')}`).toBeLessThanOrEqual(3);
    const atLine = judged.filter((r) => r.latencyMs! > 2 * OBJECTIVE_MS);
    expect(atLine.length, `minutes past twice the objective: ${atLine.map(at).join(', ')}`).toBeLessThanOrEqual(1);
    for (const r of judged) expect(r.errorShare!, `${at(r)}: error share`).toBeLessThan(0.1);
    const errors = judged.reduce((n, r) => n + r.errors, 0);
    const requests = judged.reduce((n, r) => n + r.requests, 0);
    expect(errors / requests, `errors over the judged minutes: ${errors} of ${requests}`).toBeLessThan(0.02);
    // The rate chosen: raised once it found room, never near the ceiling.
    const rates = rows.flatMap((r) => (r.rate === null ? [] : [r.rate]));
    expect(Math.max(...rates)).toBeGreaterThan(FLOOR);
    expect(Math.max(...rates)).toBeLessThan(CEILING / 3);
  } finally {
    clearInterval(copier);
  }
}, 900_000);
