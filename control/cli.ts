// `npm run control`: holds the origin to new_users_per_minute (and total_active_users) by reading the
// room's decision lines and publishing each window's chance (docs/control.md).
//
//   npm start | npm run control -- --source stdin            the local room's output, piped in (its
//                                                            other lines, the banner and errors, are
//                                                            copied to stdout; --no-echo: not)
//   npm run control -- --source file:room.log                a file the decision lines are written to
//   npm run control -- --source log-tail:SERVICE --service SERVICE    on Fastly (log_endpoint = stdout)
//   npm run control -- --source https:8443 --tls-cert C --tls-key K --service SERVICE
//                                                            on Fastly, as its HTTPS log endpoint
//   ... --accept-service ID           a service whose batches the endpoint accepts (repeat; default --service, else any)
//   ... --https-secret NAME=VALUE     a header every batch must carry (the endpoint's header_name/header_value)
//   ... --https-host ADDR             where the endpoint listens (default all interfaces)
//   ... --file PATH                   the local config store file (default: fastly.toml's, as tune)
//   ... --service ID [--store-id ID]  the service's Config Store instead: with FASTLY_API_TOKEN through
//                                     the API (a read a call, every room's writes in one bulk call;
//                                     FASTLY_API_ENDPOINT moves it), else the Fastly CLI, a call per key
//   ... --dry-run                     with --service: print the writes instead of making them
//   ... --dashboard-port N            the dashboard on 127.0.0.1 (default 7373; 0 picks a free port)
//   ... --lag-limit S                 hold when lines arrive more than S seconds after the room wrote them (default 60)
//   ... --api-budget N                at most N API calls an hour, reads, writes, heartbeats and log-tail
//                                     starts of all rooms together (default 300; Fastly allows about 1,000
//                                     an hour per token); the trailing hour's count is kept in the state file
//   ... --read-every S                read the settings every S seconds on Fastly (default 60; also at
//                                     start, after a write whose outcome is unknown, and on SIGHUP or the
//                                     dashboard's POST /api/read)
//   ... --journal FILE                append one JSON line per API call or local write (npm run report reads it)
//   ... --min-write-interval S        at least S seconds between writes, whatever the budget (default 0)
//   ... --lead S                      fix a window's chance S seconds before it opens (default 25;
//                                     at least the slowest POP's delay in seeing a new setting)
//   ... --in-thread                   plan in the controller's own thread instead of a worker thread
//                                     (for debugging: a long plan then stops the log and the dashboard)
//   ... --state FILE                  the state file it resumes from and saves to (default beside the
//                                     store file, local/control-state-config.json for local/config.json;
//                                     local/control-state-SERVICE.json with --service); saved every 10 s and at shutdown,
//                                     with the API budget's calls of the last hour and any 429 back-off
//   ... --fresh                       start without the state file: learning mode (docs/control.md#restarting-it-safely)
//   ... --lease S                     every schedule reaches S seconds ahead, then the fallback chance;
//                                     another controller's heartbeat older than S is taken over (default 600)
import { parseArgs } from 'node:util';
import { isMain, runTool, UsageError } from '../lib/cli.js';
import { localConfigFile } from '../lib/local-store.js';
import { resolve } from 'node:path';
import { Controller } from './controller.js';
import { restoredModels, Rooms } from './rooms.js';
import type { RoomsPort } from './rooms-port.js';
import { WorkerRooms } from './worker-rooms.js';
import { Failover } from './failover.js';
import { DEFAULT_LEASE_SECONDS } from './heartbeat.js';
import { defaultStateFile, readStateFile, removeLeftTemps, StateFileError, StateSaver, writeStateFile, type ControllerState } from './state-file.js';
import { startDashboard } from './dashboard/server.js';
import { createControlModel } from './model/index.js';
import type { ModelSaved } from './model/saved.js';
import { httpsSource } from './https-source.js';
import { parseLogLine } from './log-line.js';
import { fileSource, logTailSource, stdinSource, type Source } from './sources.js';
import { fastlyStore } from './fastly-store.js';
import { localStore, Writer } from './writer.js';
import { ApiBudget, DEFAULT_API_BUDGET, DEFAULT_READ_EVERY_MS, type StoreCall } from './api-budget.js';
import { openJournal } from './journal.js';
import { journalTargets } from './journal-targets.js';
import { dashboardPortTaken, portHolder } from './port-holder.js';
import { launchers, startGuard } from '../lib/child-guard.js';

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!(n >= 0) || !Number.isFinite(n)) throw new UsageError(`--${name} must be a number of seconds, not "${value}"`);
  return n;
}

