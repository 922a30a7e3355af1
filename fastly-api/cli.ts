// `npm run fastly-api`: the local stand-in of Fastly's API on its own, for an operator to try the
// project's `--service` commands through the real Fastly CLI without a Fastly account.
//
//   npm run fastly-api -- --seed-from local/config.json       service SVC whose waiting_room_config holds that file's items
//   npm run fastly-api -- --empty                              no service: publish one into it (docs/production.md)
//   npm run fastly-api -- --port 8111 --calls-per-hour 100    a tighter rate limit, to see 429s
//   npm run fastly-api -- --fault "PATCH /resources/stores/config/*/items 400"    every bulk write refused
//
// It prints the environment to export in another shell (endpoints, token, a scratch HOME), then
// one line per call it answers; Ctrl-C stops it with a count of the calls by endpoint.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { isMain, runTool, UsageError } from '../lib/cli.js';
import { fastlyEnvVars } from '../lib/fastly-env.js';
import { shellQuote } from '../lib/fastly-cli.js';
import { FAULT_USAGE, parseFault, type Fault } from './faults.js';
import { DEFAULT_CALLS_PER_HOUR } from './rate-limit.js';
import { roomSettings, signingKeys } from '../lib/room-store.js';
import { CONTROLLER_KEY } from '../src/core/settings/index.js';
import { seedService } from './seed.js';
import { startFastlyApi, type ApiCall, type FastlyApi } from './server.js';

export const USAGE = `usage: npm run fastly-api -- [--port N] [--service ID | --empty] [--seed-from FILE] [--calls-per-hour N] [--free-reads] [--fault SPEC]... [--home DIR] [--quiet]
  --port N            listen on 127.0.0.1:N (default: a free port)
  --service ID        the service id the stand-in holds (default SVC), linking waiting_room_config,
                      waiting_room_pages (Config Stores) and waiting_room_keys (a Secret Store, holding
                      a key for each active_key the settings name)
  --empty             no service and no stores: \`npx fastly compute publish\` creates them, as on a new account
  --seed-from FILE    waiting_room_config's items from a store file (e.g. local/config.json); a local
                      controller's heartbeat (key ${CONTROLLER_KEY}) is left out
  --calls-per-hour N  the rate limit per token (default ${DEFAULT_CALLS_PER_HOUR}); a call past it is a 429
  --free-reads        GET and HEAD do not spend it (as Fastly documents); by default every call does
  ${FAULT_USAGE}
  --home DIR          the HOME the exported environment gives the Fastly CLI (default: a new temporary one)
  --quiet             no line per call`;

/** `export NAME='value'` lines for a POSIX shell. */
export const exportLines = (vars: Record<string, string>): string[] =>
  Object.entries(vars).map(([k, v]) => `export ${k}=${v === '' ? "''" : shellQuote(v)}`);

/** The calls by endpoint and status, most first: `12  PUT /resources/stores/config/ID/item/KEY 200`. */
export function callSummary(calls: readonly ApiCall[]): string[] {
  const counts = new Map<string, number>();
  for (const c of calls) {
    const shape = `${c.method} ${c.path.replace(/\/item\/[^/]+$/, '/item/KEY').replace(/\/secrets\/[^/]+$/, '/secrets/NAME')} ${c.status}`;
    counts.set(shape, (counts.get(shape) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]).map(([shape, n]) => `${String(n).padStart(5)}  ${shape}`);
}

async function seedFrom(file: string): Promise<Record<string, string>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(
      `cannot read --seed-from ${file}: ${(error as Error).message} (npm start makes local/config.json from local/config.example.json)`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error(`--seed-from ${file} is not JSON: it must be a store file, {"key": "string value", ...}`);
  }
  if (
    typeof data !== 'object' ||
    data === null ||
    Array.isArray(data) ||
    Object.values(data).some((v) => typeof v !== 'string')
  ) {
    throw new Error(`--seed-from ${file} must be a store file: one JSON object whose values are all strings`);
  }
  // A local controller's heartbeat is no state of the service: copied, it would make a controller
  // started against the stand-in wait for one that never writes there.
  const { [CONTROLLER_KEY]: _heartbeat, ...items } = data as Record<string, string>;
  return items;
}

