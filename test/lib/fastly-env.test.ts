import { describe, expect, it } from 'vitest';
import { fastlyEnv, fastlyEnvVars } from '../../lib/fastly-env.js';

describe('the environment for the Fastly CLI against the stand-in', () => {
  it('points both endpoints and the proxy at the stand-in, with a token and a scratch HOME', () => {
    const vars = fastlyEnvVars({ url: 'http://127.0.0.1:9', home: '/tmp/h' });
    expect(vars).toMatchObject({
      FASTLY_API_ENDPOINT: 'http://127.0.0.1:9',
      FASTLY_ACCOUNT_ENDPOINT: 'http://127.0.0.1:9',
      FASTLY_API_TOKEN: 'standin-token',
      FASTLY_USE_API_SIGNING_KEY: '1',
      HOME: '/tmp/h',
      XDG_CONFIG_HOME: '/tmp/h/.config',
      HTTPS_PROXY: 'http://127.0.0.1:9',
    });
    expect(fastlyEnvVars({ url: 'http://127.0.0.1:9' }).HOME).toMatch(/wr-fastly-home-/);
  });

  it("drops the operator's own Fastly settings and proxies, keeping the rest", () => {
    const env = fastlyEnv(
      { url: 'http://127.0.0.1:9', home: '/tmp/h' },
      {
        PATH: '/bin',
        FASTLY_SERVICE_ID: 'real',
        FASTLY_API_TOKEN: 'real',
        https_proxy: 'http://corp',
        WR_FASTLY_BIN: '/x',
      },
    );
    expect(env.PATH).toBe('/bin');
    expect(env.FASTLY_SERVICE_ID).toBeUndefined();
    expect(env.FASTLY_API_TOKEN).toBe('standin-token');
    expect(env.https_proxy).toBeUndefined();
    expect(env.WR_FASTLY_BIN).toBeUndefined();
  });
});