async function startHttps(
  portText: string,
  values: { 'tls-cert'?: string; 'tls-key'?: string; 'https-host'?: string; 'accept-service'?: string[]; 'https-secret'?: string; service?: string },
  log: (message: string) => void,
  onLine: (text: string) => void,
): Promise<Source> {
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--source https:PORT needs a port number, not "${portText}"`);
  if ((values['tls-cert'] === undefined) !== (values['tls-key'] === undefined)) throw new UsageError('--tls-cert and --tls-key go together');
  let secret: { name: string; value: string } | null = null;
  if (values['https-secret'] !== undefined) {
    const at = values['https-secret'].indexOf('=');
    if (at < 1 || at === values['https-secret'].length - 1) throw new UsageError(`--https-secret must be NAME=VALUE, not "${values['https-secret']}"`);
    secret = { name: values['https-secret'].slice(0, at), value: values['https-secret'].slice(at + 1) };
  }
  const serviceIds = values['accept-service'] ?? (values.service !== undefined ? [values.service] : []);
  const source = await httpsSource(
    { port, host: values['https-host'], tlsCertFile: values['tls-cert'], tlsKeyFile: values['tls-key'], serviceIds, secret, log },
    onLine,
  );
  if (values['tls-cert'] === undefined) log(`${source.name} serves plain HTTP: Fastly posts only to https:// URLs, so put a TLS proxy in front`);
  if (serviceIds.length === 0) log('the logging challenge accepts any service (*): name yours with --accept-service or --service');
  return source;
}

const NO_SOURCE = [
  'the controller reads the room\'s decision lines, and nothing is piped into it (stdin is this terminal). Either:',
  '  npm start -- --control                               the room and the controller together',
  '  npm start | npm run control -- --source stdin        pipe the room\'s output into it',
  '  npm run control -- --source file:room.log            follow a file the decision lines are written to',
  '  npm run control -- --source log-tail:SERVICE --service SERVICE    a room on Fastly',
].join('\n');

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
  if (leaseSeconds < 60) throw new UsageError(`--lease must be at least 60 seconds (a lease shorter than the writes' spacing would lapse between them), not "${values.lease}"`);
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
  return { failover: new Failover({ store: storeName, leaseSeconds, leadSeconds, resume, saver, budget, startedMs: Date.now(), log }), file };
}

/** Makes the rooms, whose saved models are restored at once: one that cannot be read stops the start, naming the file. */
async function resumedAsync<T>(file: string, make: () => Promise<T>): Promise<T> {
  try {
    return await make();
  } catch (error) {
    throw new UsageError(`cannot resume from the state file ${file}: ${(error as Error).message}. Start without it: npm run control -- --fresh ... (learning mode), or name another with --state FILE`);
  }
}


const USAGE = `usage: npm run control -- [--source stdin [--no-echo]|file:PATH|log-tail:SERVICE|https:PORT [--tls-cert F --tls-key F] [--accept-service ID] [--https-secret NAME=VALUE] [--https-host ADDR]] [--file PATH | --service ID [--store-id ID] [--dry-run]] [--dashboard-port N] [--lag-limit S] [--api-budget CALLS_PER_HOUR] [--read-every S] [--journal FILE] [--min-write-interval S] [--lead S] [--state FILE | --fresh] [--lease S] [--in-thread]
  holds each room's admissions to its new_users_per_minute: reads the room's decision lines, writes
  the chance of each coming window to the settings store (docs/control.md)
 where the decision lines come from:
  --source stdin             piped in, e.g. npm start | npm run control (the default)
  --no-echo                  with stdin: do not copy the other lines (the host's own) to stdout
  --source file:PATH         a file the room's output goes to, followed as it grows
  --source log-tail:SERVICE  fastly log-tail of that Fastly service (a Fastly API call each start)
  --source https:PORT        a Fastly HTTPS log endpoint posting to this port
  --tls-cert F, --tls-key F  with https: the certificate and key to serve TLS with (without them: plain HTTP, for a TLS proxy)
  --accept-service ID        with https: the service id(s) whose logs it accepts (repeat for several)
  --https-secret NAME=VALUE  with https: a header every batch must carry; others get 401
  --https-host ADDR          with https: the interface to listen on (default all)
  --lag-limit S              lines older than this (seconds, default 60) mean the view is stale: it writes nothing then
 where it writes:
  --file PATH                the local store file (default local/config.json, what npm start serves)
  --service ID               that Fastly service's Config Store, through the Fastly CLI
  --store-id ID              with --service: the Config Store's id, when the service links several
  --dry-run                  with --service: print the writes instead of making them
  --api-budget CALLS_PER_HOUR  API calls an hour for reads, writes and heartbeats together (default 300)
  --read-every S             with --service: read the store back every S seconds (default 60)
  --min-write-interval S     at least S seconds between writes (default 0: the budget spaces them)
  --lead S                   publish each window's chance S seconds before it opens (default 25)
  --journal FILE             append one JSON line per write and API call (for npm run report --journal)
 across restarts and controllers:
  --state FILE               where its state is saved and resumed from (default local/control-state-NAME.json)
  --fresh                    ignore a saved state: start learning again
  --lease S                  the heartbeat lease, seconds (default 600): another controller takes over after it
 the rest:
  --dashboard-port N         the dashboard's port on 127.0.0.1 (default 7373; 0: any free port)
  --in-thread                plan in the controller's own thread, not a worker (for a debugger)`;

