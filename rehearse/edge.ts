// The published service as Fastly would run it, on this machine: the active version's own package
// (the bin/main.wasm the stand-in received in the upload) on the local Compute host, reading the stores
// the version links under the names it links them by, with the values the stand-in holds now. Every
// change made through the API (a tune, a key, a page) reaches the host's store files within moments,
// as a Config Store change reaches Fastly's edge in seconds. What the room logs goes where Fastly would
// send it: its stdout to `fastly log-tail`, a named log endpoint's lines to that HTTPS endpoint.
//
// One thing is not the service's: the backend. The version's `origin` backend points where the
// operator said (on a new service, an address no laptop serves), so the rehearsal's origin stands in.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastlyApi } from '../fastly-api/server.js';
import type { Version } from '../fastly-api/services.js';
import { startHost, type RunningHost } from '../lib/host-process.js';
import { edgeManifest, storeFiles } from './edge-files.js';
import { deliverHttpsLogs, type LogDelivery } from './log-delivery.js';

export interface Edge {
  /** The room's address on this machine. */
  url: string;
  /** The active version it runs. */
  version(): number;
  /** Makes the host's stores what the stand-in holds now; restarts it on a newly activated version. */
  sync(): Promise<void>;
  /** Lines the room printed to stdout (log-tail's) and per log endpoint so far, and the HTTPS batches. */
  lines(): { stdout: number; endpoints: Record<string, number>; batches: ReturnType<LogDelivery['counts']> };
  /** The host's last output lines (stdout, then stderr), for a step that failed to say what the room said. */
  tail(n?: number): string[];
  stop(): Promise<void>;
}

interface Running {
  host: RunningHost;
  version: number;
  /** Store file -> the text last written, so an unchanged store is not rewritten. */
  written: Map<string, string>;
  /** Host stdout lines already passed on. */
  seen: number;
}

/** The line the local host prints once it has read a changed store file. */
const RELOADED = 'compute-host: reloaded [local_server] after a change to ';

/** How long a changed store file may take to be read again by the host, ms. */
const RELOAD_WAIT_MS = 5000;

/** The room on the local host for one service, following its active version and its stores. */
class RehearsalEdge implements Edge {
  private running: Running | null = null;
  private stdout = 0;
  private readonly endpoints: Record<string, number> = {};
  private readonly delivery: LogDelivery;
  private pump: ReturnType<typeof setInterval> | null = null;
  /** What went wrong passing the room's lines on, said once by `tail`. */
  private pumpError: string | null = null;

  constructor(
    private readonly api: FastlyApi,
    private readonly serviceId: string,
    private readonly origin: string,
    private readonly dir: string,
    ca: string | undefined,
  ) {
    this.delivery = deliverHttpsLogs(serviceId, ca);
  }

  get url(): string {
    return this.running?.host.url ?? '';
  }

  version(): number {
    return this.running?.version ?? 0;
  }

  private active(): Version {
    const v = this.api.services.byId.get(this.serviceId)?.versions.find((x) => x.active);
    if (v === undefined || v.parts.pkg === null)
      throw new Error(`service ${this.serviceId} has no active version with a package`);
    return v;
  }

  private async launch(v: Version): Promise<Running> {
    const wasm = join(this.dir, `v${v.number}.wasm`);
    await writeFile(wasm, v.parts.pkg!.wasm);
    const files = storeFiles(this.api, v);
    const manifest = edgeManifest(v, this.origin);
    const host = await startHost({ wasm, manifest, files: Object.fromEntries(files) });
    return { host, version: v.number, written: files, seen: 0 };
  }

  /** The room's new output lines, passed where Fastly would send them. */
  private passLogs(r: Running, v: Version): void {
    const all = r.host.logs();
    const fresh = all.slice(r.seen);
    r.seen = all.length;
    const toTail: string[] = [];
    for (const line of fresh) {
      if (line.startsWith('compute-host: ') || line.startsWith('Listening on ')) continue;
      const m = /^([A-Za-z0-9_.-]+) :: (.*)$/.exec(line);
      if (m === null) {
        toTail.push(line);
        continue;
      }
      const [, name, message] = m as unknown as [string, string, string];
      this.endpoints[name] = (this.endpoints[name] ?? 0) + 1;
      this.delivery.push(name, message, v.parts.loggers.get(name));
    }
    this.stdout += toTail.length;
    if (toTail.length > 0) this.api.logs.push(this.serviceId, toTail);
  }

  /** Passes the lines on every 100 ms; a failure is kept for `tail`, never thrown from the timer. */
  startPump(): void {
    this.pump = setInterval(() => {
      try {
        if (this.running !== null) this.passLogs(this.running, this.active());
      } catch (error) {
        this.pumpError ??= (error as Error).message;
      }
    }, 100);
  }

  async sync(): Promise<void> {
    const v = this.active();
    const r = this.running;
    if (r === null || r.version !== v.number) {
      if (r !== null) {
        this.passLogs(r, v);
        await r.host.stop();
      }
      this.running = await this.launch(v);
      return;
    }
    for (const [file, text] of storeFiles(this.api, v))
      if (r.written.get(file) !== text) await this.rewrite(r, file, text);
  }

  /** Rewrites one store file and waits until the host has read it, so the next request sees it. */
  private async rewrite(r: Running, file: string, text: string): Promise<void> {
    const reloads = () => r.host.logs().filter((l) => l.startsWith(RELOADED) && l.endsWith(`/${file}`)).length;
    const before = reloads();
    await r.host.writeFile(file, text);
    r.written.set(file, text);
    for (let waited = 0; reloads() === before; waited += 50) {
      if (waited >= RELOAD_WAIT_MS)
        throw new Error(`the host did not read ${file} again within 5 s: ${r.host.errors().slice(-5).join(' | ')}`);
      await new Promise((done) => setTimeout(done, 50));
    }
  }

  tail(n = 20): string[] {
    const h = this.running?.host;
    const said = this.pumpError === null ? [] : [`(passing the log on failed: ${this.pumpError})`];
    return h === undefined ? said : [...h.logs().slice(-n), ...h.errors().slice(-n), ...said];
  }

  lines(): ReturnType<Edge['lines']> {
    return { stdout: this.stdout, endpoints: { ...this.endpoints }, batches: this.delivery.counts() };
  }

  async stop(): Promise<void> {
    if (this.pump !== null) clearInterval(this.pump);
    const r = this.running;
    if (r !== null) {
      try {
        this.passLogs(r, this.active());
      } catch {
        // the service is gone: nothing to pass on
      }
    }
    await Promise.allSettled([this.delivery.stop(), r?.host.stop()]);
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** `ca`: the certificate an HTTPS log receiver serves, trusted as Fastly trusts a public one. */
export async function startEdge(api: FastlyApi, serviceId: string, origin: string, ca?: string): Promise<Edge> {
  const dir = await mkdtemp(join(tmpdir(), 'wr-rehearsal-edge-'));
  const edge = new RehearsalEdge(api, serviceId, origin, dir, ca);
  try {
    await edge.sync();
  } catch (error) {
    await edge.stop();
    throw error;
  }
  edge.startPump();
  return edge;
}
