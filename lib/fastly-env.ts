// The environment that points the real Fastly CLI at a local stand-in of Fastly's API (fastly-api/):
// both endpoints, a token, a scratch HOME (so no operator's profile or config is read or written),
// trust in the stand-in's Secret Store signing key, and the stand-in as HTTPS proxy, so the CLI's
// own check for a newer version goes nowhere (Go never proxies loopback, so the API calls go direct).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const STANDIN_TOKEN = 'standin-token';

export interface FastlyEnvOptions {
  /** The stand-in's address, e.g. http://127.0.0.1:8111. */
  url: string;
  /** The HOME the CLI keeps its config under (default: a new temporary directory). */
  home?: string;
  token?: string;
}

/** The variables to set (and nothing else): what `npm run fastly-api` prints to export. */
export function fastlyEnvVars(options: FastlyEnvOptions): Record<string, string> {
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'wr-fastly-home-'));
  return {
    FASTLY_API_ENDPOINT: options.url,
    FASTLY_ACCOUNT_ENDPOINT: options.url,
    FASTLY_API_TOKEN: options.token ?? STANDIN_TOKEN,
    FASTLY_USE_API_SIGNING_KEY: '1',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    HTTPS_PROXY: options.url,
    HTTP_PROXY: options.url,
    NO_PROXY: '',
  };
}

/**
 * A whole environment for a child process: `base` (default process.env) without any FASTLY_* of the
 * operator's (a service id, a profile) or proxy setting, plus fastlyEnvVars.
 */
export function fastlyEnv(options: FastlyEnvOptions, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const kept = Object.entries(base).filter(
    ([k]) => !/^FASTLY_/.test(k) && !/^(https?|no|all)_proxy$/i.test(k) && k !== 'WR_FASTLY_BIN',
  );
  return { ...Object.fromEntries(kept), ...fastlyEnvVars(options) };
}
