// Challenges derived straight from docs issue 23's spec (the shared contract), with node:crypto, so the
// browser solver is checked against the spec's formulas rather than against its own reading of them.
// m = HMAC-SHA-512(key, "wr-proof:" + T); K = 8; salt = hex(m[16..32)); noncePrefix = hex(m[0..15));
// nonce_i = noncePrefix + hex2(i); N_i = uint32BE(m[32+4i..36+4i)) mod M; M = max(1, round(2 s R / K));
// P_i = hex(SHA-256(salt ‖ nonce_i ‖ uint32BE(N_i))[0..16)).
import { createHash, createHmac } from 'node:crypto';

export const K = 8;
/** The spec's starting PHONE_RATE (src/core/tokens/proof.ts owns the real one). */
export const SPEC_PHONE_RATE = 150_000;

export interface SpecChallenge {
  parameters: { algorithm: 'SHA-256'; cost: 1; keyLength: 32; keyPrefix: string; nonce: string; salt: string };
}

export interface SpecProof {
  /** Counters per sub-challenge. */
  M: number;
  /** The secret counters N_i: the expected solution. */
  counters: number[];
  solution: string;
  compact: string;
  /** The JSON answer's `waitingRoom.proof`. */
  json: {
    scheme: 'altcha-v2';
    header: 'waiting-room-proof';
    seconds: number;
    counters: number;
    challenges: SpecChallenge[];
    solutionFormat: string;
  };
}

export function countersFor(seconds: number, phoneRate = SPEC_PHONE_RATE): number {
  return Math.max(1, Math.round((2 * seconds * phoneRate) / K));
}

/** The proof for token text `token` signed with the HMAC key bytes `key`, at `seconds` of difficulty. */
export function specProof(token: string, key: Uint8Array, seconds: number, phoneRate = SPEC_PHONE_RATE): SpecProof {
  const m = createHmac('sha512', key).update(`wr-proof:${token}`).digest();
  const M = countersFor(seconds, phoneRate);
  const salt = m.subarray(16, 32).toString('hex');
  const noncePrefix = m.subarray(0, 15).toString('hex');
  const counters: number[] = [];
  const challenges: SpecChallenge[] = [];
  for (let i = 0; i < K; i++) {
    const nonce = noncePrefix + i.toString(16).padStart(2, '0');
    const n = m.readUInt32BE(32 + 4 * i) % M;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(n);
    const key32 = createHash('sha256')
      .update(Buffer.from(salt, 'hex'))
      .update(Buffer.from(nonce, 'hex'))
      .update(counter)
      .digest();
    counters.push(n);
    challenges.push({
      parameters: {
        algorithm: 'SHA-256',
        cost: 1,
        keyLength: 32,
        keyPrefix: key32.subarray(0, 16).toString('hex'),
        nonce,
        salt,
      },
    });
  }
  return {
    M,
    counters,
    solution: counters.join('.'),
    compact: ['1', M, salt, noncePrefix, ...challenges.map((c) => c.parameters.keyPrefix)].join('.'),
    json: {
      scheme: 'altcha-v2',
      header: 'waiting-room-proof',
      seconds,
      counters: M,
      challenges,
      solutionFormat: "the 8 counters found, in order, joined by '.'",
    },
  };
}
