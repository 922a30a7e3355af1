// The fuzz run: the built room on the local host with four rooms and three rules (fuzz/rooms.ts), an
// origin that records what reaches it, and a stream of forged, mutated and stolen tokens, tokens and
// invites carried from one room to another, forged and replayed invites, odd cookies, headers and
// targets, and proofs of work forged, replayed and borrowed (fuzz/proof-attacks.ts); between attack phases, bad settings, keys and routing values are written live while
// requests flow. It counts what matters: requests that reached the origin without a right in their own
// room (fuzz/oracle.ts), decision lines calling a borrowed or forged proof valid (fuzz/proof-oracle.ts),
// room cookies the origin saw, 5xx answers beyond the documented ones, and whether the host stayed up.
import { randomBytes } from 'node:crypto';
import { startRoom, waitFor, type Room } from '../lib/room-host.js';
import { cookieName } from '../src/core/request/index.js';
import { attack, badKeys, badSettings, seeded, type Attack, type Material } from './attacks.js';
import { crossRoomAttack, INVITE_KID, roomMaterial, type RoomMaterial } from './cross-room.js';
import { hostWordsSince, markLogs } from './host-words.js';
import { judge, REQUEST_NUMBER, type SentRequest } from './oracle.js';
import { PROOF_PATH, proofAttack, proofMaterial, type ProofMaterial } from './proof-attacks.js';
import { judgeProof } from './proof-oracle.js';
import {
  badRoutings,
  GUARDED,
  OPEN_ROOMS,
  ROOM_PATHS,
  roomStore,
  ROUTING_VALUE,
  SETTINGS,
  WAIT_SECONDS,
} from './rooms.js';
import { windowBoundary } from '../lib/mint.js';
import { emptyReport, type FuzzReport } from './report.js';

export type { FuzzReport } from './report.js';

export interface FuzzOptions {
  durationMs: number;
  /** At most this many requests, whatever the time. */
  maxRequests: number;
  concurrency: number;
  seed: number;
  log?: (line: string) => void;
}

/** The key store with the room's signing key and the invite key. */
const goodKeys = (room: Room, inviteKey: Uint8Array): Record<string, string> => ({
  [room.key.kid]: room.key.base64,
  [`invite.${INVITE_KID}`]: Buffer.from(inviteKey).toString('base64'),
});

/** The single-room attacks on one room's tokens (attacks.ts), for a room picked by `rnd`. */
function singleRoomMaterial(m: RoomMaterial, rnd: () => number): Material {
  const room = GUARDED[Math.floor(rnd() * GUARDED.length)]!;
  return {
    owner: m.owner,
    allowToken: m.allow[room]!,
    waitToken: m.wait[room]!,
    cookieName: cookieName(room),
    paths: ROOM_PATHS[room],
  };
}

/** Does the room apply rules? A request on shop's path with the vip cookie is decided by the vip room if so. */
async function rulesApplied(room: Room): Promise<boolean> {
  await fetch(`${room.url}/probe-rules`, { headers: { 'x-fuzz-id': 'probe', cookie: 'vip=1' } }).then((r) =>
    r.arrayBuffer(),
  );
  const line = await waitFor(() => room.decisions().find((d) => d.path === '/probe-rules'), 5_000).catch(() => null);
  return line?.room === 'vip';
}

export async function fuzz(options: FuzzOptions): Promise<FuzzReport> {
  const inviteKey = new Uint8Array(randomBytes(32));
  const room = await startRoom({ settings: SETTINGS, store: roomStore() });
  const run = new FuzzRun(room, inviteKey, options);
  try {
    await run.prepare();
    await run.phases();
    await run.finish();
  } finally {
    await room.stop();
  }
  return run.report;
}

/** One fuzz run: its room, its report and what it has sent so far; the methods are its steps, in order. */
class FuzzRun {
  readonly report = emptyReport();
  private readonly log: (line: string) => void;
  private readonly rnd: () => number;
  private readonly deadline: number;
  private phase: 'attack' | 'chaos' = 'attack';
  private keysBroken = false;
  private n = 0;
  private visitor = 0;
  private readonly sent = new Map<string, SentRequest>();
  // The proof room's requests over the whole run, judged from the room's lines at the end.
  private readonly proofSent = new Map<string, SentRequest>();
  // Its tokens are due in the window they were made for: made again (once) when a window starts.
  private proofTokens: { window: number; material: Promise<ProofMaterial> } | null = null;
  private routing = ROUTING_VALUE;
  private material: RoomMaterial | null = null;

  constructor(
    private readonly room: Room,
    private readonly inviteKey: Uint8Array,
    private readonly options: FuzzOptions,
  ) {
    this.log = options.log ?? (() => {});
    this.rnd = seeded(options.seed);
    this.deadline = Date.now() + options.durationMs;
  }

