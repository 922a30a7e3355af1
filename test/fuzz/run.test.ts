// A short fuzz run of the built room as part of `npm test` (`npm run fuzz -- --minutes 10` for a long
// one): bounded in time and requests, loopback only.
import { expect, it } from 'vitest';
import { fuzz } from '../../fuzz/run.js';

it('lets no forged, mutated or stolen token through, answers no undocumented 5xx, and stays up', async () => {
  const report = await fuzz({ durationMs: 40_000, maxRequests: 4_000, concurrency: 4, seed: 7 });
  expect(report.examples).toEqual([]);
  expect(report.reachedOrigin).toBe(0);
  expect(report.undocumented5xx).toBe(0);
  expect(report.hostUp).toBe(true);
  // It did attack, and it did break the settings live.
  expect(report.attacks).toBeGreaterThan(500);
  expect(report.settingsWritten).toBeGreaterThanOrEqual(2);
}, 120_000);
