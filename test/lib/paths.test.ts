// Where the tools find the local store files: a path given on the command line wins, then the
// environment (how tests keep off the files a running `npm start` serves), then local/.
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configFile, keysFile, repoRoot } from '../../lib/paths.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('store file paths', () => {
  it('default to local/ in the repository', () => {
    vi.stubEnv('WR_CONFIG_FILE', undefined);
    vi.stubEnv('WR_KEYS_FILE', undefined);
    expect(configFile()).toBe(path.join(repoRoot, 'local', 'config.json'));
    expect(keysFile()).toBe(path.join(repoRoot, 'local', 'keys.json'));
  });

  it('take the environment over the default, and an argument over both, as absolute paths', () => {
    vi.stubEnv('WR_CONFIG_FILE', '/tmp/elsewhere/config.json');
    vi.stubEnv('WR_KEYS_FILE', 'relative/keys.json');
    expect(configFile()).toBe('/tmp/elsewhere/config.json');
    expect(keysFile()).toBe(path.resolve('relative/keys.json'));
    expect(configFile('given.json')).toBe(path.resolve('given.json'));
  });
});
