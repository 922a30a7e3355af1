// The fuzz run: the built room on the local host, an origin that records what reaches it, and a
// stream of forged, mutated and stolen tokens, odd cookies, headers and targets, with bad settings
// and keys written live in between. It counts what matters: requests that reached the origin without
// a right to, 5xx answers beyond the documented ones, and whether the host stayed up.
import { mintToken, startRoom, type Room } from '../lib/room-host.js';
import { attack, badKeys, badSettings, seeded, type Material } from './attacks.js';

export interface FuzzOptions {
  durationMs: number;
  /** At most this many requests, whatever the time. */
  maxRequests: number;
  concurrency: number;
  seed: number;
  log?: (line: string) => void;
}

export interface FuzzReport {
  requests: number;
  attacks: number;
  /** Attack requests the origin received: each one is a request without a right to it. */
  reachedOrigin: number;
  /** 5xx answers docs/decisions.md does not document for the situation (503 only while no key can sign: a broken key store or an active_key it lacks). */
  undocumented5xx: number;
  byStatus: Record<string, number>;
  byKind: Record<string, number>;
  settingsWritten: number;
  hostUp: boolean;
  examples: string[];
}

const D = 10;
const GOOD = { allow_percentage: '30', wait_period_duration: String(D), allow_period_duration: '60', identity: 'header:x-fuzz-id' };

async function material(room: Room): Promise<Material> {
  const nowSec = Math.floor(Date.now() / 1000);
  const owner = 'owner';
  return {
    owner,
    allowToken: await mintToken(room, { dec: 'allow', exp: Math.floor(nowSec / 60) * 60 + 120, identity: `header:${owner}` }),
    waitToken: await mintToken(room, { dec: 'wait', exp: Math.floor(nowSec / D) * D - D, identity: `header:${owner}` }),
  };
}

export async function fuzz(options: FuzzOptions): Promise<FuzzReport> {
  const log = options.log ?? (() => {});
  const rnd = seeded(options.seed);
  const room = await startRoom({ settings: GOOD });
  const report: FuzzReport = { requests: 0, attacks: 0, reachedOrigin: 0, undocumented5xx: 0, byStatus: {}, byKind: {}, settingsWritten: 0, hostUp: false, examples: [] };
  const note = (what: string): void => {
    if (report.examples.length < 20) report.examples.push(what);
    log(what);
  };
  const deadline = Date.now() + options.durationMs;
  const more = (): boolean => Date.now() < deadline && report.requests < options.maxRequests;
  let phase: 'attack' | 'chaos' = 'attack';
  let keysBroken = false;
  let m = await material(room);
  let visitor = 0;
  try {
    while (more()) {
      // An attack phase on good settings: nothing may reach the origin.
      phase = 'attack';
      const until = Math.min(deadline, Date.now() + 5_000);
      await Promise.all(
        Array.from({ length: options.concurrency }, async () => {
          while (Date.now() < until && report.requests < options.maxRequests) {
            const a = attack(m, `attacker-${visitor++ % 5000}`, rnd);
            report.attacks++;
            report.byKind[a.kind] = (report.byKind[a.kind] ?? 0) + 1;
            await send(a.method, a.path, a.headers, a.kind);
          }
        }),
      );
      const arrived = room.origin.requests.filter((r) => r.headers['x-fuzz-attack'] === '1');
      for (const r of arrived) note(`REACHED THE ORIGIN without a right: ${r.method} ${r.path.slice(0, 60)} cookie=${String(r.headers.cookie ?? '').slice(0, 80)}`);
      report.reachedOrigin += arrived.length;
      room.origin.requests.length = 0;
      if (!more()) break;
      // A chaos phase: a bad setting or key store written live, ordinary traffic meanwhile.
      phase = 'chaos';
      const breakKeys = rnd() < 0.25;
      if (breakKeys) {
        await room.setKeys(badKeys[Math.floor(rnd() * badKeys.length)]!);
        keysBroken = true;
      } else {
        const bad = badSettings[Math.floor(rnd() * badSettings.length)]!;
        await room.setConfig({ ...GOOD, ...bad });
        // An active_key the key store lacks is the other way to have no key to sign with.
        keysBroken = bad.active_key !== undefined;
      }
      report.settingsWritten++;
      for (let i = 0; i < 40 && more(); i++) await send('GET', '/', { 'x-fuzz-id': `chaos-${i}`, accept: i % 2 ? 'application/json' : 'text/html' }, 'chaos');
      room.origin.requests.length = 0;
      // Back to good settings and keys: the next attack phase judges the room on them.
      if (breakKeys) await room.setKeys({ e2e1: room.key.base64 });
      await room.setConfig(GOOD);
      keysBroken = false;
      report.settingsWritten++;
      m = await material(room);
    }
    const health = await fetch(`${room.url}/`, { headers: { 'x-fuzz-id': 'health' } }).catch(() => null);
    report.hostUp = health !== null && health.status < 500;
  } finally {
    await room.stop();
  }
  return report;

  async function send(method: string, path: string, headers: Record<string, string>, kind: string): Promise<void> {
    report.requests++;
    let status: number;
    try {
      const res = await fetch(`${room.url}${path}`, { method, headers, ...(method === 'POST' ? { body: 'x=1' } : {}) });
      await res.arrayBuffer();
      status = res.status;
    } catch (error) {
      status = 0;
      note(`no answer (${kind}): ${(error as Error).message}`);
    }
    report.byStatus[String(status)] = (report.byStatus[String(status)] ?? 0) + 1;
    const documented = status === 503 && phase === 'chaos' && keysBroken;
    if ((status >= 500 || status === 0) && !documented) {
      report.undocumented5xx++;
      note(`${status || 'no answer'} for ${kind}: ${method} ${path.slice(0, 60)}`);
    }
  }
}
