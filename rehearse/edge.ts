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

const fileOf = (linkName: string): string => `store-${linkName}.json`;

/** The stores and ACLs a version links, as the host's JSON files: file -> text. */
function storeFiles(api: FastlyApi, v: Version): Map<string, string> {
  const files = new Map<string, string>();
  for (const link of v.parts.links) {
    if (link.resource_type === 'acl')
      files.set(fileOf(link.name), JSON.stringify({ entries: api.acls.entries(link.resource_id) }));
    if (link.resource_type === 'config') {
      files.set(fileOf(link.name), JSON.stringify(api.store(link.resource_id)));
    } else if (link.resource_type === 'secret-store') {
      const names = Object.keys(api.secrets.names(link.resource_id));
      const values = names.map((n) => [n, api.secrets.value(link.resource_id, n).toString('utf8')]);
      files.set(fileOf(link.name), JSON.stringify(Object.fromEntries(values)));
    }
  }
  return files;
}

function manifest(v: Version, origin: string): Record<string, unknown> {
  const stores = (type: string) =>
    Object.fromEntries(
      v.parts.links
        .filter((l) => l.resource_type === type)
        .map((l) => [l.name, { format: 'json', file: fileOf(l.name) }]),
    );
  const backends = Object.fromEntries([...v.parts.backends.keys()].map((name) => [name, { url: origin }]));
  const acls = Object.fromEntries(
    v.parts.links.filter((l) => l.resource_type === 'acl').map((l) => [l.name, fileOf(l.name)]),
  );
  return {
    name: 'rehearsal-edge',
    local_server: { backends, config_stores: stores('config'), secret_stores: stores('secret-store'), acls },
  };
}

/** `ca`: the certificate an HTTPS log receiver serves, trusted as Fastly trusts a public one. */
export async function startEdge(api: FastlyApi, serviceId: string, origin: string, ca?: string): Promise<Edge> {
  const dir = await mkdtemp(join(tmpdir(), 'wr-rehearsal-edge-'));
  let running: Running | null = null;
  let delivery: LogDelivery | null = null;
  let stdout = 0;
  const endpoints: Record<string, number> = {};

  const active = (): Version => {
    const v = api.services.byId.get(serviceId)?.versions.find((x) => x.active);
    if (v === undefined || v.parts.pkg === null)
      throw new Error(`service ${serviceId} has no active version with a package`);
    return v;
  };

  async function launch(v: Version): Promise<Running> {
    const wasm = join(dir, `v${v.number}.wasm`);
    await writeFile(wasm, v.parts.pkg!.wasm);
    const files = storeFiles(api, v);
    const host = await startHost({ wasm, manifest: manifest(v, origin), files: Object.fromEntries(files) });
    return { host, version: v.number, written: files, seen: 0 };
  }

  /** The room's new output lines, passed where Fastly would send them. */
  function passLogs(r: Running, v: Version): void {
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
      endpoints[name] = (endpoints[name] ?? 0) + 1;
      delivery?.push(name, message, v.parts.loggers.get(name));
    }
    stdout += toTail.length;
    if (toTail.length > 0) api.logs.push(serviceId, toTail);
  }

  const sync = async (): Promise<void> => {
    const v = active();
    if (running === null || running.version !== v.number) {
      await running?.host.stop();
      running = await launch(v);
      return;
    }
    for (const [file, text] of storeFiles(api, v)) {
      if (running.written.get(file) === text) continue;
      const host = running.host;
      const reloads = () => host.logs().filter((l) => l.startsWith(RELOADED) && l.endsWith(`/${file}`)).length;
      const before = reloads();
      await host.writeFile(file, text);
      running.written.set(file, text);
      // The host reloads a changed store file within about a second: wait for it, so the next request sees it.
      for (let i = 0; i < 100 && reloads() === before; i++) await new Promise((done) => setTimeout(done, 50));
    }
  };

  await sync();
  delivery = deliverHttpsLogs(serviceId, ca);
  const pump = setInterval(() => {
    if (running !== null) passLogs(running, active());
  }, 100);
  const url = (): string => (running as Running | null)?.host.url ?? '';
  return {
    get url() {
      return url();
    },
    version: () => (running as Running | null)?.version ?? 0,
    sync,
    tail: (n = 20) => {
      const h = (running as Running | null)?.host;
      return h === undefined ? [] : [...h.logs().slice(-n), ...h.errors().slice(-n)];
    },
    lines: () => ({ stdout, endpoints: { ...endpoints }, batches: delivery!.counts() }),
    async stop() {
      clearInterval(pump);
      await delivery?.stop();
      await (running as Running | null)?.host.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