  private more(): boolean {
    return Date.now() < this.deadline && this.report.requests < this.options.maxRequests;
  }

  private note(what: string): void {
    if (this.report.examples.length < 20) this.report.examples.push(what);
    this.log(what);
  }

  private proofNow(): Promise<ProofMaterial> {
    const window = windowBoundary(WAIT_SECONDS, 0);
    if (this.proofTokens?.window !== window) this.proofTokens = { window, material: proofMaterial(this.room.key) };
    return this.proofTokens.material;
  }

  /** Good keys, a question to the room about rules, and the first tokens to attack with. */
  async prepare(): Promise<void> {
    await this.room.setKeys(goodKeys(this.room, this.inviteKey));
    this.report.rulesApplied = await rulesApplied(this.room);
    this.log(
      `rules ${this.report.rulesApplied ? 'applied' : 'NOT applied by this build: the oracle places requests by routes alone'}`,
    );
    this.room.origin.requests.length = 0;
    this.material = await roomMaterial(this.room.key, this.inviteKey);
  }

  /** Attack phases, each judged, with a chaos phase between two of them, until time or requests run out. */
  async phases(): Promise<void> {
    while (this.more()) {
      await this.attackPhase();
      this.judgePhase();
      if (!this.more()) break;
      await this.chaosPhase();
    }
  }

  /** The proof room's lines judged, and whether the host still answers. */
  async finish(): Promise<void> {
    await this.judgeProofLines();
    const health = await fetch(`${this.room.url}/`, { headers: { 'x-fuzz-id': 'health' } }).catch(() => null);
    this.report.hostUp = health !== null && health.status < 500;
  }

  /** An attack phase on a usable routing: nothing may reach the origin without a right in its room. */
  private async attackPhase(): Promise<void> {
    this.phase = 'attack';
    if (this.routing !== ROUTING_VALUE) this.report.phasesOnBrokenRules++;
    const until = Math.min(this.deadline, Date.now() + 5_000);
    await Promise.all(
      Array.from({ length: this.options.concurrency }, async () => {
        while (Date.now() < until && this.report.requests < this.options.maxRequests) await this.attackOnce();
      }),
    );
  }

  private async attackOnce(): Promise<void> {
    const attacker = `attacker-${this.visitor++ % 5000}`;
    const number = String(this.n++);
    const m = this.material!;
    const roll = this.rnd();
    const a: Attack & { rights?: SentRequest['rights'] } =
      roll < 0.25
        ? proofAttack(await this.proofNow(), number, this.rnd)
        : roll < 0.625
          ? attack(singleRoomMaterial(m, this.rnd), attacker, this.rnd)
          : crossRoomAttack(m, attacker, this.rnd);
    this.report.attacks++;
    this.report.byKind[a.kind] = (this.report.byKind[a.kind] ?? 0) + 1;
    const headers = { ...a.headers, [REQUEST_NUMBER]: number };
    const record = { kind: a.kind, method: a.method, path: a.path, headers, rights: a.rights ?? [] };
    this.sent.set(number, record);
    if (a.path.startsWith(PROOF_PATH)) this.proofSent.set(number, record);
    await this.send(a.method, a.path, headers, a.kind);
  }

  /** What reached the origin in the phase, judged against what was sent; then both are forgotten. */
  private judgePhase(): void {
    const { report, room, sent } = this;
    const verdict = judge(room.origin.requests, sent, { open: OPEN_ROOMS, rules: report.rulesApplied });
    for (const leak of verdict.withoutRight)
      this.note(
        `REACHED THE ORIGIN without a right: ${leak.why} (headers ${JSON.stringify(leak.sent?.headers ?? {}).slice(0, 160)})`,
      );
    if (verdict.roomCookieSeen > 0) this.note(`the origin saw a room cookie in ${verdict.roomCookieSeen} requests`);
    report.reachedOrigin += verdict.withoutRight.length;
    report.reachedWithRight += room.origin.requests.length - verdict.withoutRight.length;
    const leaked = new Set(verdict.withoutRight.map((l) => l.sent));
    for (const r of room.origin.requests) {
      const record = sent.get(String(r.headers[REQUEST_NUMBER]));
      if (record !== undefined && !leaked.has(record))
        report.withRightByKind[record.kind] = (report.withRightByKind[record.kind] ?? 0) + 1;
    }
    report.roomCookieAtOrigin += verdict.roomCookieSeen;
    room.origin.requests.length = 0;
    sent.clear();
  }

