// `npm run control`: holds the origin to new_users_per_minute (and total_active_users) by reading the
// room's decision lines and publishing each window's chance (docs/control/). Its options, and what
// each does, are in control/cli/options.ts (`npm run control -- --help`).
import { isMain, runTool, UsageError } from '../lib/cli.js';
import { apiBudget, NO_SOURCE, parseOptions, positive, USAGE, type Log, type Values } from './cli/options.js';
import { localConfigFile } from '../lib/local-store.js';
import { resolve } from 'node:path';
import { Controller } from './controller.js';
import { restoredModels, Rooms } from './rooms/room-set.js';
import type { RoomsPort } from './rooms/port.js';
import { WorkerRooms } from './rooms/worker-rooms.js';
import { Failover } from './failover/failover.js';
import { DEFAULT_LEASE_SECONDS } from './failover/heartbeat.js';
import {
  defaultStateFile,
  readStateFile,
  removeLeftTemps,
  StateFileError,
  StateSaver,
  writeStateFile,
  type ControllerState,
} from './failover/state-file.js';
import { startDashboard } from './dashboard/server.js';
import { createControlModel } from './model/index.js';
import type { ModelSaved } from './model/saved.js';
import { httpsSource } from './sources/https-source.js';
import { parseLogLine } from './sources/log-line.js';
import { fileSource, logTailSource, stdinSource, type Source } from './sources/log-tail-source.js';
import { fastlyStore } from './store/fastly-store.js';
import { localStore, Writer } from './store/writer.js';
import type { ApiBudget, StoreCall } from './store/api-budget.js';
import { openJournal } from './store/journal.js';
import { journalTargets } from './store/journal-targets.js';
import { dashboardPortTaken, portHolder } from './dashboard/port-holder.js';
import { launchers, startGuard } from '../lib/child-guard.js';

async function startHttps(
  portText: string,
  values: {
    'tls-cert'?: string;
    'tls-key'?: string;
    'https-host'?: string;
    'accept-service'?: string[];
    'https-secret'?: string;
    service?: string;
  },
  log: (message: string) => void,
  onLine: (text: string) => void,
): Promise<Source> {
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--source https:PORT needs a port number, not "${portText}"`);
  if ((values['tls-cert'] === undefined) !== (values['tls-key'] === undefined))
    throw new UsageError('--tls-cert and --tls-key go together');
  let secret: { name: string; value: string } | null = null;
  if (values['https-secret'] !== undefined) {
    const at = values['https-secret'].indexOf('=');
    if (at < 1 || at === values['https-secret'].length - 1)
      throw new UsageError(`--https-secret must be NAME=VALUE, not "${values['https-secret']}"`);
    secret = { name: values['https-secret'].slice(0, at), value: values['https-secret'].slice(at + 1) };
  }
  const serviceIds = values['accept-service'] ?? (values.service !== undefined ? [values.service] : []);
  const source = await httpsSource(
    {
      port,
      host: values['https-host'],
      tlsCertFile: values['tls-cert'],
      tlsKeyFile: values['tls-key'],
      serviceIds,
      secret,
      log,
    },
    onLine,
  );
  if (values['tls-cert'] === undefined)
    log(`${source.name} serves plain HTTP: Fastly posts only to https:// URLs, so put a TLS proxy in front`);
  if (serviceIds.length === 0)
    log('the logging challenge accepts any service (*): name yours with --accept-service or --service');
  return source;
}

/** Passes decision lines to `onLine` and every other line (the room's banner, its errors) to `other`. */
export function echoOthers(onLine: (text: string) => void, other: (text: string) => void): (text: string) => void {
  return (text) => {
    if (parseLogLine(text).kind === 'foreign') other(text);
    onLine(text);
  };
}

