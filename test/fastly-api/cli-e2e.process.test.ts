// The project's `--service` tools end to end through the REAL Fastly CLI (node_modules'
// @fastly/cli binary) against the local stand-in of Fastly's API: what a service's stores hold after
// `npm run tune`, `npm run keys` and `npm run pages`, which API calls each made, the messages an
// operator reads when the API refuses (the Config Store's limits, the rate limit, an outage), and
// `fastly log-tail` feeding the controller's log source.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { logTailSource } from '../../control/sources/index.js';
import { seedService, type SeededService } from '../../fastly-api/seed.js';
import { startFastlyApi, type FastlyApi } from '../../fastly-api/server.js';
import { fastlyBin } from '../../lib/fastly-cli.js';
import { fastlyEnv, fastlyEnvVars, STANDIN_TOKEN } from '../../lib/fastly-env.js';
import { repoRoot } from '../../lib/paths.js';
import { encodePages, pageKey } from '../../scripts/pages-to-store.js';
import { runCommand as run } from '../support/run-command.js';

const example = JSON.parse(readFileSync(join(repoRoot, 'local', 'config.example.json'), 'utf8')) as Record<
  string,
  string
>;
let api: FastlyApi;
let svc: SeededService;
let home: string;
let env: NodeJS.ProcessEnv;
const tool = (script: string, args: string[]) => run(process.execPath, ['--import', 'tsx', script, ...args], env);
const fastly = (args: string[], stdin?: string) => run(fastlyBin, args, env, stdin);
/** The API calls made by `fn` (the account endpoint's OpenID metadata left out), as `METHOD path status`. */
async function callsOf<T>(fn: () => Promise<T>): Promise<{ result: T; calls: string[] }> {
  const from = api.calls.length;
  const result = await fn();
  const calls = api.calls
    .slice(from)
    .filter((c) => !c.path.startsWith('/realms/'))
    .map((c) => `${c.method} ${c.path} ${c.status}`);
  return { result, calls };
}

beforeAll(async () => {
  expect(
    existsSync(fastlyBin) && !fastlyBin.includes('.bin'),
    `the real Fastly CLI binary, not a wrapper: ${fastlyBin}`,
  ).toBe(true);
  api = await startFastlyApi();
  svc = seedService(api, { config: example });
  home = mkdtempSync(join(tmpdir(), 'wr-fastly-e2e-'));
  env = fastlyEnv({ url: api.url, home });
});
afterAll(async () => {
  await api?.stop();
  rmSync(home, { recursive: true, force: true });
});

describe('the --service tools through the real Fastly CLI', () => {
  it('npm run tune -- --service changes a room in the linked Config Store in one write, and its status basis in another', async () => {
    const { result, calls } = await callsOf(() =>
      tool('scripts/tune.ts', ['--service', 'SVC', '--room', 'checkout', 'new_users_per_minute=45']),
    );
    expect(result.code, result.err).toBe(0);
    expect(result.out).toContain(`Config Store ${svc.configStoreId} updated`);
    expect(JSON.parse(api.store(svc.configStoreId)['room.checkout']!)).toMatchObject({
      new_users_per_minute: '45',
      wait_period_duration: '5',
    });
    expect(calls).toEqual([
      'GET /service/SVC/details 200',
      'GET /service/SVC/version/1/resource 200',
      `GET /resources/stores/config/${svc.configStoreId}/items 200`,
      `PUT /resources/stores/config/${svc.configStoreId}/item/room.checkout 200`,
      // new_users_per_minute is one of the settings the room's status copies (docs/status.md).
      `PUT /resources/stores/config/${svc.configStoreId}/item/room.checkout.live 200`,
    ]);
    // the CLI's own version check (awaited after a write) went to the stand-in as proxy, and no further
    expect(api.refused.length).toBeGreaterThan(0);
    expect(new Set(api.refused)).toEqual(new Set(['developer.fastly.com:443']));
  });

  it('npm run keys -- rotate --fastly-service makes the secret (sealed by the CLI) before switching active_key', async () => {
    const { result, calls } = await callsOf(() =>
      tool('scripts/keys.ts', ['rotate', 'key2', '--fastly-service', 'SVC']),
    );
    expect(result.code, result.err).toBe(0);
    expect(result.out).toContain('created secret "key2" and set active_key to "key2"');
    expect(api.secrets.names(svc.secretStoreId)).toEqual({ key2: { bytes: 88, sealed: true } });
    // what the CLI sealed, opened as Fastly opens it: a 64-byte key in base64, as the room reads it
    expect(Buffer.from(api.secrets.value(svc.secretStoreId, 'key2').toString(), 'base64')).toHaveLength(64);
    expect(JSON.parse(api.store(svc.configStoreId).settings!)).toMatchObject({
      active_key: 'key2',
      allow_percentage: '50',
    });
    const create = calls.indexOf(`POST /resources/stores/secret/${svc.secretStoreId}/secrets 200`);
    const write = calls.indexOf(`PUT /resources/stores/config/${svc.configStoreId}/item/settings 200`);
    expect(create).toBeGreaterThan(-1);
    expect(write).toBeGreaterThan(create);
    expect(calls).toContain('POST /resources/stores/secret/client-key 200');
    expect(calls).toHaveLength(9);
  });

  it("npm run pages -- --fastly-service prints commands that, run in a shell, fill the service's page store", async () => {
    const printed = await tool('scripts/pages-to-store.ts', ['--fastly-service', 'SVC']);
    expect(printed.code, printed.err).toBe(0);
    // Run exactly as printed, in the project's directory, with no `fastly` on the PATH (npm test puts
    // node_modules/.bin there; an operator's shell does not).
    const path = (env.PATH ?? '').split(':').filter((dir) => !dir.includes(join('node_modules', '.bin')));
    const { result, calls } = await callsOf(() => run('bash', ['-e'], { ...env, PATH: path.join(':') }, printed.out));
    expect(result.code, result.err).toBe(0);
    const pages = await encodePages(join(repoRoot, 'pages'));
    expect(api.store(svc.pageStoreId)).toEqual(Object.fromEntries(pages.map((p) => [pageKey(p.name), p.base64])));
    expect(calls.slice(0, 2)).toEqual(['GET /service/SVC/version 200', 'GET /service/SVC/version/1/resource 200']);
    expect(calls.slice(2)).toEqual(
      pages.map((p) => `PUT /resources/stores/config/${svc.pageStoreId}/item/${pageKey(p.name)} 200`),
    );
  });
});