/** The key ids a published service would hold: the service-wide active_key and every room's. */
function seededKeys(config: Record<string, string>): string[] {
  return [...new Set([roomSettings(config, null).config.activeKey, ...signingKeys(config).keys()])].sort();
}

export interface RunOptions {
  /** Stops the stand-in (default: SIGINT or SIGTERM). */
  signal?: AbortSignal;
  print?: (line: string) => void;
}

/** What the stand-in holds, the environment to export for the Fastly CLI, and the first command to try. */
function announce(
  api: FastlyApi,
  o: { empty: boolean; service: string; home?: string; fault?: string[]; config: Record<string, string> },
  print: (line: string) => void,
): void {
  const vars = fastlyEnvVars({ url: api.url, home: o.home });
  if (o.empty) {
    print(`Fastly API stand-in on ${api.url}: no service yet; ${api.rateLimit.callsPerHour} calls an hour`);
  } else {
    const keys = seededKeys(o.config);
    const ids = seedService(api, { serviceId: o.service, config: o.config, secrets: keys });
    print(
      `Fastly API stand-in on ${api.url}: service ${ids.serviceId}, waiting_room_config ${ids.configStoreId} (${Object.keys(o.config).length} items), ` +
        `waiting_room_pages ${ids.pageStoreId}, waiting_room_keys ${ids.secretStoreId} (${keys.join(', ')}); ` +
        `${api.rateLimit.callsPerHour} calls an hour`,
    );
  }
  for (const spec of o.fault ?? []) print(`fault in force: ${spec.trim()}`);
  print('In another shell, point the Fastly CLI at it, then use the tools as on a real service:');
  for (const line of exportLines(vars)) print(`  ${line}`);
  print(
    o.empty
      ? '  npx fastly compute publish --non-interactive   # then: npm run keys -- add key1 --fastly-service SERVICE_ID'
      : `  npm run tune -- --service ${o.service} --show`,
  );
}

export async function main(argv: readonly string[], run: RunOptions = {}): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      port: { type: 'string' },
      service: { type: 'string', default: 'SVC' },
      empty: { type: 'boolean', default: false },
      'seed-from': { type: 'string' },
      'calls-per-hour': { type: 'string' },
      'free-reads': { type: 'boolean', default: false },
      fault: { type: 'string', multiple: true },
      home: { type: 'string' },
      quiet: { type: 'boolean', default: false },
    },
  });
  const print = run.print ?? ((line: string) => console.log(line));
  const whole = (name: string, text: string | undefined): number | undefined => {
    if (text === undefined) return undefined;
    const n = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(n))
      throw new UsageError(`--${name} must be a whole number, not "${text}"`);
    return n;
  };
  const port = whole('port', values.port);
  const faults: Fault[] = (values.fault ?? []).map((spec) => {
    try {
      return parseFault(spec);
    } catch (error) {
      throw new UsageError(`--fault ${(error as Error).message}`);
    }
  });
  if (
    values.empty &&
    (values['seed-from'] !== undefined || argv.some((a) => a === '--service' || a.startsWith('--service=')))
  ) {
    throw new UsageError('--empty holds no service: --service and --seed-from have nothing to name or fill');
  }
  const config = values['seed-from'] === undefined ? {} : await seedFrom(values['seed-from']);
  const api = await startFastlyApi({
    port,
    callsPerHour: whole('calls-per-hour', values['calls-per-hour']),
    reads: values['free-reads'] ? 'free' : 'counted',
    faults,
    onCall: values.quiet
      ? undefined
      : (c) =>
          print(
            `${new Date(c.at).toISOString()} ${c.method} ${c.path}${c.query} ${c.status === 0 ? '(client went away)' : c.status}`,
          ),
  });
  announce(api, { ...values, config }, print);
  print('Ctrl-C stops it.');
  await new Promise<void>((resolve) => {
    if (run.signal !== undefined) {
      if (run.signal.aborted) resolve();
      run.signal.addEventListener('abort', () => resolve(), { once: true });
    } else {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    }
  });
  await api.stop();
  print(`${api.calls.length} calls:`);
  for (const line of callSummary(api.calls)) print(line);
  return 0;
}

if (isMain(import.meta.url)) runTool('npm run fastly-api', USAGE, main);
