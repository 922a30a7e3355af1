// `npm run control` put together: the options read, the store, the writer, the failover, the rooms
// (in the planner thread unless --in-thread), the source and the dashboard opened, then a tick a second
// until a signal, and the state file written at the end.
import { UsageError } from '../../lib/cli.js';
import { launchers, startGuard } from '../../lib/child-guard.js';
import type { ControlLoop } from '../controller.js';
import { startDashboard, dashboardPortTaken, portHolder } from '../dashboard/index.js';
import { FailoverController } from '../failover/index.js';
import { createControlModel, type ModelSaved } from '../model/index.js';
import { type RoomsPort, restoredModels, Rooms, WorkerRooms } from '../rooms/index.js';
import type { Source } from '../sources/index.js';
import { openJournal, journalTargets, Writer } from '../store/index.js';
import { resumedAsync, startFailover } from './open-failover.js';
import { openSource } from './open-source.js';
import { openStore } from './open-store.js';
import { apiBudget, NO_SOURCE, parseOptions, positive, type Log } from './options.js';

/**
 * `guard`: started as `npm run control` (or under tsx), the controller dies with what launched it: a
 * kill -9 of npm stops nothing below it, and the controller would go on writing the store unseen.
 * The guard of `npm start` (lib/child-guard.ts) watches npm, its shell and tsx, and stops this process
 * (SIGTERM, so it saves its state; SIGKILL after a grace) when one of them is gone.
 */
export async function main(argv: readonly string[], options: { guard?: boolean } = {}): Promise<number> {
  const { values } = parseOptions(argv);
  const log: Log = (message) => console.error(`[control] ${message}`);
  if (options.guard === true) guardLaunchers();
  const spec = values.source!;
  // Nothing piped in: say what the controller reads, rather than wait on the terminal for it.
  if (spec === 'stdin' && process.stdin.isTTY) throw new UsageError(NO_SOURCE);
  if (values.service === undefined && (values['store-id'] !== undefined || values['dry-run']))
    throw new UsageError('--store-id and --dry-run go with --service ID');
  const { budget, readEveryMs } = apiBudget(values, log);
  // Each room's target rides the journal's writes (control/store/journal-targets.ts): the report puts admissions against it.
  const targets = journalTargets();
  const journal = values.journal === undefined ? null : openJournal(values.journal, log, targets);
  const store = openStore(values, readEveryMs, budget, journal, targets, log);
  const writer = new Writer(store, positive('min-write-interval', values['min-write-interval'], 0) * 1000, log, budget);
  const leadSeconds = positive('lead', values.lead, 25);
  const { failover, file: stateFile } = await startFailover(values, leadSeconds, budget, log);
  // The rooms' models plan in a worker thread, so the log, the dashboard and the store's I/O never wait
  // on a plan; saved models are restored there at once, so one that cannot be read stops the start.
  const restore = Object.fromEntries(failover.savedRooms().map((id) => [id, failover.restoreFor(id)]));
  const rooms: RoomsPort = await resumedAsync(stateFile, async () =>
    values['in-thread']
      ? new Rooms(
          () => createControlModel({ leadSeconds }),
          log,
          restoredModels(restore, (_id, saved) => createControlModel({ leadSeconds, restore: saved as ModelSaved })),
        )
      : await WorkerRooms.start({ modelOptions: { leadSeconds }, restore, log }),
  );
  const controller = new FailoverController({
    rooms,
    store,
    writer,
    sourceName: spec,
    lagLimitMs: positive('lag-limit', values['lag-limit'], 60) * 1000,
    log,
    failover,
  });
  // An autopilot's rate moves between writes: each write line carries it (journal-targets.ts).
  targets.pacedBy(() => new Map(controller.snapshot(Date.now()).rooms.map((r) => [r.id, r.model.pace])));
  const source = await openSource(
    spec,
    values,
    (text) => controller.line(text, Date.now()),
    budget,
    journal,
    failover.resuming,
    log,
  );
  const dashboard = await openDashboard(values['dashboard-port']!, controller);
  log(
    `reading ${source.name}, writing ${store.name}; planning in ${values['in-thread'] ? 'its own thread (--in-thread)' : 'a worker thread'}; dashboard at ${dashboard.url}`,
  );
  const ticking = await runUntilSignal(controller, source, log);
  // The last tick's write and save finish, then the state file is written whatever its clock, and only
  // then are the journal (which the last call reports to) and the planner thread closed.
  await ticking();
  await controller
    .finalSave(Date.now())
    .catch((error: unknown) => log(`cannot write the state file at shutdown: ${(error as Error).message}`));
  await journal?.close();
  dashboard.server.close();
  await rooms.close?.();
  // The room keeps the chances written, then the lease's fallback: the last schedule entry holds (docs/control/settings.md).
  log('stopped; the room keeps the chances written, then, a lease on, their fallback');
  return 0;
}

/** Started by npm (or a shell): the controller stops when they die, even by kill -9 (lib/child-guard.ts). */
function guardLaunchers(): void {
  const above = launchers();
  if (above.length === 0) return;
  const guard = startGuard();
  for (const pid of above) guard.watch(pid);
}

async function openDashboard(portText: string, controller: ControlLoop) {
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--dashboard-port must be a port number, not "${portText}"`);
  return startDashboard(
    port,
    () => controller.snapshot(Date.now()),
    () => controller.requestRead('the dashboard asked'),
  ).catch((error: NodeJS.ErrnoException) => {
    // Another controller (often one whose npm was killed) or any other server: say who, and the way round it.
    if (error.code === 'EADDRINUSE') throw new Error(dashboardPortTaken(port, portHolder(port)));
    throw error;
  });
}

/** A tick a second until SIGINT or SIGTERM; returns a wait for the tick under way then. */
async function runUntilSignal(controller: ControlLoop, source: Source, log: Log): Promise<() => Promise<void>> {
  // The tick under way (null: none): shutdown waits for it, so its write and its save are not cut short.
  let ticking: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (ticking !== null) return;
    controller.source(source.error, source.dead);
    // A tick that throws is said and the next one goes on: the controller never dies of one.
    ticking = controller
      .tick(Date.now())
      .catch((error: unknown) =>
        log(`a tick failed (${(error as Error)?.stack ?? String(error)}); going on at the next`),
      )
      .finally(() => (ticking = null));
  }, 1000);
  // kill -HUP: read the settings at the next tick (an operator who just ran tune need not wait a minute).
  const onHup = (): void => {
    log('SIGHUP: reading the settings at the next tick');
    controller.requestRead('SIGHUP');
  };
  process.on('SIGHUP', onHup);
  await new Promise<void>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve());
  });
  process.off('SIGHUP', onHup);
  clearInterval(timer);
  source.stop();
  return async () => {
    await ticking;
  };
}
