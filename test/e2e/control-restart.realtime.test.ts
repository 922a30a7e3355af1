// kill -9 of the controller on the local room, during a load of 1,000 visitors: the built room on the
// host, `npm run control` following a file of its decision lines with a state file, `npm run load`'s
// browsers. The controller is killed mid-crowd and started again with the same state file: it resumes
// (its heartbeat is its own, so it does not wait out its lease), and the room is not flooded: a
// controller that restarted blind would publish chances for a crowd it had not seen yet. The minute
// of the restart and the one after (minutes 2 and 3) together are held within ±10% of twice the target,
// unless the load tool says it held its own browsers back in either (a shared 2-core machine can make it
// late: then the minute says nothing about the controller). Not minute 3 alone: the controller makes up
// a short minute in the next windows (up to 1.5 times the target's share), and on a busy machine one
// wall-clock minute swings (minute 1 admitted 45 in one run, 90 in the next; a CI run's minute 3 admitted
// 137 of 120, the only one of its kind in many). Minute 4, the crowd's last, runs 8-12% under the target with or
// without a kill (the model's shortfall on a thinning crowd of late returners, as the simulator's
// held-late shows), so it is printed and held only to no flood; the ±10% over several minutes after a
// restart is asserted in the simulator (test/sim/control.restart.test.ts), where time is virtual.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';
import { main as load } from '../../load/cli.js';
import { HELD_BACK_SECONDS } from '../../load/report.js';
import { repoRoot } from '../../lib/paths.js';
import { LOG_ENDPOINT, startRoom, storeFiles, waitFor, type Room } from '../../lib/room-host.js';

const TARGET = 120;
/** When the controller is killed, ms into the load: mid-crowd, its schedules and state file written. */
const KILL_AT_MS = 70_000;
const dir = mkdtempSync(join(tmpdir(), 'wr-restart-'));
const logFile = join(dir, 'room.log');
const stateFile = join(dir, 'control-state.json');
let room: Room | null = null;
const controllers: { child: ChildProcess; out: string[] }[] = [];

afterAll(async () => {
  for (const c of controllers) if (c.child.exitCode === null) c.child.kill('SIGKILL');
  await room?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** `npm run control` as one Node process (tsx as a loader, so SIGKILL reaches the controller itself). */
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
      stateFile,
      '--dashboard-port',
      '0',
    ],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const out: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) =>
    out.push(
      ...chunk
        .toString()
        .split('\n')
        .filter((l) => l !== ''),
    ),
  );
  const c = { child, out };
  controllers.push(c);
  return c;
}

const said = (c: { out: string[] }, pattern: RegExp): Promise<string> =>
  waitFor(() => c.out.find((l) => pattern.test(l)), 120_000);

it('resumes after kill -9 in the middle of a crowd: no flood, and the target held over the minute of the restart and the next', async () => {
  room = await startRoom({
    settings: {
      allow_percentage: '10',
      wait_period_duration: '20',
      identity: 'header:x-load-visitor',
      new_users_per_minute: String(TARGET),
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
    const first = startController(configFile);
    // No controller has written this store (no heartbeat): nothing to learn from, it controls at once.
    await said(first, /no controller has written this store before/);
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void lines.push(a.join(' ')));
    const err = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void lines.push(a.join(' ')));
    const report = join(dir, 'load.json');
    const started = Date.now();
    const run = load([
      '--url',
      room.url,
      '--visitors',
      '1000',
      '--minutes',
      '4',
      '--target',
      String(TARGET),
      '--file',
      configFile,
      '--out',
      report,
    ]).finally(() => {
      log.mockRestore();
      err.mockRestore();
    });
    // Mid-crowd: the controller has written its schedules, and its state file.
    await new Promise((resolve) => setTimeout(resolve, KILL_AT_MS - (Date.now() - started)));
    expect(
      first.out.some((l) => /wrote allow_schedule=/.test(l)),
      first.out.join('\n'),
    ).toBe(true);
    const beforeKill = JSON.parse(readFileSync(configFile, 'utf8')) as Record<string, string>;
    first.child.kill('SIGKILL');
    const killedAt = Math.round((Date.now() - started) / 1000);
    const second = startController(configFile);
    await said(second, /resuming from the state saved/);
    const code = await run;
    expect(code, lines.join('\n')).toBe(0);
    const figures = JSON.parse(readFileSync(report, 'utf8')) as {
      admissionsPerMinute: number[];
      heldBack: { minute: number; p95Seconds: number }[];
    };
    /** Minutes (1-based) in which this tool held its browsers back (load/README.md): they came back late. */
    const late = new Set(figures.heldBack.filter((h) => h.p95Seconds >= HELD_BACK_SECONDS).map((h) => h.minute));
    for (const [i, c] of [first, second].entries())
      console.log(
        `controller ${i + 1}:\n${c.out
          .filter((l) => !/^\s*$/.test(l))
          .slice(0, 60)
          .join('\n')}`,
      );
    console.log(lines.filter((l) => /minute|held/.test(l)).join('\n'));
    console.log(
      `admissions a minute: ${figures.admissionsPerMinute.join(', ')} (target ${TARGET}; killed and restarted at ${killedAt} s; minutes the load tool held back: ${[...late].join(', ') || 'none'})`,
    );
    // The restarted controller is the same controller to the store: its own heartbeat, no wait for its lease.
    const after = JSON.parse(readFileSync(configFile, 'utf8')) as Record<string, string>;
    expect(JSON.parse(after.controller!).id).toBe(JSON.parse(beforeKill.controller!).id);
    expect(second.out.join('\n')).not.toMatch(/another controller/);
    expect(
      second.out.some((l) => /wrote allow_schedule=/.test(l)),
      second.out.join('\n'),
    ).toBe(true);
    // The minutes from the restart (at 70 s) on: minutes 2 to 4 of the run, each admitting, none flooding.
    // A minute the load tool held its browsers back in, or the one after it, is not held to the flood
    // bound: the late minute admits short, and the controller rightly makes up the shortfall it saw in
    // the next (a run held back in minutes 3 and 4 admitted 94 then 152 of 120).
    for (const m of [1, 2, 3]) {
      expect(figures.admissionsPerMinute[m], `minute ${m + 1}`).toBeGreaterThan(0);
      if (late.has(m + 1) || late.has(m)) continue;
      expect(
        figures.admissionsPerMinute[m]! / TARGET,
        `minute ${m + 1}: ${figures.admissionsPerMinute[m]}`,
      ).toBeLessThanOrEqual(1.25);
    }
    // The restart's minute and the one after, together: within ±10% of twice the target.
    if (!late.has(2) && !late.has(3)) {
      const [, second, third] = figures.admissionsPerMinute;
      expect(
        Math.abs((second! + third!) / (2 * TARGET) - 1),
        `minutes 2 and 3: ${second} + ${third} of ${2 * TARGET} (every minute: ${figures.admissionsPerMinute.join(', ')})`,
      ).toBeLessThanOrEqual(0.1 + 1e-9);
    }
  } finally {
    clearInterval(copier);
  }
}, 600_000);
