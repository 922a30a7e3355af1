// The difficulty law: a window's proof of work in seconds from the pressure on it.
import { describe, expect, it } from 'vitest';
import { proofLevel, PROOF_STEPS } from '../../../control/model/proof-level.js';

const at = (waiting: number, chance: number, maxSeconds = 30, previous?: number): number =>
  proofLevel({ waiting, perMinute: 100, chance, maxSeconds, ...(previous === undefined ? {} : { previous }) });

describe('proofLevel', () => {
  it('asks no proof when nobody waits, or when every draw wins', () => {
    expect(at(0, 5)).toBe(0);
    expect(at(5000, 100)).toBe(0);
    expect(proofLevel({ waiting: 1000, perMinute: 100, chance: 10, maxSeconds: 0 })).toBe(0);
  });

  it('asks a second of work for each minute of queue the draws leave behind, on a few steps', () => {
    // 1,000 waiting at 100 a minute: 10 minutes of queue; at a 10% chance 9 s of it is left: 13 s.
    expect(at(1000, 10)).toBe(13);
    // 200 waiting, 50%: one minute left: 1 s.
    expect(at(200, 50)).toBe(1);
    // A handful waiting still asks the least step.
    expect(at(3, 90)).toBe(1);
    for (const w of [10, 100, 500, 1000, 3000, 100_000]) expect(PROOF_STEPS).toContain(at(w, 5));
  });

  it('never asks more than proof_seconds', () => {
    expect(at(100_000, 1, 5)).toBe(5);
    expect(at(1000, 10, 7.5)).toBe(7.5);
  });

  it('rises with the crowd and as the chance falls', () => {
    let last = 0;
    for (let w = 0; w <= 20_000; w += 137) {
      const s = at(w, 20);
      expect(s).toBeGreaterThanOrEqual(last);
      last = s;
    }
    last = 0;
    for (let c = 100; c >= 0; c -= 1.5) {
      const s = at(2000, c);
      expect(s).toBeGreaterThanOrEqual(last);
      last = s;
    }
  });

  it('holds its step while the pressure hovers just under it, so the published value does not flicker', () => {
    // 5.5 minutes of queue left would be 8 s; falling to 4.6 (the 5 s step) keeps 8 s, to 3.5 it steps down.
    expect(at(550, 0)).toBe(8);
    expect(at(460, 0)).toBe(5);
    expect(at(460, 0, 30, 8)).toBe(8);
    expect(at(350, 0, 30, 8)).toBe(5);
    // Rising is at once, and nobody waiting is 0 whatever came before.
    expect(at(900, 0, 30, 5)).toBe(13);
    expect(at(0, 0, 30, 13)).toBe(0);
  });
});
