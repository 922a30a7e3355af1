// `npm run control`: holds the origin to new_users_per_minute (and total_active_users) by reading the
// room's decision lines and publishing each window's chance (docs/control.md).
//
//   npm start | npm run control -- --source stdin            the local room's output, piped in
//   npm run control -- --source file:room.log                a file the decision lines are written to
//   npm run control -- --source log-tail:SERVICE --service SERVICE    on Fastly (log_endpoint = stdout)
//   ... --file PATH                   the local config store file (default: fastly.toml's, as tune)
//   ... --service ID [--store-id ID]  write to the service's Config Store instead, through the Fastly CLI
//   ... --dry-run                     with --service: print the writes instead of making them
//   ... --dashboard-port N            the dashboard on 127.0.0.1 (default 7373; 0 picks a free port)
//   ... --lag-limit S                 hold when the newest line is older than S seconds (default 60)
//   ... --min-write-interval S        at least S seconds between writes (default 20)
//   ... --lead S                      fix a window's chance S seconds before it opens (default 25;
//                                     at least the slowest POP's delay in seeing a new setting)
import { parseArgs } from 'node:util';
import { isMain } from '../scripts/lib/main.js';
import { configFile } from '../scripts/lib/paths.js';
import { Controller } from './controller.js';
import { startDashboard } from './dashboard/server.js';
import { createControlModel } from './model/index.js';
import { fileSource, logTailSource, stdinSource, type Source } from './sources.js';
import { fastlyStore, localStore, Writer } from './writer.js';

export class UsageError extends Error {
  override name = 'UsageError';
}

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!(n >= 0) || !Number.isFinite(n)) throw new UsageError(`--${name} must be a number of seconds, not "${value}"`);
  return n;
}

export async function main(argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({
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
      lead: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log('usage: npm run control -- [--source stdin|file:PATH|log-tail:SERVICE] [--file PATH | --service ID [--store-id ID] [--dry-run]] [--dashboard-port N] [--lag-limit S] [--min-write-interval S] [--lead S]');
    return 0;
  }
  const log = (message: string): void => console.error(`[control] ${message}`);
  const store = values.service !== undefined ? fastlyStore(values.service, values['store-id'], values['dry-run']) : localStore(configFile(values.file));
  if (values.service === undefined && (values['store-id'] !== undefined || values['dry-run'])) throw new UsageError('--store-id and --dry-run go with --service ID');
  const writer = new Writer(store, positive('min-write-interval', values['min-write-interval'], 20) * 1000, log);
  const model = createControlModel({ leadSeconds: positive('lead', values.lead, 25) });
  const spec = values.source!;
  const controller = new Controller({ model, store, writer, sourceName: spec, lagLimitMs: positive('lag-limit', values['lag-limit'], 60) * 1000, log });
  const onLine = (text: string): void => controller.line(text, Date.now());
  let source: Source;
  if (spec === 'stdin') source = stdinSource(onLine);
  else if (spec.startsWith('file:')) source = fileSource(spec.slice(5), onLine);
  else if (spec.startsWith('log-tail:')) source = logTailSource(spec.slice(9), onLine);
  else throw new UsageError(`--source must be stdin, file:PATH or log-tail:SERVICE, not "${spec}"`);
  const port = Number(values['dashboard-port']);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--dashboard-port must be a port number, not "${values['dashboard-port']}"`);
  const dashboard = await startDashboard(port, () => controller.snapshot(Date.now()));
  log(`reading ${source.name}, writing ${store.name}; dashboard at ${dashboard.url}`);
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    controller.source(source.error, source.dead);
    controller.tick(Date.now()).finally(() => (busy = false));
  }, 1000);
  await new Promise<void>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve());
  });
  clearInterval(timer);
  source.stop();
  dashboard.server.close();
  // The room keeps the last chances written: the last schedule entry holds (docs/control.md).
  log('stopped; the room keeps the last chance written');
  return 0;
}

if (isMain(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`control: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(2);
    },
  );
}
