// The fuzz run: the built room on the local host with four rooms and three rules (fuzz/rooms.ts), an
// origin that records what reaches it, and a stream of forged, mutated and stolen tokens, tokens and
// invites carried from one room to another, forged and replayed invites, odd cookies, headers and
// targets, and proofs of work forged, replayed and borrowed (fuzz/proof-attacks.ts); between attack phases, bad settings, keys and routing values are written live while
// requests flow. It counts what matters: requests that reached the origin without a right in their own
// room (fuzz/oracle.ts), decision lines calling a borrowed or forged proof valid (fuzz/proof-oracle.ts),
// room cookies the origin saw, 5xx answers beyond the documented ones, and whether the host stayed up.
import { randomBytes } from 'node:crypto';
import { startRoom, waitFor, type Room } from '../lib/room-host.js';
import { cookieName } from '../src/core/cookies.js';
import { attack, badKeys, badSettings, seeded, type Attack, type Material } from './attacks.js';
import { crossRoomAttack, INVITE_KID, roomMaterial, type RoomMaterial } from './cross-room.js';
import { hostWordsSince, markLogs } from './host-words.js';
import { judge, REQUEST_NUMBER, type SentRequest } from './oracle.js';
import { PROOF_PATH, proofAttack, proofMaterial, type ProofMaterial } from './proof-attacks.js';
import { judgeProof, type ProofVerdict } from './proof-oracle.js';
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
  /** Attack requests the origin received without a right in the room they were for (fuzz/oracle.ts). */
  reachedOrigin: number;
  /** Attack requests that reached the origin with a right (their own token or invite, a bypass rule, an open room). */
  reachedWithRight: number;
  /** Of those, by kind: the controls (own token in own room, a valid invite) show the room lets rights through. */
  withRightByKind: Record<string, number>;
  /** Requests the origin received with a room's cookie still in them. */
  roomCookieAtOrigin: number;
  /** 5xx answers docs/decisions.md does not document for the situation (503 only while no key can sign: a broken key store or an active_key it lacks). */
  undocumented5xx: number;
  byStatus: Record<string, number>;
  byKind: Record<string, number>;
  settingsWritten: number;
  /** Attack phases judged on a routing with a broken rule in it (the rule skipped, nothing opened). */
  phasesOnBrokenRules: number;
  /**
   * The proof room's requests (fuzz/proof-attacks.ts) as its decision lines judged them: `accepted`
   * counts lines calling a forged, replayed or borrowed proof valid (must be 0); `controlsValid` the
   * controls' right solutions logged valid (must be above 0 when controls were sent, or the check is blind).
   */
  proof: Omit<ProofVerdict, 'accepted'> & { accepted: number };
  /** Whether the room applies the routing's rules (false: a build whose routing ignores rules; the oracle then does too). */
  rulesApplied: boolean;
  hostUp: boolean;
  examples: string[];
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
  const log = options.log ?? (() => {});
  const rnd = seeded(options.seed);
  const inviteKey = new Uint8Array(randomBytes(32));
  const room = await startRoom({ settings: SETTINGS, store: roomStore() });
  const report: FuzzReport = {
    requests: 0,
    attacks: 0,
    reachedOrigin: 0,
    reachedWithRight: 0,
    withRightByKind: {},
    roomCookieAtOrigin: 0,
    undocumented5xx: 0,
    byStatus: {},
    byKind: {},
    settingsWritten: 0,
    phasesOnBrokenRules: 0,
    rulesApplied: false,
    hostUp: false,
    examples: [],
    proof: { attacksByKind: {}, linesByKind: {}, accepted: 0, controls: 0, controlsValid: 0, unlogged: 0 },
  };
  const note = (what: string): void => {
    if (report.examples.length < 20) report.examples.push(what);
    log(what);
  };
  const deadline = Date.now() + options.durationMs;
  const more = (): boolean => Date.now() < deadline && report.requests < options.maxRequests;
  let phase: 'attack' | 'chaos' = 'attack';
  let keysBroken = false;
  let n = 0;
  const sent = new Map<string, SentRequest>();
  // The proof room's requests over the whole run, judged from the room's lines at the end.
  const proofSent = new Map<string, SentRequest>();
  // Its tokens are due in the window they were made for: made again (once) when a window starts.
  let proofTokens: { window: number; material: Promise<ProofMaterial> } | null = null;
  const proofNow = (): Promise<ProofMaterial> => {
    const window = windowBoundary(WAIT_SECONDS, 0);
    if (proofTokens?.window !== window) proofTokens = { window, material: proofMaterial(room.key) };
    return proofTokens.material;
  };
  try {
    await room.setKeys(goodKeys(room, inviteKey));
    report.rulesApplied = await rulesApplied(room);
    log(
      `rules ${report.rulesApplied ? 'applied' : 'NOT applied by this build: the oracle places requests by routes alone'}`,
    );
    room.origin.requests.length = 0;
    let routing = ROUTING_VALUE;
    let m = await roomMaterial(room.key, inviteKey);
    let visitor = 0;
    while (more()) {
      // An attack phase on a usable routing: nothing may reach the origin without a right in its room.
      phase = 'attack';
      if (routing !== ROUTING_VALUE) report.phasesOnBrokenRules++;
      const until = Math.min(deadline, Date.now() + 5_000);
      await Promise.all(
        Array.from({ length: options.concurrency }, async () => {
          while (Date.now() < until && report.requests < options.maxRequests) {
            const attacker = `attacker-${visitor++ % 5000}`;
            const number = String(n++);
            const roll = rnd();
            const a: Attack & { rights?: SentRequest['rights'] } =
              roll < 0.25
                ? proofAttack(await proofNow(), number, rnd)
                : roll < 0.625
                  ? attack(singleRoomMaterial(m, rnd), attacker, rnd)
                  : crossRoomAttack(m, attacker, rnd);
            report.attacks++;
            report.byKind[a.kind] = (report.byKind[a.kind] ?? 0) + 1;
            const headers = { ...a.headers, [REQUEST_NUMBER]: number };
            const record = { kind: a.kind, method: a.method, path: a.path, headers, rights: a.rights ?? [] };
            sent.set(number, record);
            if (a.path.startsWith(PROOF_PATH)) proofSent.set(number, record);
            await send(a.method, a.path, headers, a.kind);
          }
        }),
      );
      const verdict = judge(room.origin.requests, sent, { open: OPEN_ROOMS, rules: report.rulesApplied });
      for (const leak of verdict.withoutRight)
        note(
          `REACHED THE ORIGIN without a right: ${leak.why} (headers ${JSON.stringify(leak.sent?.headers ?? {}).slice(0, 160)})`,
        );
      if (verdict.roomCookieSeen > 0) note(`the origin saw a room cookie in ${verdict.roomCookieSeen} requests`);
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
      if (!more()) break;
      // A chaos phase: a bad setting, key store or routing written live while ordinary traffic flows.
      phase = 'chaos';
      const roll = rnd();
      const breakKeys = roll < 0.25;
      let write: Promise<void>;
      if (breakKeys) {
        keysBroken = true;
        write = room.setKeys(badKeys[Math.floor(rnd() * badKeys.length)]!);
      } else if (roll < 0.5) {
        const unusable = badRoutings.filter((r) => r.failsOpen);
        const bad = unusable[Math.floor(rnd() * unusable.length)]!;
        write = room.setConfig(SETTINGS, roomStore(bad.value));
      } else {
        const bad = badSettings[Math.floor(rnd() * badSettings.length)]!;
        // An active_key the key store lacks is the other way to have no key to sign with.
        keysBroken = bad.active_key !== undefined;
        write = room.setConfig({ ...SETTINGS, ...bad }, roomStore(routing));
      }
      const traffic = (async () => {
        for (let i = 0; i < 40 && more(); i++) {
          const path = ['/', '/drops/a', '/vip', '/free', '/health'][i % 5]!;
          await send(
            'GET',
            path,
            { 'x-fuzz-id': `chaos-${i}`, accept: i % 2 ? 'application/json' : 'text/html' },
            'chaos',
          );
        }
      })();
      await Promise.all([write, traffic]);
      report.settingsWritten++;
      // Back to good settings and keys, and a routing for the next attack phase: the good one, or one
      // with a broken rule that must be skipped (the phase judges the room on it all the same).
      if (breakKeys) await room.setKeys(goodKeys(room, inviteKey));
      const usable = badRoutings.filter((r) => !r.failsOpen);
      const next = rnd() < 0.5 ? null : usable[Math.floor(rnd() * usable.length)]!;
      routing = next === null ? ROUTING_VALUE : next.value;
      await room.setConfig(SETTINGS, roomStore(routing));
      keysBroken = false;
      room.origin.requests.length = 0;
      report.settingsWritten++;
      m = await roomMaterial(room.key, inviteKey);
    }
    await judgeProofLines();
    const health = await fetch(`${room.url}/`, { headers: { 'x-fuzz-id': 'health' } }).catch(() => null);
    report.hostUp = health !== null && health.status < 500;
  } finally {
    await room.stop();
  }
  return report;

  /** The proof room's lines (the host prints them as it answers: a moment's wait for the last ones), judged. */
  async function judgeProofLines(): Promise<void> {
    const logged = (): number =>
      room.decisions().filter((l) => typeof l.path === 'string' && l.path.startsWith(PROOF_PATH)).length;
    await waitFor(() => (logged() >= proofSent.size ? true : undefined), 5_000).catch(() => {});
    const verdict = judgeProof(room.decisions(), proofSent);
    for (const a of verdict.accepted) note(`A PROOF WAS ACCEPTED that is not the request's own: ${a.why}`);
    if (verdict.controls > 0 && verdict.controlsValid === 0)
      note(
        `none of the ${verdict.controls} controls (the right solution) was logged valid: the proof check is not being tested`,
      );
    report.proof = { ...verdict, accepted: verdict.accepted.length };
  }

  async function send(method: string, path: string, headers: Record<string, string>, kind: string): Promise<void> {
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
      note(`no answer (${kind}): ${(error as Error).message}`);
    }
    report.byStatus[String(status)] = (report.byStatus[String(status)] ?? 0) + 1;
    const documented = status === 503 && phase === 'chaos' && keysBroken;
    if ((status >= 500 || status === 0) && !documented) {
      report.undocumented5xx++;
      // What the host said about it (a limit reached, a trap, an exception), so a rare 5xx can be read
      // from the run's own report rather than reproduced.
      // (Under concurrency another request's words may still come in between: they are of this moment, at least.)
      const said = hostWordsSince(room, mark);
      note(
        `${status || 'no answer'} for ${kind}: ${method} ${path.slice(0, 60)}${said.length > 0 ? `; the host's last words on it: ${said.join(' | ').slice(0, 600)}` : ''}`,
      );
    }
  }
}