/** The state file read (unless --fresh) and the failover it sets up, the budget's hour restored from it: a file that cannot be used stops the start. */
async function startFailover(
  values: { state?: string; fresh?: boolean; lease?: string; service?: string; file?: string },
  leadSeconds: number,
  budget: ApiBudget,
  log: (message: string) => void,
): Promise<{ failover: Failover; file: string }> {
  const leaseSeconds = positive('lease', values.lease, DEFAULT_LEASE_SECONDS);
  if (leaseSeconds < 60)
    throw new UsageError(
      `--lease must be at least 60 seconds (a lease shorter than the writes' spacing would lapse between them), not "${values.lease}"`,
    );
  const localFile = resolve(localConfigFile(values.file, () => {}));
  const file = values.state ?? defaultStateFile(values.service, localFile);
  const storeName = values.service !== undefined ? `service ${values.service}` : `file ${localFile}`;
  let resume: ControllerState | null = null;
  try {
    resume = values.fresh ? null : await readStateFile(file, storeName);
  } catch (error) {
    if (error instanceof StateFileError) throw new UsageError(error.message);
    throw error;
  }
  // A write cut short by a kill leaves its temporary file beside the state file: never read, so removed.
  for (const name of await removeLeftTemps(file)) log(`removed ${name}, the temporary file of a state write cut short`);
  if (values.fresh) log(`--fresh: not reading ${file}; it is overwritten as the controller goes`);
  const saver = new StateSaver((state) => writeStateFile(file, state), log);
  return {
    failover: new Failover({
      store: storeName,
      leaseSeconds,
      leadSeconds,
      resume,
      saver,
      budget,
      startedMs: Date.now(),
      log,
    }),
    file,
  };
}

/** Makes the rooms, whose saved models are restored at once: one that cannot be read stops the start, naming the file. */
async function resumedAsync<T>(file: string, make: () => Promise<T>): Promise<T> {
  try {
    return await make();
  } catch (error) {
    throw new UsageError(
      `cannot resume from the state file ${file}: ${(error as Error).message}. Start without it: npm run control -- --fresh ... (learning mode), or name another with --state FILE`,
    );
  }
}

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
  const controller = new Controller({
    rooms,
    store,
    writer,
    sourceName: spec,
    lagLimitMs: positive('lag-limit', values['lag-limit'], 60) * 1000,
    log,
    failover,
  });
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

/** The service's Config Store through the API (or the CLI), or the local file; every call counted and journalled. */
function openStore(
  values: Values,
  readEveryMs: number,
  budget: ApiBudget,
  journal: ReturnType<typeof openJournal> | null,
  targets: ReturnType<typeof journalTargets>,
  log: Log,
) {
  const report = (call: StoreCall): void => {
    const now = Date.now();
    budget.record(call, now);
    journal?.append(call, now);
  };
  const token = process.env.FASTLY_API_TOKEN?.trim() || null;
  const rawStore =
    values.service !== undefined
      ? fastlyStore({
          serviceId: values.service,
          storeId: values['store-id'],
          dryRun: values['dry-run'],
          token,
          endpoint: process.env.FASTLY_API_ENDPOINT,
          readEveryMs,
          report,
          log,
        })
      : localStore(localConfigFile(values.file), report);
  if (values.service !== undefined && token === null) {
    log(
      'FASTLY_API_TOKEN is not set: reading and writing through the Fastly CLI, one API call per key written; export FASTLY_API_TOKEN=... to write every room in one call',
    );
  }
  return {
    ...rawStore,
    name: rawStore.name,
    read: async () => {
      const data = await rawStore.read();
      targets.read(data);
      return data;
    },
  };
}

async function openSource(
  spec: string,
  values: Values,
  onLine: (text: string) => void,
  budget: ApiBudget,
  journal: ReturnType<typeof openJournal> | null,
  resuming: boolean,
  log: Log,
): Promise<Source> {
  // The room's banner and errors come down the same pipe as its decision lines: the operator still sees them.
  if (spec === 'stdin')
    return stdinSource(values['no-echo'] ? onLine : echoOthers(onLine, (text) => process.stdout.write(`${text}\n`)));
  // Resuming: the file's lines written while the controller was down are read too (counted ones skipped).
  if (spec.startsWith('file:')) return fileSource(spec.slice(5), onLine, 250, resuming);
  // Each start of `fastly log-tail` is an API call: held while the budget has none to spare, counted as
  // it goes (its outcome settled on the budget's pending call), journalled once its outcome is known.
  if (spec.startsWith('log-tail:'))
    return logTailSource(spec.slice(9), onLine, {
      take: (now) => budget.take(now, 'log-tail'),
      report: (call) => journal?.append(call, Date.now()),
    });
  if (spec.startsWith('https:')) return startHttps(spec.slice(6), values, log, onLine);
  throw new UsageError(`--source must be stdin, file:PATH, log-tail:SERVICE or https:PORT, not "${spec}"`);
}

async function openDashboard(portText: string, controller: Controller) {
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
async function runUntilSignal(controller: Controller, source: Source, log: Log): Promise<() => Promise<void>> {
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

if (isMain(import.meta.url)) runTool('npm run control', USAGE, (argv) => main(argv, { guard: true }));
