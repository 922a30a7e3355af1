// The fuzz run's judge of the proof of work (fuzz/proof-attacks.ts), from the room's own decision
// lines: a line marked `"proof": "valid"` for a request that did not carry its own token's right
// solution is a forgery the room accepted. The controls (that right solution) must be logged valid,
// or nothing here could ever fail. Lines are tied to requests by the number in their path.
import type { SentRequest } from './oracle.js';
import { PROOF_PATH } from './proof-attacks.js';
import { PROOF_ROOM } from './rooms.js';

export interface ProofVerdict {
  /** Requests of the proof room sent, by kind. */
  attacksByKind: Record<string, number>;
  /** What the room's lines said of each kind: the `proof` field, or `no proof checked (REASON)` when the line has none. */
  linesByKind: Record<string, Record<string, number>>;
  /** Lines marked valid for a request without its own token's right solution. */
  accepted: Array<{ kind: string; why: string }>;
  /** Controls sent, and those logged valid. */
  controls: number;
  controlsValid: number;
  /** Proof-room requests with no decision line. */
  unlogged: number;
}

/** The request number in a proof attack's path, or null. */
function numberOf(path: unknown): string | null {
  if (typeof path !== 'string' || !path.startsWith(PROOF_PATH)) return null;
  const n = path.slice(PROOF_PATH.length);
  return /^\d+$/.test(n) ? n : null;
}

/** Judges the room's decision lines against the proof-room requests sent (by number). */
export function judgeProof(
  lines: ReadonlyArray<Record<string, unknown>>,
  sent: ReadonlyMap<string, SentRequest>,
): ProofVerdict {
  const verdict: ProofVerdict = {
    attacksByKind: {},
    linesByKind: {},
    accepted: [],
    controls: 0,
    controlsValid: 0,
    unlogged: 0,
  };
  const logged = new Set<string>();
  for (const line of lines) {
    const n = numberOf(line.path);
    const record = n === null ? undefined : sent.get(n);
    if (n === null || record === undefined) continue;
    logged.add(n);
    const said = typeof line.proof === 'string' ? line.proof : `no proof checked (${String(line.reason)})`;
    const byKind = (verdict.linesByKind[record.kind] ??= {});
    byKind[said] = (byKind[said] ?? 0) + 1;
    const own = record.rights.includes(PROOF_ROOM) && line.room === PROOF_ROOM;
    if (line.proof === 'valid' && own) verdict.controlsValid++;
    if (line.proof === 'valid' && !own) {
      verdict.accepted.push({
        kind: record.kind,
        why: `${record.kind}: logged valid (${String(line.reason)}) with header ${JSON.stringify(record.headers['waiting-room-proof'] ?? null)}`,
      });
    }
  }
  for (const [n, record] of sent) {
    verdict.attacksByKind[record.kind] = (verdict.attacksByKind[record.kind] ?? 0) + 1;
    if (record.rights.includes(PROOF_ROOM)) verdict.controls++;
    if (!logged.has(n)) verdict.unlogged++;
  }
  return verdict;
}