describe('the Fastly CLI itself', () => {
  it('seals a secret the stand-in opens to the bytes given on stdin', async () => {
    const made = await fastly(
      ['secret-store-entry', 'create', '--store-id', svc.secretStoreId, '--name', 'probe', '--stdin'],
      'the value\n',
    );
    expect(made.code, made.err).toBe(0);
    expect(api.secrets.value(svc.secretStoreId, 'probe').toString()).toBe('the value\n');
  });
});

describe("the API's refusals, as the operator reads them from the CLI", () => {
  it('a 501st entry and an 8,001-character value are refused, the store unchanged', async () => {
    const full = api.config.create('full', 'FULL');
    api.config.seed(full.id, Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, 'v'])));
    const more = await fastly([
      'config-store-entry',
      'update',
      '--upsert',
      '--store-id',
      'FULL',
      '--key',
      'one-more',
      '--value',
      'v',
    ]);
    expect(more.code).toBe(1);
    expect(more.err).toContain(
      'ERROR: the Fastly API returned 400 Bad Request: Bad request (store FULL holds 500 items, the most a Config Store may hold; one-more would be one more)',
    );
    const long = await fastly([
      'config-store-entry',
      'update',
      '--upsert',
      '--store-id',
      svc.configStoreId,
      '--key',
      'message',
      '--value',
      'x'.repeat(8001),
    ]);
    expect(long.code).toBe(1);
    expect(long.err).toContain(
      '400 Bad Request: Bad request (item_value of message is 8001 characters; a Config Store value may have at most 8000)',
    );
    expect(Object.keys(api.store('FULL'))).toHaveLength(500);
    expect(api.store(svc.configStoreId).message).toBeUndefined();
  });

  it('tune says the API is over its rate limit, or down, and writes nothing', async () => {
    const spent = await startFastlyApi({ callsPerHour: 1000 });
    try {
      const other = seedService(spent, { config: example });
      for (let i = 0; i < 1000; i++) spent.rateLimit.take(STANDIN_TOKEN, 'PUT', Date.now());
      const over = await run(
        process.execPath,
        ['--import', 'tsx', 'scripts/tune.ts', '--service', 'SVC', 'allow_percentage=10'],
        fastlyEnv({ url: spent.url, home }),
      );
      expect(over.code).toBe(1);
      expect(over.err).toMatch(
        /fastly service resource-link list failed \(exit 1\): ERROR: the Fastly API returned 429 Too Many Requests: Too many requests \(over 1000 calls an hour; the limit resets in \d+ s/,
      );
      expect(spent.calls.filter((c) => c.limited).map((c) => c.status)).toEqual([429]);
      expect(spent.store(other.configStoreId)).toEqual(example);
    } finally {
      await spent.stop();
    }
    api.faults.push({ path: `/resources/stores/config/${svc.configStoreId}/items`, status: 503, times: 1 });
    const down = await tool('scripts/tune.ts', ['--service', 'SVC', 'allow_percentage=10']);
    expect(down.code).toBe(1);
    expect(down.err).toContain(
      'fastly config-store-entry list failed (exit 1): ERROR: the Fastly API returned 503 Service Unavailable',
    );
    expect(JSON.parse(api.store(svc.configStoreId).settings!).allow_percentage).toBe('50');
  });
});

describe('fastly log-tail against the stand-in', () => {
  it("feeds the controller's log source the lines the service prints", async () => {
    for (const [k, v] of Object.entries(fastlyEnvVars({ url: api.url, home }))) vi.stubEnv(k, v);
    const lines: string[] = [];
    const source = logTailSource('SVC', (text) => lines.push(text));
    try {
      await vi.waitFor(() => expect(api.logs.enabled('SVC')).toBe(true), { timeout: 20_000, interval: 100 });
      api.logs.push('SVC', ['{"wr":1,"n":1}', '{"wr":1,"n":2}']);
      // the CLI holds lines in its one-second sort buffer before printing them
      await vi.waitFor(() => expect(lines.filter((l) => l.includes('{"wr"'))).toHaveLength(2), {
        timeout: 20_000,
        interval: 100,
      });
    } finally {
      source.stop();
      vi.unstubAllEnvs();
    }
    // The CLI's own words (INFO: Managed logging enabled ...) come on stdout too: the controller skips
    // them. Lines of different requests come in either order (the CLI sorts within a request only).
    const json = lines.filter((l) => l.includes('{')).map((l) => l.replace(/^\s*stdout \| \w+ \| /, ''));
    expect(json.sort()).toEqual(['{"wr":1,"n":1}', '{"wr":1,"n":2}']);
    expect(source.error).toBeNull();
  });
});
