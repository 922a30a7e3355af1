// The config parser over arbitrary stores: it never throws, every problem names a key it was given,
// and every number it returns lies within the range docs/configuration.md states. fast-check prints the seed
// and path of a failure, so `fc.assert(..., { seed, path })` replays it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_COOKIE_LIFETIME_SECONDS,
  MAX_PERIOD_SECONDS,
  parseConfig,
  settingsTable,
} from '../../../src/core/settings/index.js';

const keys = settingsTable.map((s) => s.key);
/** Values an operator might type, and garbage. */
const value = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '',
    ' ',
    '-1',
    '0',
    '1',
    '100',
    '101',
    '1e309',
    '-1e309',
    'Infinity',
    'NaN',
    '12.5',
    '0x10',
    String(2 ** 52),
    'true',
    'FALSE',
    'ip',
    'header:x',
    'jwt:',
    '/a,/b',
    '{"keys":[]}',
  ),
  fc.double().map(String),
  fc.integer().map(String),
);
const store = fc.dictionary(fc.oneof(fc.constantFrom(...keys), fc.string()), value);

describe('parseConfig over arbitrary stores', () => {
  it('never throws, names only keys it read, and stays within every range', () => {
    fc.assert(
      fc.property(store, (values) => {
        const { config, problems } = parseConfig((k) => (Object.hasOwn(values, k) ? values[k]! : null));
        for (const p of problems) expect(keys).toContain(p.key);
        expect(config.allowPercentage).toBeGreaterThanOrEqual(0);
        expect(config.allowPercentage).toBeLessThanOrEqual(100);
        for (const s of [config.allowPeriodSeconds, config.waitPeriodSeconds]) {
          expect(Number.isSafeInteger(s) && s >= 1 && s <= MAX_PERIOD_SECONDS).toBe(true);
        }
        expect(config.cookieLifetimeSeconds >= 1 && config.cookieLifetimeSeconds <= MAX_COOKIE_LIFETIME_SECONDS).toBe(
          true,
        );
        // Every time the room computes stays a safe integer: a few periods past any epoch second this century.
        expect(
          Number.isSafeInteger(4_102_444_800 + 3 * Math.max(config.waitPeriodSeconds, config.allowPeriodSeconds)),
        ).toBe(true);
        for (const e of config.allowSchedule)
          expect(e.pct >= 0 && e.pct <= 100 && Number.isSafeInteger(e.start)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('never turns a typo in allow_percentage into a closed room', () => {
    fc.assert(
      fc.property(value, (v) => {
        const { config, problems } = parseConfig((k) => (k === 'allow_percentage' ? v : null));
        // 0 only when the operator wrote zero.
        if (config.allowPercentage === 0) expect(Number(v.trim())).toBe(0);
        if (problems.length > 0) expect(config.allowPercentage).toBe(100);
      }),
      { numRuns: 2000 },
    );
  });
});
