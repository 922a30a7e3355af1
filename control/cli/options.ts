// The controller's command line: every option with what it does (its --help), and the checks of
// the values that set its API budget. The examples of a whole command:
//
//   npm start | npm run control -- --source stdin            the local room's output, piped in (its
//                                                            other lines, the banner and errors, are
//                                                            copied to stdout; --no-echo: not)
//   npm run control -- --source file:room.log                a file the decision lines are written to
//   npm run control -- --source log-tail:SERVICE --service SERVICE    on Fastly (log_endpoint = stdout)
//   npm run control -- --source https:8443 --tls-cert C --tls-key K --service SERVICE
//                                                            on Fastly, as its HTTPS log endpoint
import { parseArgs } from 'node:util';
import { UsageError } from '../../lib/cli.js';
import { ApiBudget, DEFAULT_API_BUDGET, DEFAULT_READ_EVERY_MS } from '../store/index.js';
import { DEFAULT_LEASE_SECONDS } from '../failover/index.js';

/** An option given in seconds: a number at least 0, else `fallback` when it is not given. */
export function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!(n >= 0) || !Number.isFinite(n)) throw new UsageError(`--${name} must be a number of seconds, not "${value}"`);
  return n;
}

export const NO_SOURCE = [
  "the controller reads the room's decision lines, and nothing is piped into it (stdin is this terminal). Either:",
  '  npm start -- --control                               the room and the controller together',
  "  npm start | npm run control -- --source stdin        pipe the room's output into it",
  '  npm run control -- --source file:room.log            follow a file the decision lines are written to',
  '  npm run control -- --source log-tail:SERVICE --service SERVICE    a room on Fastly',
].join('\n');

export const USAGE = `usage: npm run control -- [--source stdin [--no-echo]|file:PATH|log-tail:SERVICE|https:PORT [--tls-cert F --tls-key F] [--accept-service ID] [--https-secret NAME=VALUE] [--https-host ADDR]] [--file PATH | --service ID [--store-id ID] [--dry-run]] [--dashboard-port N] [--lag-limit S] [--api-budget CALLS_PER_HOUR] [--read-every S] [--journal FILE] [--min-write-interval S] [--lead S] [--state FILE | --fresh] [--lease S] [--in-thread]
  holds each room's admissions to its new_users_per_minute: reads the room's decision lines, writes
  the chance of each coming window to the settings store (docs/control/)
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

/** The command line as given: a wrong option is a usage error (lib/cli.ts prints the usage). */
export function parseOptions(argv: readonly string[]) {
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
export type Values = ReturnType<typeof parseOptions>['values'];
export type Log = (message: string) => void;

/** One budget of API calls an hour for reads, writes and heartbeats together. */
export function apiBudget(values: Values, log: Log): { budget: ApiBudget; readEveryMs: number } {
  if (values['write-budget'] !== undefined) {
    throw new UsageError(
      `--write-budget is gone: the controller now keeps one budget of API calls an hour for its reads and writes together: --api-budget ${values['write-budget']} (default ${DEFAULT_API_BUDGET})`,
    );
  }
  const perHour = values['api-budget'] === undefined ? DEFAULT_API_BUDGET : Number(values['api-budget']);
  if (!(perHour > 0) || !Number.isFinite(perHour))
    throw new UsageError(`--api-budget must be a number of calls an hour above 0, not "${values['api-budget']}"`);
  const readEveryMs = positive('read-every', values['read-every'], DEFAULT_READ_EVERY_MS / 1000) * 1000;
  if (readEveryMs < 1000) throw new UsageError(`--read-every must be at least 1 second, not "${values['read-every']}"`);
  if (3_600_000 / readEveryMs >= perHour) {
    throw new UsageError(
      `--read-every ${readEveryMs / 1000} reads ${Math.round(3_600_000 / readEveryMs)} times an hour, the whole --api-budget of ${perHour}: read less often or raise the budget`,
    );
  }
  // A local file's reads and writes cost no API call: its budget plans no reads, and it spaces no write.
  const leaseMs = positive('lease', values.lease, DEFAULT_LEASE_SECONDS) * 1000;
  return {
    budget: new ApiBudget({
      perHour,
      readEveryMs: values.service === undefined ? 0 : readEveryMs,
      heartbeatEveryMs: leaseMs / 3,
      log,
    }),
    readEveryMs,
  };
}
