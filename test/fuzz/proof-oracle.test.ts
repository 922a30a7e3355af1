// The fuzz run's judge of the proof of work: a decision line marked valid for a request without its own
// token's right solution is counted as accepted; the controls' valid lines are counted apart.
import { describe, expect, it } from 'vitest';
import type { SentRequest } from '../../fuzz/oracle.js';
import { PROOF_CONTROL, PROOF_PATH } from '../../fuzz/proof-attacks.js';
import { judgeProof } from '../../fuzz/proof-oracle.js';

const sent = (kind: string, rights: SentRequest['rights'] = [], proof = '1.2.3.4.5.6.7.8'): SentRequest => ({
  kind,
  method: 'GET',
  path: '/proof/x',
  headers: { 'x-fuzz-id': 'proof-attacker-1', 'waiting-room-proof': proof },
  rights,
});
const line = (n: number, proof: string | undefined, reason = 'draw_lost'): Record<string, unknown> => ({
  room: 'proof',
  path: `${PROOF_PATH}${n}`,
  reason,
  ...(proof ? { proof } : {}),
});

describe("the fuzz run's proof oracle", () => {
  it('counts a forged solution the room logged valid (a planted acceptance), and not the control', () => {
    const requests = new Map([
      ['1', sent('proof: forged: random counters')],
      ['2', sent(PROOF_CONTROL, ['proof'])],
      ['3', sent("proof: replayed: the previous window's right solution")],
    ]);
    const verdict = judgeProof(
      [line(1, 'valid', 'draw_won'), line(2, 'valid', 'draw_won'), line(3, 'failed')],
      requests,
    );
    expect(verdict.accepted).toHaveLength(1);
    expect(verdict.accepted[0]!.kind).toBe('proof: forged: random counters');
    expect(verdict.accepted[0]!.why).toContain('"1.2.3.4.5.6.7.8"');
    expect(verdict).toMatchObject({ controls: 1, controlsValid: 1, unlogged: 0 });
    expect(verdict.linesByKind["proof: replayed: the previous window's right solution"]).toEqual({ failed: 1 });
  });

  it('reports the classes the room logged, lines without a check, and requests it never logged', () => {
    const requests = new Map([
      ['4', sent('proof: forged: empty', [], '')],
      ['5', sent('proof: a stolen token with its right solution')],
      ['6', sent(PROOF_CONTROL, ['proof'])],
    ]);
    const verdict = judgeProof(
      [line(4, 'missing'), line(5, undefined, 'token_other_identity'), { room: 'shop', path: '/', proof: 'valid' }],
      requests,
    );
    expect(verdict.accepted).toEqual([]);
    expect(verdict.linesByKind).toEqual({
      'proof: forged: empty': { missing: 1 },
      'proof: a stolen token with its right solution': { 'no proof checked (token_other_identity)': 1 },
    });
    // The control was sent and never logged valid: the run says so (the oracle would be blind).
    expect(verdict).toMatchObject({ controls: 1, controlsValid: 0, unlogged: 1 });
  });
});