/**
 * `guard`: started as `npm run control` (or under tsx), the controller dies with what launched it: a
 * kill -9 of npm stops nothing below it, and the controller would go on writing the store unseen.
 * The guard of `npm start` (lib/child-guard.ts) watches npm, its shell and tsx, and stops this process
 * (SIGTERM, so it saves its state; SIGKILL after a grace) when one of them is gone.
 */
function parseOptions(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    options: {
      source: { type: 'string', default: 'stdin' },
      file: { type: 'string' },
      service: { type: 'string' },
      'store-id': { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      'dashboard-port': { type: 'string', default: '7373' },
      'lag-limit': { type: 'string' },
      'min-write-interval': { type: 'string' },
      'write-budget': { type: 'string' },
      'api-budget': { type: 'string' },
      'read-every': { type: 'string' },
      journal: { type: 'string' },
      lead: { type: 'string' },
      state: { type: 'string' },
      fresh: { type: 'boolean', default: false },
      lease: { type: 'string' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      'https-host': { type: 'string' },
      'accept-service': { type: 'string', multiple: true },
      'https-secret': { type: 'string' },
      // With --source stdin: do not copy the lines that are not decision lines to stdout.
      'no-echo': { type: 'boolean', default: false },
      'in-thread': { type: 'boolean', default: false },
    },
  });
}
type Values = ReturnType<typeof parseOptions>['values'];
type Log = (message: string) => void;

export async function main(argv: readonly string[], options: { guard?: boolean } = {}): Promise<number> {
  const { values } = parseOptions(argv);
  const log: Log = (message) => console.error(`[control] ${message}`);
  if (options.guard === true) guardLaunchers();
  const spec = values.source!;
  // Nothing piped in: say what the controller reads, rather than wait on the terminal for it.
  if (spec === 'stdin' && process.stdin.isTTY) throw new UsageError(NO_SOURCE);
  if (values.service === undefined && (values['store-id'] !== undefined || values['dry-run'])) throw new UsageError('--store-id and --dry-run go with --service ID');
  const { budget, readEveryMs } = apiBudget(values, log);
  // Each room's target rides the journal's writes (control/journal-targets.ts): the report puts admissions against it.
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
      ? new Rooms(() => createControlModel({ leadSeconds }), log, restoredModels(restore, (_id, saved) => createControlModel({ leadSeconds, restore: saved as ModelSaved })))
      : await WorkerRooms.start({ modelOptions: { leadSeconds }, restore, log }),
  );
  const controller = new Controller({ rooms, store, writer, sourceName: spec, lagLimitMs: positive('lag-limit', values['lag-limit'], 60) * 1000, log, failover });
  const source = await openSource(spec, values, (text) => controller.line(text, Date.now()), budget, journal, failover.resuming, log);
  const dashboard = await openDashboard(values['dashboard-port']!, controller);
  log(`reading ${source.name}, writing ${store.name}; planning in ${values['in-thread'] ? 'its own thread (--in-thread)' : 'a worker thread'}; dashboard at ${dashboard.url}`);
  const ticking = await runUntilSignal(controller, source, log);
  // The last tick's write and save finish, then the state file is written whatever its clock, and only
  // then are the journal (which the last call reports to) and the planner thread closed.
  await ticking();
  await controller.finalSave(Date.now()).catch((error: unknown) => log(`cannot write the state file at shutdown: ${(error as Error).message}`));
  await journal?.close();
  dashboard.server.close();
  await rooms.close?.();
  // The room keeps the chances written, then the lease's fallback: the last schedule entry holds (docs/control.md).
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

