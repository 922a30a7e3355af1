// Command line compatible with Viceroy's, so `fastly compute serve --viceroy-path` can drive it:
//   compute-host [-v] [-C fastly.toml] [--addr 127.0.0.1:7676] bin/main.wasm
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { ConfigError, currentVersion, loadLocalServer, type LocalServer } from './config.js';
import { compileGuest, type CompiledGuest } from './compile-guest.js';
import { DEFAULT_MAX_MEMORY } from './memory-rewrite.js';
import { ComputeHost } from './server.js';
import { UsageError } from '../../lib/cli.js';

export const HOST_VERSION = '0.1.0';

const USAGE = `compute-host ${HOST_VERSION}: runs a Fastly Compute Wasm module locally (a Viceroy stand-in)

Usage: compute-host [options] <module.wasm>

Options:
  -C, --config <file>          fastly.toml whose [local_server] is read (stores, backends)
      --addr <host:port>       address to listen on (default 127.0.0.1:7676)
  -v, --verbose                one log line per request: method, path, status, ms
  -vv                          also, per request, what it used of the per-execution limits:
                               usage: GET /path config_lookups=7 backend_requests=1 cpu_ms=4.8
      --workers <n>            guest worker threads kept ready (default ${defaultWorkers()})
      --max-workers <n>        the pool grows to this while guests wait on slow backends (default 4 x --workers)
      --request-timeout <s>    seconds a guest may run before its request gets a 504 (default 60)
      --max-memory-mib <n>     cap on a guest's linear memory (default 128, as Viceroy)
  -V, --version                print the version
  -h, --help                   this help
`;

function defaultWorkers(): number {
  // Guests spend most of their time blocked on I/O, so more workers than cores pays off.
  return Math.max(4, availableParallelism() * 4);
}

interface Args {
  wasm: string;
  config?: string;
  addr: string;
  verbose: boolean;
  usage: boolean;
  workers: number;
  maxWorkers: number;
  requestTimeoutMs: number;
  maxMemory: number;
}

function positiveInt(flag: string, value: string | undefined): number {
  const n = Number(value);
  if (value === undefined || !Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} expects a positive integer`);
  return n;
}

function parseArgs(argv: string[]): Args | 'version' | 'help' {
  const args: Partial<Args> & { verbose: boolean; usage: boolean } = { verbose: false, usage: false };
  const rest = [...argv];
  if (rest[0] === 'serve' || rest[0] === 'run') rest.shift();
  while (rest.length > 0) {
    const raw = rest.shift()!;
    const eq = raw.startsWith('--') ? raw.indexOf('=') : -1;
    const flag = eq > 0 ? raw.slice(0, eq) : raw;
    const value = () => (eq > 0 ? raw.slice(eq + 1) : rest.shift());
    switch (flag) {
      case '-V':
      case '--version':
        return 'version';
      case '-h':
      case '--help':
        return 'help';
      case '-v':
      case '--verbose':
        args.verbose = true;
        break;
      // The Fastly CLI runs the host with -v; the usage lines (a third of a request's log) only when asked.
      case '-vv':
      case '-vvv':
        args.verbose = true;
        args.usage = true;
        break;
      case '-C':
      case '--config': {
        const v = value();
        if (!v) throw new UsageError(`${flag} expects a file`);
        args.config = v;
        break;
      }
      case '--addr': {
        const v = value();
        if (!v) throw new UsageError('--addr expects host:port');
        args.addr = v;
        break;
      }
      case '--workers':
        args.workers = positiveInt(flag, value());
        break;
      case '--max-workers':
        args.maxWorkers = positiveInt(flag, value());
        break;
      case '--request-timeout':
        args.requestTimeoutMs = positiveInt(flag, value()) * 1000;
        break;
      case '--max-memory-mib':
        args.maxMemory = positiveInt(flag, value()) * 1024 * 1024;
        break;
      // Viceroy options the Fastly CLI may pass that have no meaning here.
      case '--debug':
      case '--log-stdout':
      case '--log-stderr':
        break;
      case '--profile':
      case '--local-pushpin-proxy-port':
        if (eq < 0) rest.shift();
        break;
      default:
        if (flag.startsWith('-')) throw new UsageError(`unknown option ${flag}`);
        if (args.wasm) throw new UsageError(`unexpected argument ${raw}`);
        args.wasm = raw;
    }
  }
  if (!args.wasm) throw new UsageError('missing the path of the Wasm module');
  const workers = args.workers ?? defaultWorkers();
  return {
    wasm: args.wasm,
    ...(args.config === undefined ? {} : { config: args.config }),
    addr: args.addr ?? '127.0.0.1:7676',
    verbose: args.verbose,
    usage: args.usage,
    workers,
    maxWorkers: Math.max(args.maxWorkers ?? 4 * workers, workers),
    requestTimeoutMs: args.requestTimeoutMs ?? 60_000,
    maxMemory: args.maxMemory ?? DEFAULT_MAX_MEMORY,
  };
}

function splitAddr(addr: string): { host: string; port: number } {
  const m = /^\[?([^\]]*?)\]?:(\d+)$/.exec(addr);
  const port = Number(m?.[2]);
  if (!m || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--addr expects host:port, got ${JSON.stringify(addr)}`);
  }
  return { host: m[1] || '127.0.0.1', port };
}

