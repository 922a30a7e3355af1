// A short fuzz run of the built room, four rooms and three rules, as part of `npm test` (`npm run fuzz --
// --minutes 10` for a long one): bounded in time and requests, loopback only.
import { expect, it } from 'vitest';
import { PROOF_CONTROL } from '../../fuzz/proof-attacks.js';
import { fuzz } from '../../fuzz/run.js';

it("lets no forged, mutated, stolen or other room's token, invite or proof of work through, answers no undocumented 5xx, and stays up", async () => {
  const report = await fuzz({ durationMs: 40_000, maxRequests: 4_000, concurrency: 4, seed: 7 });
  expect(report.examples).toEqual([]);
  expect(report.reachedOrigin).toBe(0);
  expect(report.roomCookieAtOrigin).toBe(0);
  // The routing's rules are applied (else the oracle would judge by routes alone), and the rights the
  // attacks carry on purpose do get in: the oracle is not judging a room that lets nobody through.
  expect(report.rulesApplied).toBe(true);
  expect(report.withRightByKind['own allow token in its own room']).toBeGreaterThan(0);
  expect(
    Object.keys(report.withRightByKind).filter((k) => k.startsWith('valid invite, its own visitor and room')).length,
  ).toBeGreaterThan(0);
  // The proof room: no forged, replayed, other identity's, other room's or other window's solution is
  // logged valid, and the right one is (so the check was tested), and gets its holder in.
  expect(report.proof.accepted).toBe(0);
  expect(report.proof.controlsValid).toBeGreaterThan(0);
  expect(report.withRightByKind[PROOF_CONTROL]).toBeGreaterThan(0);
  const proofKinds = Object.keys(report.proof.attacksByKind);
  for (const kind of [
    'forged',
    'replayed',
    "another identity's",
    "another room's",
    "another window's token",
    'stale token replayed',
  ])
    expect(proofKinds.some((k) => k.includes(kind))).toBe(true);
  expect(Object.values(report.proof.linesByKind).some((said) => (said.failed ?? 0) > 0)).toBe(true);
  expect(report.undocumented5xx).toBe(0);
  expect(report.hostUp).toBe(true);
  // It did attack, and it did break the settings live.
  expect(report.attacks).toBeGreaterThan(500);
  expect(report.settingsWritten).toBeGreaterThanOrEqual(2);
}, 120_000);
