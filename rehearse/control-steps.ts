// The controller on the published service, both ways it can read the room: `fastly log-tail` (the
// room logging to stdout), then, restarted from its state file, as the HTTPS log endpoint Fastly posts
// to (an endpoint created on a new version with the Fastly CLI, the version activated, the room told
// its name). A small crowd visits the room meanwhile; each run ends when the controller has written
// the room's schedule and its heartbeat, and it is stopped as an operator stops it.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { selfSignedCertificate } from '../lib/certificate.js';
import { freePort } from '../lib/host-process.js';
import { repoRoot } from '../lib/paths.js';
import { expectThat, fastly, idOf, npmRun, patchesMade, step, type Rehearsal } from './context.js';
import { startEdge } from './edge.js';

const LOG_ENDPOINT = 'waiting_room_log';

interface Controller {
  child: ChildProcess;
  err(): string;
  exited: Promise<number | null>;
}

function startController(r: Rehearsal, args: readonly string[]): Controller {
  const state = ['--state', join(r.dir, 'control-state.json'), '--journal', join(r.dir, 'journal.jsonl')];
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'control/cli.ts', ...args, ...state, '--dashboard-port', '0'],
    {
      cwd: repoRoot,
      env: r.env,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  r.children.add(child);
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, err: () => err, exited };
}

/** New visitors, a few a second, until stopped: the decision lines the controller learns from. */
function crowd(r: Rehearsal): () => void {
  const timer = setInterval(() => {
    void fetch(`${r.edge!.url}/`, { headers: { accept: 'text/html' } })
      .then((res) => res.arrayBuffer())
      .catch(() => undefined);
  }, 150);
  return () => clearInterval(timer);
}

/** Waits until the controller has written room main's schedule after `since` (its count of writes). */
async function untilWritten(
  r: Rehearsal,
  c: Controller,
  since: number,
  fed: () => boolean = () => true,
): Promise<number> {
  const patches = () => patchesMade(r);
  let fedAt = -1;
  for (let i = 0; i < 240; i++) {
    const live = r.api.store(idOf(r, 'CONFIG_ID'))['room.main.live'];
    if (fedAt === -1 && fed()) fedAt = patches();
    if (fedAt !== -1 && patches() > Math.max(since, fedAt) && live !== undefined && /allow_schedule/.test(live))
      return patches();
    if (c.child.exitCode !== null)
      throw new Error(`the controller exited ${c.child.exitCode}: ${c.err().slice(-1500)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const seen = JSON.stringify(r.edge!.lines());
  throw new Error(
    `no write of room.main.live within 60 s (${fed() ? '' : `no line reached it: ${seen}; `}${c.err().slice(-1500)})`,
  );
}

async function stopController(c: Controller): Promise<void> {
  c.child.kill('SIGTERM');
  const code = await c.exited;
  expectThat(code === 0, `the controller exited ${code} on SIGTERM: ${c.err().slice(-1000)}`);
}

async function logTailRun(r: Rehearsal): Promise<void> {
  const svc = r.serviceId;
  await step(r, 'the room logs to stdout', `npm run tune -- --service ${svc} log_endpoint=stdout`, () =>
    npmRun(r, 'tune', ['--service', svc, 'log_endpoint=stdout']),
  );
  const target = ['--room', 'main', 'allow_percentage=50', 'new_users_per_minute=60'];
  await step(r, 'a target for the room', `npm run tune -- --service ${svc} ${target.join(' ')}`, async () => {
    await npmRun(r, 'tune', ['--service', svc, ...target]);
    await r.edge!.sync();
  });
  const args = ['--source', `log-tail:${svc}`, '--service', svc];
  const c = await step(r, 'the controller on log-tail', `npm run control -- ${args.join(' ')}`, async () => {
    const stop = crowd(r);
    const controller = startController(r, args);
    try {
      await untilWritten(r, controller, 0);
    } finally {
      stop();
    }
    return controller;
  });
  await step(r, 'its stop', 'SIGTERM (Ctrl-C)', () => stopController(c));
}

/** The HTTPS log endpoint on a new version, that version activated, and the room told its name. */
async function httpsEndpointSteps(r: Rehearsal, port: number, secret: string): Promise<void> {
  const svc = r.serviceId;
  const create = ['service', 'logging', 'https', 'create', '--service-id', svc, '--version', 'active', '--autoclone'];
  const endpoint = [
    ...['--name', LOG_ENDPOINT, '--url', `https://127.0.0.1:${port}/`, '--message-type', 'blank', '--json-format', '2'],
    ...['--header-name', 'X-Room-Log', '--header-value', secret],
  ];
  await step(
    r,
    'an HTTPS log endpoint',
    `npx fastly ${create.join(' ')} --name ${LOG_ENDPOINT} --url https://CONTROLLER:${port}/ ...`,
    () => fastly(r, [...create, ...endpoint]),
  );
  const activate = ['service', 'version', 'activate', '--service-id', svc, '--version', 'latest'];
  await step(r, 'activate the version holding it', `npx fastly ${activate.join(' ')}`, async () => {
    await fastly(r, activate);
    await r.edge!.sync();
  });
  await step(r, 'the room logs to it', `npm run tune -- --service ${svc} log_endpoint=${LOG_ENDPOINT}`, async () => {
    await npmRun(r, 'tune', ['--service', svc, `log_endpoint=${LOG_ENDPOINT}`]);
    await r.edge!.sync();
  });
}

async function httpsRun(r: Rehearsal): Promise<void> {
  const svc = r.serviceId;
  const cert = await selfSignedCertificate('127.0.0.1');
  await writeFile(join(r.dir, 'cert.pem'), cert.cert);
  await writeFile(join(r.dir, 'key.pem'), cert.key);
  // The room's log lines go to the HTTPS endpoint now; the delivery trusts this receiver's certificate.
  await r.edge!.stop();
  r.edge = await startEdge(r.api, svc, r.origin.url, cert.cert);
  const port = await freePort();
  const secret = 'rehearsal-log-secret-0123456789';
  await httpsEndpointSteps(r, port, secret);
  const tls = ['--tls-cert', join(r.dir, 'cert.pem'), '--tls-key', join(r.dir, 'key.pem')];
  const args = [
    '--source',
    `https:${port}`,
    '--https-host',
    '127.0.0.1',
    '--https-secret',
    `X-Room-Log=${secret}`,
    '--service',
    svc,
  ];
  const before = patchesMade(r);
  const command = `npm run control -- --source https:${port} --tls-cert … --service ${svc} ...`;
  const c = await step(r, 'the controller as its receiver', command, async () => {
    const stop = crowd(r);
    const controller = startController(r, [...args, ...tls]);
    const delivered = () => (r.edge!.lines().batches.delivered[LOG_ENDPOINT] ?? 0) > 0;
    try {
      // a write made after the first batch came: the schedule it learned from the posted lines
      await untilWritten(r, controller, before, delivered);
    } finally {
      stop();
    }
    return controller;
  });
  await step(r, 'its stop', 'SIGTERM (Ctrl-C)', () => stopController(c));
  const journal = (await readFile(join(r.dir, 'journal.jsonl'), 'utf8')).trim().split('\n').length;
  r.print(`  the controllers' journal: ${journal} lines`);
}

export async function controlSteps(r: Rehearsal): Promise<void> {
  await logTailRun(r);
  await httpsRun(r);
}
