import { describe, expect, it } from 'vitest';
import { parseConfig, settingsTable } from '../../../src/core/settings/index.js';

const parse = (settings: Record<string, string>) => parseConfig((key) => settings[key] ?? null);

describe('parseConfig', () => {
  it('uses the documented defaults for an empty store, and reports only the missing allow_percentage', () => {
    const { config, problems } = parse({});
    expect(config).toMatchObject({
      enabled: true,
      allowPercentage: 100,
      allowPeriodSeconds: 3600,
      waitPeriodSeconds: 30,
      cookieLifetimeSeconds: 7200,
      activeKey: 'key1',
      logEndpoint: null,
      identity: { kind: 'ip' },
      waitingStatus: 200,
      cookieSecure: 'auto',
      cookieSameSite: 'Lax',
    });
    expect(problems.map((p) => p.key)).toEqual(['allow_percentage']);
  });

  it.each([
    ['abc', 100],
    ['', 100],
    ['150', 100],
    // Out of range is unusable, like any other unusable number: the default, never a clamp to 0 that
    // would deny everyone and clear the cookie of everyone inside.
    ['-5', 100],
    ['-1', 100],
    ['-1e309', 100],
    ['Infinity', 100],
    ['12.5', 12.5],
    [' 40 ', 40],
    ['1e2', 100],
  ])('allow_percentage %j -> %d', (value, expected) => {
    const { config, problems } = parse({ allow_percentage: value });
    expect(config.allowPercentage).toBe(expected);
    if (!['12.5', ' 40 '].includes(value)) expect(problems.map((p) => p.key)).toContain('allow_percentage');
  });

  it.each([
    ['allow_period_duration', 'allowPeriodSeconds'],
    ['wait_period_duration', 'waitPeriodSeconds'],
    ['cookie_lifetime', 'cookieLifetimeSeconds'],
  ] as const)('falls back and names %s when malformed or out of range', (key, field) => {
    // 2^52 seconds used to be accepted: expiries past Number.MAX_SAFE_INTEGER, and nobody ever drawn.
    for (const bad of [
      '0',
      '-1',
      '1.5',
      '30s',
      'soon',
      String(2 ** 52),
      key === 'cookie_lifetime' ? '34560001' : '315360001',
    ]) {
      const { config, problems } = parse({ allow_percentage: '50', [key]: bad });
      const fallback = Number(settingsTable.find((s) => s.key === key)!.default);
      expect(config[field], `${key}=${bad}`).toBe(fallback);
      expect(problems).toEqual([expect.objectContaining({ key, value: bad })]);
    }
    const max = key === 'cookie_lifetime' ? 34_560_000 : 315_360_000;
    expect(parse({ allow_percentage: '50', [key]: String(max) }).config[field]).toBe(max);
  });

  it('reads the other settings and names each bad one', () => {
    const { config, problems } = parse({
      allow_percentage: '50',
      enabled: 'FALSE',
      identity: 'header:X-User-Id',
      invite_only: 'maybe',
      waiting_status: '418',
      cookie_secure: 'true',
      cookie_samesite: 'none',
      jwt_jwks: '{"nope":1}',
      log_endpoint: 'my-logger',
    });
    expect(config).toMatchObject({
      enabled: false,
      identity: { kind: 'header', name: 'X-User-Id' },
      inviteOnly: false,
      waitingStatus: 200,
      cookieSecure: 'true',
      cookieSameSite: 'None',
      jwtJwks: null,
      logEndpoint: 'my-logger',
    });
    expect(problems.map((p) => p.key).sort()).toEqual(['invite_only', 'jwt_jwks', 'waiting_status']);
  });

  it('reads log_sample_rate, a share above 0 and at most 1, and names it when it is not one', () => {
    expect(parse({ allow_percentage: '50' }).config.logSampleRate).toBe(1);
    expect(parse({ allow_percentage: '50', log_sample_rate: '0.01' }).config.logSampleRate).toBe(0.01);
    for (const bad of ['0', '1.5', '-0.1', 'half', '1e-3']) {
      const { config, problems } = parse({ allow_percentage: '50', log_sample_rate: bad });
      expect(config.logSampleRate, bad).toBe(1);
      expect(problems).toEqual([expect.objectContaining({ key: 'log_sample_rate', value: bad })]);
    }
  });

  it('rejects an identity it cannot use', () => {
    for (const bad of ['cookie', 'header:', 'jwt:bad name', 'ipv6']) {
      const { config, problems } = parse({ allow_percentage: '50', identity: bad });
      expect(config.identity).toEqual({ kind: 'ip' });
      expect(problems[0]?.key).toBe('identity');
    }
  });

  it('documents every setting it reads in settingsTable', () => {
    const read = new Set<string>();
    parseConfig((key) => {
      // One `message.TAG` per built-in language, documented as one row.
      read.add(key.startsWith('message.') ? 'message.TAG' : key);
      return null;
    });
    expect([...read].sort()).toEqual(settingsTable.map((s) => s.key).sort());
  });

  it('keeps only JWKS keys the edge can verify, naming the others', () => {
    const jwks = JSON.stringify({
      keys: [
        { kty: 'EC', crv: 'P-256', x: 'x', y: 'y', kid: 'good' },
        { kty: 'oct', k: 'c2VjcmV0', kid: 'shared' },
        { kty: 'OKP', crv: 'Ed25519', x: 'x', kid: 'edwards' },
        { kty: 'RSA', n: 'n', e: 'AQAB', alg: 'PS256', kid: 'pss' },
      ],
    });
    const { config, problems } = parse({ allow_percentage: '50', identity: 'jwt:authorization', jwt_jwks: jwks });
    expect(config.jwtJwks?.keys.map((k) => k.kid)).toEqual(['good']);
    expect(problems.map((p) => `${p.key}:${p.value}`)).toEqual(['jwt_jwks:shared', 'jwt_jwks:edwards', 'jwt_jwks:pss']);
  });
});