function emptyConfig(): LocalServer {
  return {
    workerManifest: {
      backends: {},
      configStores: {},
      secretStores: {},
      geolocation: { useDefaultLoopback: true, addresses: {} },
      deviceDetection: {},
      acls: {},
    },
    kvStores: {},
    files: [],
    versions: new Map(),
  };
}

async function main(): Promise<number> {
  const command = readCommandLine(process.argv.slice(2));
  if (typeof command === 'number') return command;
  const { args, listenOn } = command;
  const { host, port } = listenOn;

  let config: LocalServer;
  try {
    config = args.config ? loadLocalServer(args.config) : emptyConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`compute-host: invalid configuration: ${err.message}\n`);
    return 1;
  }

  let compiled: CompiledGuest;
  const wasmPath = resolve(args.wasm);
  try {
    compiled = await compileGuest(new Uint8Array(readFileSync(wasmPath)), args.maxMemory);
  } catch (err) {
    process.stderr.write(`compute-host: cannot load ${wasmPath}: ${(err as Error).message}\n`);
    return 1;
  }

  const computeHost = new ComputeHost({
    module: compiled.module,
    memory: compiled.memory,
    workerUrl: new URL('./worker.js', import.meta.url),
    workers: args.workers,
    maxWorkers: args.maxWorkers,
    requestTimeoutMs: args.requestTimeoutMs,
    verbose: args.verbose,
    usage: args.usage,
    config,
  });

  let address;
  try {
    address = await computeHost.listen(host, port);
  } catch (err) {
    process.stderr.write(`compute-host: cannot listen on ${args.addr}: ${(err as Error).message}\n`);
    await computeHost.close();
    return 1;
  }
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  process.stdout.write(`Listening on http://${shown}:${address.port}\n`);

  const poll = pollStoreFiles(args.config, config, computeHost);
  await new Promise<void>((resolveStop) => {
    const stop = () => resolveStop();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  clearInterval(poll);
  await computeHost.close();
  return 0;
}

/** The options and the address to listen on; or the exit code once --version, --help or a usage error is answered. */
function readCommandLine(argv: string[]): { args: Args; listenOn: { host: string; port: number } } | number {
  let args: ReturnType<typeof parseArgs>;
  let listenOn = { host: '127.0.0.1', port: 7676 };
  try {
    args = parseArgs(argv);
    if (typeof args !== 'string') listenOn = splitAddr(args.addr);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`compute-host: ${err.message}\n\n${USAGE}`);
    return 2;
  }
  if (args === 'version') {
    process.stdout.write(`compute-host ${HOST_VERSION}\n`);
    return 0;
  }
  if (args === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  return { args, listenOn };
}

/**
 * Store files are polled rather than fs.watch-ed: editors replace files by renaming, which a
 * watch on the old inode would miss. Each poll compares a file with the version the running
 * settings were read from (taken before reading), not with the previous poll: a file rewritten
 * between start-up and the first poll must still be seen.
 */
function pollStoreFiles(configPath: string | undefined, config: LocalServer, computeHost: ComputeHost): NodeJS.Timeout {
  let loaded = config;
  let failed = new Map<string, string>();
  return setInterval(() => {
    if (!configPath) return;
    for (const f of loaded.files) {
      const now = currentVersion(f);
      if (now === loaded.versions.get(f) || now === failed.get(f)) continue;
      try {
        const next = loadLocalServer(configPath);
        computeHost.reload(next);
        loaded = next;
        failed = new Map();
        process.stdout.write(`compute-host: reloaded [local_server] after a change to ${f}\n`);
      } catch (err) {
        // Said once per broken version: the next edit of the file is tried again.
        failed.set(f, now);
        process.stderr.write(
          `compute-host: ${f} changed, but keeping the previous settings: ${(err as Error).message}\n`,
        );
      }
      return;
    }
  }, 200);
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`compute-host: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
