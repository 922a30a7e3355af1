import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, hostBin, HostExitedError, manifestText, runHostCommand, startHost } from '../../lib/host-process.js';
import { hostFixture, repoRoot } from '../../lib/paths.js';
import { buildWasm } from '../../lib/wasm-build.js';

describe('command line', () => {
  it('prints its name and version with --version', async () => {
    const { code, stdout } = await runHostCommand(['--version']);
    expect(code).toBe(0);
    expect(stdout.trim()).toMatch(/^compute-host \d+\.\d+\.\d+/);
  });

  it.each([
    ['a backend url of the wrong type', { backends: { origin: { url: 42 } } }, 'local_server.backends.origin.url'],
    [
      'a backend url with an unsupported scheme',
      { backends: { origin: { url: 'ftp://x' } } },
      'local_server.backends.origin.url',
    ],
    [
      'an unknown config store format',
      { config_stores: { settings: { format: 'yaml', contents: {} } } },
      'local_server.config_stores.settings.format',
    ],
    [
      'a secret without data or file',
      { secret_stores: { secrets: [{ key: 'k' }] } },
      'local_server.secret_stores.secrets',
    ],
    // Fastly (and Viceroy) refuse config store values over 8,000 characters; a page template that
    // long must fail locally too, not first on upload.
    [
      'a config store value over 8,000 characters',
      { config_stores: { pages: { format: 'inline-toml', contents: { startwaiting: 'x'.repeat(8001) } } } },
      'local_server.config_stores.pages.contents.startwaiting',
    ],
    [
      'a missing store file',
      { config_stores: { settings: { format: 'json', file: 'absent.json' } } },
      'local_server.config_stores.settings',
    ],
    [
      'an unknown device detection format',
      { device_detection: { format: 'yaml' } },
      'local_server.device_detection.format',
    ],
    [
      'a device entry that is not a table',
      { device_detection: { format: 'inline-toml', user_agents: { 'UA/1': 'phone' } } },
      'local_server.device_detection.user_agents.UA/1',
    ],
  ])('refuses to start on %s, naming the key', async (_name, local_server, key) => {
    const start = startHost({ wasm: await buildWasm(hostFixture('hello.js')), manifest: { local_server } });
    const error = await start.then(
      async (host) => {
        await host.stop();
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HostExitedError);
    const exited = error as HostExitedError;
    expect(exited.code).not.toBe(0);
    expect(exited.stderr.join('\n')).toContain(key);
  });
});

describe('running', () => {
  it('prints one line per request with -v (no usage line: that is -vv) and exits with 0 on SIGTERM', async () => {
    const host = await startHost({ wasm: await buildWasm(hostFixture('hello.js')), verbose: true });
    let code: number | null = null;
    try {
      expect((await fetch(`${host.url}/verbose-probe?x=1`)).status).toBe(200);
      expect(await host.waitForLog(/^GET \/verbose-probe/)).toMatch(/^GET \/verbose-probe\?x=1 200\b/);
      // The usage line, when asked for, comes before the request's own line.
      expect(host.logs().filter((l) => l.startsWith('usage:'))).toEqual([]);
    } finally {
      code = await host.stop();
    }
    expect(code).toBe(0);
  });

  it('adds what each request used of the per-execution limits with -vv', async () => {
    const host = await startHost({ wasm: await buildWasm(hostFixture('hello.js')), verbose: 'usage' });
    try {
      expect((await fetch(`${host.url}/usage-probe`)).status).toBe(200);
      expect(await host.waitForLog(/^usage: GET \/usage-probe /)).toMatch(
        / config_lookups=0 backend_requests=0 cpu_ms=/,
      );
    } finally {
      await host.stop();
    }
  });
});

describe('driven by the Fastly CLI', () => {
  let project: string | undefined;
  let cli: ServeProcess | undefined;

  afterEach(async () => {
    await cli?.stop();
    if (project) await rm(project, { recursive: true, force: true });
  });

  interface ServeProcess {
    port: number;
    output(): string;
    /** Resolves with the exit code once the CLI has ended by itself. */
    exited: Promise<number | null>;
    stop(): Promise<void>;
  }

  /** A project directory with bin/main.wasm, fastly.toml and store files, served by the CLI. */
  async function serve(
    app: string,
    manifest: Record<string, unknown>,
    files: Record<string, string>,
  ): Promise<ServeProcess> {
    project = await mkdtemp(path.join(tmpdir(), 'wr-cli-'));
    await mkdir(path.join(project, 'bin'));
    await copyFile(await buildWasm(hostFixture(app)), path.join(project, 'bin', 'main.wasm'));
    await writeFile(path.join(project, 'fastly.toml'), manifestText({ name: 'cli-serve-test', ...manifest }));
    for (const [name, content] of Object.entries(files)) await writeFile(path.join(project, name), content);
    const port = await freePort();
    // The CLI needs no network here: with --viceroy-path it neither downloads nor version-checks
    // Viceroy, and --skip-build uses the existing bin/main.wasm. It then starts
    // `<host> -v -C <abs fastly.toml> --addr <addr> ./bin/main.wasm` from the project directory.
    const child = spawn(
      path.join(repoRoot, 'node_modules', '.bin', 'fastly'),
      ['compute', 'serve', '--viceroy-path', hostBin, '--skip-build', '--addr', `127.0.0.1:${port}`],
      // Its own process group: the npm shim, the Go binary and the host it starts end together.
      { cwd: project, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    let ended = false;
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => {
        ended = true;
        resolve(code);
      }),
    );
    const signal = (name: NodeJS.Signals): void => {
      try {
        process.kill(-child.pid!, name);
      } catch {
        // already gone
      }
    };
    return {
      port,
      output: () => output,
      exited,
      async stop() {
        if (ended) return;
        signal('SIGTERM');
        const forced = setTimeout(() => signal('SIGKILL'), 5_000);
        await exited;
        clearTimeout(forced);
      },
    };
  }

  it('serves the app and its [local_server] stores through `fastly compute serve --viceroy-path`', async () => {
    // The store forms the waiting room's own fastly.toml uses: the CLI parses the manifest before it
    // starts the host, so these forms must pass its validation as well as the host's.
    cli = await serve(
      'stores.js',
      {
        local_server: {
          backends: { origin: { url: 'http://127.0.0.1:9' } },
          config_stores: { waiting_room_config: { format: 'json', file: 'config.json' } },
          secret_stores: { waiting_room_keys: { format: 'json', file: 'keys.json' } },
        },
      },
      { 'config.json': JSON.stringify({ allow_percentage: '25' }), 'keys.json': JSON.stringify({ key1: 'c2VjcmV0' }) },
    );
    const base = `http://127.0.0.1:${cli.port}`;
    let res: Response | undefined;
    const deadline = Date.now() + 30_000;
    while (!res && Date.now() < deadline) {
      res = await fetch(`${base}/config?store=waiting_room_config&key=allow_percentage`).catch(() => undefined);
      if (!res) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(res, `no answer from the CLI-driven host; CLI output:\n${cli.output()}`).toBeDefined();
    expect(res!.status).toBe(200);
    expect(await res!.json()).toEqual({ value: '25' });
    const secret = await fetch(`${base}/secret?store=waiting_room_keys&key=key1`);
    expect(await secret.json()).toEqual({ value: 'c2VjcmV0' });
  });

  it("ends with the host's start-up error, naming the key, when [local_server] is malformed", async () => {
    cli = await serve('hello.js', { local_server: { backends: { origin: { url: 'ftp://origin.test' } } } }, {});
    let timer: NodeJS.Timeout | undefined;
    const stillRunning = new Promise<'running'>((resolve) => (timer = setTimeout(() => resolve('running'), 30_000)));
    const code = await Promise.race([cli.exited, stillRunning]);
    clearTimeout(timer);
    expect(code, cli.output()).not.toBe('running');
    expect(code).not.toBe(0);
    expect(cli.output()).toContain('local_server.backends.origin.url');
  });
});
