// A short fuzz run of the built room, four rooms and three rules, as part of `npm test` (`npm run fuzz --
// --minutes 10` for a long one): bounded in time and requests, loopback only.
import { expect, it } from 'vitest';
import { fuzz } from '../../fuzz/run.js';

it('lets no forged, mutated, stolen or other room\'s token or invite through, answers no undocumented 5xx, and stays up', async () => {
  const report = await fuzz({ durationMs: 40_000, maxRequests: 4_000, concurrency: 4, seed: 7 });
  expect(report.examples).toEqual([]);
  expect(report.reachedOrigin).toBe(0);
  expect(report.roomCookieAtOrigin).toBe(0);
  // The routing's rules are applied (else the oracle would judge by routes alone), and the rights the
  // attacks carry on purpose do get in: the oracle is not judging a room that lets nobody through.
  expect(report.rulesApplied).toBe(true);
  expect(report.withRightByKind['own allow token in its own room']).toBeGreaterThan(0);
  expect(Object.keys(report.withRightByKind).filter((k) => k.startsWith('valid invite, its own visitor and room')).length).toBeGreaterThan(0);
  expect(report.undocumented5xx).toBe(0);
  expect(report.hostUp).toBe(true);
  // It did attack, and it did break the settings live.
  expect(report.attacks).toBeGreaterThan(500);
  expect(report.settingsWritten).toBeGreaterThanOrEqual(2);
}, 120_000);