  /** A chaos phase: a bad setting, key store or routing written live while ordinary traffic flows. */
  private async chaosPhase(): Promise<void> {
    this.phase = 'chaos';
    const roll = this.rnd();
    const breakKeys = roll < 0.25;
    const write = this.writeSomethingBad(roll);
    await Promise.all([write, this.chaosTraffic()]);
    this.report.settingsWritten++;
    await this.restore(breakKeys);
  }

  private writeSomethingBad(roll: number): Promise<void> {
    if (roll < 0.25) {
      this.keysBroken = true;
      return this.room.setKeys(badKeys[Math.floor(this.rnd() * badKeys.length)]!);
    }
    if (roll < 0.5) {
      const unusable = badRoutings.filter((r) => r.failsOpen);
      const bad = unusable[Math.floor(this.rnd() * unusable.length)]!;
      return this.room.setConfig(SETTINGS, roomStore(bad.value));
    }
    const bad = badSettings[Math.floor(this.rnd() * badSettings.length)]!;
    // An active_key the key store lacks is the other way to have no key to sign with.
    this.keysBroken = bad.active_key !== undefined;
    return this.room.setConfig({ ...SETTINGS, ...bad }, roomStore(this.routing));
  }

  private async chaosTraffic(): Promise<void> {
    for (let i = 0; i < 40 && this.more(); i++) {
      const path = ['/', '/drops/a', '/vip', '/free', '/health'][i % 5]!;
      await this.send(
        'GET',
        path,
        { 'x-fuzz-id': `chaos-${i}`, accept: i % 2 ? 'application/json' : 'text/html' },
        'chaos',
      );
    }
  }

  /**
   * Back to good settings and keys, and a routing for the next attack phase: the good one, or one
   * with a broken rule that must be skipped (the phase judges the room on it all the same).
   */
  private async restore(breakKeys: boolean): Promise<void> {
    const { room } = this;
    if (breakKeys) await room.setKeys(goodKeys(room, this.inviteKey));
    const usable = badRoutings.filter((r) => !r.failsOpen);
    const next = this.rnd() < 0.5 ? null : usable[Math.floor(this.rnd() * usable.length)]!;
    this.routing = next === null ? ROUTING_VALUE : next.value;
    await room.setConfig(SETTINGS, roomStore(this.routing));
    this.keysBroken = false;
    room.origin.requests.length = 0;
    this.report.settingsWritten++;
    this.material = await roomMaterial(room.key, this.inviteKey);
  }

  /** The proof room's lines (the host prints them as it answers: a moment's wait for the last ones), judged. */
  private async judgeProofLines(): Promise<void> {
    const { room, proofSent } = this;
    const logged = (): number =>
      room.decisions().filter((l) => typeof l.path === 'string' && l.path.startsWith(PROOF_PATH)).length;
    await waitFor(() => (logged() >= proofSent.size ? true : undefined), 5_000).catch(() => {});
    const verdict = judgeProof(room.decisions(), proofSent);
    for (const a of verdict.accepted) this.note(`A PROOF WAS ACCEPTED that is not the request's own: ${a.why}`);
    if (verdict.controls > 0 && verdict.controlsValid === 0)
      this.note(
        `none of the ${verdict.controls} controls (the right solution) was logged valid: the proof check is not being tested`,
      );
    this.report.proof = { ...verdict, accepted: verdict.accepted.length };
  }

  private async send(method: string, path: string, headers: Record<string, string>, kind: string): Promise<void> {
    const { report, room } = this;
    report.requests++;
    let status: number;
    // What the host prints from here on may be about this request; what it printed before is not.
    const mark = markLogs(room);
    try {
      // Redirects are not followed: a follow-up would reach the origin under this request's number and rights.
      const res = await fetch(`${room.url}${path}`, {
        method,
        headers,
        redirect: 'manual',
        ...(method === 'POST' ? { body: 'x=1' } : {}),
      });
      await res.arrayBuffer();
      status = res.status;
    } catch (error) {
      status = 0;
      this.note(`no answer (${kind}): ${(error as Error).message}`);
    }
    report.byStatus[String(status)] = (report.byStatus[String(status)] ?? 0) + 1;
    const documented = status === 503 && this.phase === 'chaos' && this.keysBroken;
    if ((status >= 500 || status === 0) && !documented) {
      report.undocumented5xx++;
      // What the host said about it (a limit reached, a trap, an exception), so a rare 5xx can be read
      // from the run's own report rather than reproduced.
      // (Under concurrency another request's words may still come in between: they are of this moment, at least.)
      const said = hostWordsSince(room, mark);
      this.note(
        `${status || 'no answer'} for ${kind}: ${method} ${path.slice(0, 60)}${said.length > 0 ? `; the host's last words on it: ${said.join(' | ').slice(0, 600)}` : ''}`,
      );
    }
  }
}