/** One budget of API calls an hour for reads, writes and heartbeats together. */
function apiBudget(values: Values, log: Log): { budget: ApiBudget; readEveryMs: number } {
  if (values['write-budget'] !== undefined) {
    throw new UsageError(`--write-budget is gone: the controller now keeps one budget of API calls an hour for its reads and writes together: --api-budget ${values['write-budget']} (default ${DEFAULT_API_BUDGET})`);
  }
  const perHour = values['api-budget'] === undefined ? DEFAULT_API_BUDGET : Number(values['api-budget']);
  if (!(perHour > 0) || !Number.isFinite(perHour)) throw new UsageError(`--api-budget must be a number of calls an hour above 0, not "${values['api-budget']}"`);
  const readEveryMs = positive('read-every', values['read-every'], DEFAULT_READ_EVERY_MS / 1000) * 1000;
  if (readEveryMs < 1000) throw new UsageError(`--read-every must be at least 1 second, not "${values['read-every']}"`);
  if (3_600_000 / readEveryMs >= perHour) {
    throw new UsageError(`--read-every ${readEveryMs / 1000} reads ${Math.round(3_600_000 / readEveryMs)} times an hour, the whole --api-budget of ${perHour}: read less often or raise the budget`);
  }
  // A local file's reads and writes cost no API call: its budget plans no reads, and it spaces no write.
  const leaseMs = positive('lease', values.lease, DEFAULT_LEASE_SECONDS) * 1000;
  return { budget: new ApiBudget({ perHour, readEveryMs: values.service === undefined ? 0 : readEveryMs, heartbeatEveryMs: leaseMs / 3, log }), readEveryMs };
}

/** The service's Config Store through the API (or the CLI), or the local file; every call counted and journalled. */
function openStore(values: Values, readEveryMs: number, budget: ApiBudget, journal: ReturnType<typeof openJournal> | null, targets: ReturnType<typeof journalTargets>, log: Log) {
  const report = (call: StoreCall): void => {
    const now = Date.now();
    budget.record(call, now);
    journal?.append(call, now);
  };
  const token = process.env.FASTLY_API_TOKEN?.trim() || null;
  const rawStore =
    values.service !== undefined
      ? fastlyStore({ serviceId: values.service, storeId: values['store-id'], dryRun: values['dry-run'], token, endpoint: process.env.FASTLY_API_ENDPOINT, readEveryMs, report, log })
      : localStore(localConfigFile(values.file), report);
  if (values.service !== undefined && token === null) {
    log('FASTLY_API_TOKEN is not set: reading and writing through the Fastly CLI, one API call per key written; export FASTLY_API_TOKEN=... to write every room in one call');
  }
  return { ...rawStore, name: rawStore.name, read: async () => { const data = await rawStore.read(); targets.read(data); return data; } };
}

async function openSource(spec: string, values: Values, onLine: (text: string) => void, budget: ApiBudget, journal: ReturnType<typeof openJournal> | null, resuming: boolean, log: Log): Promise<Source> {
  // The room's banner and errors come down the same pipe as its decision lines: the operator still sees them.
  if (spec === 'stdin') return stdinSource(values['no-echo'] ? onLine : echoOthers(onLine, (text) => process.stdout.write(`${text}\n`)));
  // Resuming: the file's lines written while the controller was down are read too (counted ones skipped).
  if (spec.startsWith('file:')) return fileSource(spec.slice(5), onLine, 250, resuming);
  // Each start of `fastly log-tail` is an API call: held while the budget has none to spare, counted as
  // it goes (its outcome settled on the budget's pending call), journalled once its outcome is known.
  if (spec.startsWith('log-tail:')) return logTailSource(spec.slice(9), onLine, { take: (now) => budget.take(now, 'log-tail'), report: (call) => journal?.append(call, Date.now()) });
  if (spec.startsWith('https:')) return startHttps(spec.slice(6), values, log, onLine);
  throw new UsageError(`--source must be stdin, file:PATH, log-tail:SERVICE or https:PORT, not "${spec}"`);
}

async function openDashboard(portText: string, controller: Controller) {
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--dashboard-port must be a port number, not "${portText}"`);
  return startDashboard(port, () => controller.snapshot(Date.now()), () => controller.requestRead('the dashboard asked')).catch((error: NodeJS.ErrnoException) => {
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
      .catch((error: unknown) => log(`a tick failed (${(error as Error)?.stack ?? String(error)}); going on at the next`))
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
